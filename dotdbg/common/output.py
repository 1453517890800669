"""How a helper talks to the user: one line on stderr, behind the name of the program."""

from __future__ import annotations

import sys
from collections.abc import Callable

TYPE_CHECKING = False  # the typing module costs milliseconds on the fast paths; mypy knows this
if TYPE_CHECKING:
    from rich.console import Console

Report = Callable[[str], None]  # a say(text): one line to the user


def said(program: str, text: str) -> str:
    return f"{program}: {text}"


def reporter(program: str) -> Report:
    """A ``say(text)`` printing ``program: text`` on stderr, flushed (a fill may run for hours)."""

    def say(text: str) -> None:
        print(said(program, text), file=sys.stderr, flush=True)

    return say


def rich_console(**options: object) -> Console:
    """A rich Console whose closed pipe ends the run as every command's does (dotdbg.runner:
    exit 141); rich's own handling exits 1."""
    from rich.console import Console

    class PipeAware(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return PipeAware(**options)  # type: ignore[arg-type]
