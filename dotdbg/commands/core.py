"""Commands of the core: install, uninstall, status, diff, render, init, doctor, aliases."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Core commands are added by the core issue."""
