"""Every line dotdbg writes for the user on stderr, in one format: ``PROGRAM: text``.

``note`` and ``warn`` are dotdbg's own (``dotdbg: …``, ``dotdbg: warning: …``); a helper
talks through ``reporter(program)`` (``memlimit: …``); errors are ``PROGRAM: error: …`` and
``hint: …`` (``dotdbg.errors.DotdbgError.lines``, printed by ``dotdbg.cli.runner``).
``home_relative`` is how a path under the home is shown; ``rich_console`` the one way to a
table. Standard library only: the cheat lookup imports this module in a dotdbg ssh session.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # the typing module costs milliseconds on the fast paths; mypy knows this
if TYPE_CHECKING:
    import threading
    from collections.abc import Callable

    from rich.console import Console

    Report = Callable[[str], None]  # a say(text): one line to the user
else:  # a name for annotations only: importing collections.abc costs the cheat lookup 2 ms
    Report = "Callable[[str], None]"

PROGRAM = "dotdbg"


def said(program: str, text: str) -> str:
    return f"{program}: {text}"


def note(line: str, program: str = PROGRAM) -> None:
    print(said(program, line), file=sys.stderr, flush=True)


def progress(line: str, program: str = PROGRAM) -> None:
    """What a wait of more than a second is for, where a person watches stderr (a terminal); a
    node-side or piped run keeps its stderr for what went wrong."""
    if sys.stderr.isatty():
        note(line, program)


def after_a_second(line: str, program: str = PROGRAM) -> threading.Timer:
    """``progress(line)`` if the wait is not over within a second: ``.cancel()`` it at the end."""
    import threading  # not for the cheat lookup, which imports this module

    timer = threading.Timer(1.0, progress, (line, program))
    timer.daemon = True
    timer.start()
    return timer


def warn(line: str, program: str = PROGRAM) -> None:
    note(f"warning: {line}", program)


def hint(line: str) -> None:
    """The line under an error or a finding that says what to do: ``hint: …``, lower case."""
    print(f"hint: {line[:1].lower()}{line[1:]}", file=sys.stderr, flush=True)


class slow_notice:
    """``with slow_notice("reading the stacks through gdb"):``: says so on stderr, when it is a
    terminal, if the block still runs after ``after`` seconds, so long work is never a blank
    screen; quick work says nothing."""

    def __init__(self, line: str, program: str = PROGRAM, after: float = 1.0) -> None:
        import threading

        self._timer = threading.Timer(after, note, (f"{line} …", program))
        self._timer.daemon = True

    def __enter__(self) -> None:
        if sys.stderr.isatty():  # for a person watching; a script reading stderr gets no noise
            self._timer.start()

    def __exit__(self, *exc: object) -> None:
        self._timer.cancel()


def reporter(program: str) -> Report:
    """A ``say(text)`` printing ``program: text`` on stderr, flushed (a fill may run for hours)."""

    def say(text: str) -> None:
        note(text, program)

    return say


def home_relative(path: str | os.PathLike[str], home: str | os.PathLike[str] | None = None) -> str:
    """``path`` as the user reads it: ``~/…`` under ``home`` (default: $HOME), else as it is."""
    shown, base = os.fspath(path), os.fspath(home) if home is not None else _home()
    base = base.rstrip(os.sep)
    if not base or shown == base:
        return "~" if base and shown == base else shown
    if shown.startswith(base + os.sep):
        return "~" + shown[len(base) :]
    return shown


def _home() -> str:
    return os.environ.get("HOME") or os.path.expanduser("~")


def times(count: int, thing: str = "time") -> str:
    """``1 time``, ``3 times``; ``times(2, "warning")`` is ``2 warnings``."""
    return f"{count} {thing}{'' if count == 1 else 's'}"


def rich_console(**options: object) -> Console:
    """A rich Console whose closed pipe ends the run as every command's does (dotdbg.cli.runner:
    exit 141); rich's own handling exits 1."""
    from rich.console import Console

    class PipeAware(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return PipeAware(**options)  # type: ignore[arg-type]
