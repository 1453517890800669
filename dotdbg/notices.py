"""Messages for the user on stderr: `dotdbg: …` notes and `dotdbg: warning: …`."""

from __future__ import annotations

import sys


def warn(line: str) -> None:
    print(f"dotdbg: warning: {line}", file=sys.stderr)


def note(line: str) -> None:
    print(f"dotdbg: {line}", file=sys.stderr)
