"""The typer app of dotdbg's own commands: parse arguments, call one function, print the result.

The commands in dotdbg.entry.FAST never come here (they parse with dotdbg.cmdline); the app
only lists them, so that ``dotdbg --help`` shows every command. Usage errors are turned into
dotdbg's two lines (``dotdbg: error: …``, ``hint: see `dotdbg alias add --help```) and help is
plain text: no type tags, no markup to eat ``[packs]``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from dotdbg import __version__, typerstyle
from dotdbg.entry import FAST
from dotdbg.runner import run

app = typer.Typer(name="dotdbg", **typerstyle.APP_SETTINGS)  # type: ignore[arg-type]


def _version(value: bool) -> None:
    if value:
        print(f"dotdbg {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
    verbose: Annotated[bool, typer.Option("--verbose", help="Show details of errors.")] = False,
) -> None:
    """dotdbg: the shell you debug in, set up in one command.

    Aliases, history search, pdb aliases, cheatsheets, and helpers for Python processes.
    """


# Feature modules add their commands here; each module keeps its own imports lazy.
from dotdbg.commands import aliases_edit, core  # noqa: E402

core.register(app)
aliases_edit.register(app)
typerstyle.list_fast_commands(app, FAST)


def main(argv: list[str], verbose: bool = False) -> int:
    return run(lambda: typerstyle.invoke(app, argv, "dotdbg"), "dotdbg", verbose)
