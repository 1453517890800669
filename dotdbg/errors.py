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

    def lines(self) -> list[str]:
        where = f"{self.location}: " if self.location else ""
        out = [f"dotdbg: error: {where}{self.message}"]
        if self.hint:
            out.append(f"hint: {self.hint}")
        return out
