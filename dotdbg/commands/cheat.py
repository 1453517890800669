"""``dotdbg cheat`` in the typer app, so that ``dotdbg --help`` lists it.

A lookup never comes here: dotdbg.entry sends ``dotdbg cheat ...`` (and ``dotdbg --verbose
cheat ...``) to dotdbg.cheat.fast before typer is imported. Should this run all the same, it
hands the words on; click drops a ``--`` among them.
"""

from __future__ import annotations

import typer

CHEAT_SETTINGS = {
    "allow_extra_args": True,
    "ignore_unknown_options": True,
    "help_option_names": [],
}


def cheat(ctx: typer.Context) -> None:
    """Look up cheatsheets: WORD [TERM...]; -c, --json, --edit NAME (dotdbg cheat --help)."""
    from dotdbg.cheat.fast import main

    raise typer.Exit(main(list(ctx.args)))


def register(app: typer.Typer) -> None:
    app.command("cheat", context_settings=CHEAT_SETTINGS, add_help_option=False)(cheat)
