"""``dotdbg gdb``: mixed Python and C/C++ stacks (pystack, or gdb with CPython's extension)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from dotdbg.gdb import DEFAULT_TIMEOUT


class Via(str, Enum):
    auto = "auto"
    pystack = "pystack"
    gdb = "gdb"


def gdb(
    target: Annotated[
        Optional[list[str]],  # noqa: UP045 - typer evaluates the annotation on Python 3.10 too
        typer.Argument(
            metavar="PID | -- COMMAND…", help="The process; with --break-in, the command to run."
        ),
    ] = None,
    core: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--core", metavar="FILE", help="A core file instead of a live process."),
    ] = None,
    exe: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--exe", metavar="PYTHON", help="The interpreter the core file came from."),
    ] = None,
    interactive: Annotated[
        bool, typer.Option("--interactive", "-i", help="A gdb prompt with py-bt, py-list…")
    ] = False,
    tui: Annotated[bool, typer.Option("--tui", help="The gdb prompt in its text UI.")] = False,
    break_in: Annotated[
        bool,
        typer.Option("--break-in", help="Run COMMAND under gdb; SIGTRAP stops it in gdb."),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON stack record (as dotdbg pyspy --json).")
    ] = False,
    via: Annotated[Via, typer.Option("--via", help="Which engine reads the stacks.")] = Via.auto,
    timeout: Annotated[
        float,
        typer.Option("--timeout", min=0.5, metavar="SECONDS", help="Seconds each engine may take."),
    ] = DEFAULT_TIMEOUT,
    check: Annotated[
        bool, typer.Option("--check", help="Show what gdb needs for this interpreter, and where.")
    ] = False,
) -> None:
    """Python and C/C++ frames of every thread, interleaved: a live process or a core file."""
    from dotdbg.gdb import run

    request = run.parse(
        target or [], core, exe, interactive, tui, break_in, as_json, via.value, timeout, check
    )
    raise typer.Exit(run.main(request))


def register(app: typer.Typer) -> None:
    app.command("gdb")(gdb)
