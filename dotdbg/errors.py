"""The one way errors a user can fix travel to the CLI."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the typing module costs milliseconds on the fast paths; mypy knows this
if TYPE_CHECKING:
    from collections.abc import Callable


class DotdbgError(Exception):
    """A problem the user can fix: what went wrong, where, and how to fix it."""

    exit_code = 2

    def __init__(self, message: str, hint: str = "", location: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.location = location

    def lines(self) -> list[str]:
        where = f"{self.location}: " if self.location else ""
        out = [f"dotdbg: error: {where}{self.message}"]
        if self.hint:
            out.append(f"hint: {self.hint}")
        return out


EXIT_INTERRUPTED = 130


def run_plain(command: Callable[[], int]) -> int:
    """Run a command that bypasses the typer app (a fast path), as ``dotdbg.console.run`` would:
    a DotdbgError becomes its lines on stderr and its exit code, Ctrl-C exit 130."""
    try:
        return command()
    except DotdbgError as error:
        print("\n".join(error.lines()), file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
