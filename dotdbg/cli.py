"""The typer app: parse arguments, call one function, print the result. No logic lives here."""

from __future__ import annotations

from typing import Annotated

import typer

from dotdbg import __version__
from dotdbg.console import run

app = typer.Typer(
    name="dotdbg",
    help="Shell integration for debugging: aliases, history search, pdb aliases, cheatsheets.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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
    """dotdbg: the shell you debug in, set up in one command."""


# Commands that dotdbg.entry runs without this app, to keep them fast.
FAST_COMMANDS = ("cheat",)

# Feature modules add their commands here; each module keeps its own imports lazy.
from dotdbg.commands import aliases_edit, cheat, core, fill, gdb, memlimit, stacks, watch  # noqa: E402

core.register(app)
cheat.register(app)
watch.register(app)
stacks.register(app)
gdb.register(app)
memlimit.register(app)
fill.register(app)
aliases_edit.register(app)


def main(argv: list[str]) -> int:
    return run(app, argv, prog_name="dotdbg")


def command_names() -> list[str]:
    """Subcommand names, for the TAB completion in the generated bash."""
    import typer.main

    group = typer.main.get_command(app)
    return sorted({*getattr(group, "commands", {}), *FAST_COMMANDS})
