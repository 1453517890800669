"""The one way errors a user can fix travel to the CLI."""

from __future__ import annotations


class DotdbgError(Exception):
    """A problem the user can fix: what went wrong, where, and how to fix it."""

    exit_code = 2

    def __init__(self, message: str, hint: str = "", location: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.location = location

    def lines(self, program: str = "dotdbg") -> list[str]:
        """``program: error: …`` and ``hint: …``; ``program`` is the name the user typed."""
        where = f"{self.location}: " if self.location else ""
        out = [f"{program}: error: {where}{self.message}"]
        if self.hint:
            out.append(f"hint: {self.hint}")
        return out


class UsageError(DotdbgError):
    """A missing, unknown or bad argument; the hint points at the command's help."""

    def __init__(self, message: str, help_command: str = "") -> None:
        super().__init__(message)
        self.help_command = help_command

    def lines(self, program: str = "dotdbg") -> list[str]:
        self.hint = f"see `{self.help_command} --help`" if self.help_command else ""
        return super().lines(program)


class Stopped(BaseException):
    """SIGINT or SIGTERM arrived (dotdbg.common.holding raises it); a BaseException so no
    ``except Exception`` swallows it; the command ends with 128 + the signal's number."""

    def __init__(self, signum: int) -> None:
        import signal  # here, not above: every command imports this module

        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum
