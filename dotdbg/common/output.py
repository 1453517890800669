"""How a helper talks to the user: one line on stderr, behind the name of the program."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the typing module costs milliseconds on the fast paths; mypy knows this
if TYPE_CHECKING:
    from collections.abc import Callable


def said(program: str, text: str) -> str:
    return f"{program}: {text}"


def reporter(program: str) -> Callable[[str], None]:
    """A ``say(text)`` printing ``program: text`` on stderr, flushed (a fill may run for hours)."""

    def say(text: str) -> None:
        print(said(program, text), file=sys.stderr, flush=True)

    return say
