"""Commands on the typer app that live with aliases: suggest and expand (alias, fn and pack
are on the fast command line: ``dotdbg.commands.edits``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from dotdbg import edit
from dotdbg.commands.core import HomeOption
from dotdbg.commands.edits import report
from dotdbg.config import load_config
from dotdbg.config.model import Config
from dotdbg.expand import expand as expand_aliases
from dotdbg.history import history_path, read_history
from dotdbg.notices import note, warn
from dotdbg.paths import Paths
from dotdbg.suggest import Existing, format_suggestions, learned_stems, pick, rc_names
from dotdbg.suggest import suggest as propose
from dotdbg.visible import visible


def register(app: typer.Typer) -> None:
    app.command()(suggest)
    app.command()(expand)


def suggest(
    history: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--history", metavar="FILE", help="Default: $HISTFILE or ~/.bash_history."),
    ] = None,
    top: Annotated[
        int, typer.Option("--top", metavar="N", min=1, help="Show at most N proposals.")
    ] = 10,
    apply: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option("--apply", metavar="N", min=1, help="Add proposal N with `alias add`."),
    ] = None,
    home: HomeOption = None,
) -> int:
    """Propose aliases for the commands you type most, from your bash history."""
    paths = Paths.from_env(home)
    config = load_config(paths)
    # --home is hermetic: it ignores $HISTFILE as it ignores the XDG variables.
    path = history or history_path(paths, os.environ if home is None else {})
    entries = read_history(path)
    existing = existing_names(config, defined_elsewhere(paths, config))
    found = propose([entry.command for entry in entries], existing, top=top)
    if apply is None:
        print(format_suggestions(found, paths.display(path), len(entries)), end="")
        return 0
    proposal = pick(found, apply)
    return report(paths, edit.add(paths, "aliases", proposal.name, proposal.command), proposal.name)


def shell_aliases(config: Config) -> dict[str, str]:
    """Every alias the generated dotdbg.bash defines, the cheatsheet shortcut included."""
    aliases = {alias.name: alias.command for alias in config.aliases}
    if config.cheat.alias:
        aliases[config.cheat.alias] = "dotdbg cheat"
    return aliases


def existing_names(config: Config, elsewhere: frozenset[str] = frozenset()) -> Existing:
    bodies = {function.name: function.body for function in config.functions}
    return Existing(
        stems=learned_stems({**shell_aliases(config), **bodies}),
        aliases=shell_aliases(config),
        functions=frozenset(function.name for function in config.functions),
        which=shutil.which,
        elsewhere=elsewhere,
    )


RC_FILES = (".bashrc", ".bash_aliases", ".bash_profile", ".bash_login", ".profile")


def defined_elsewhere(paths: Paths, config: Config) -> frozenset[str]:
    """Names a proposal must not take although ``config`` does not define them: those of the
    shell's start-up files, and the entries of packs switched off (adding one lands there)."""
    names: set[str] = set()
    for name in RC_FILES:
        with contextlib.suppress(OSError):
            names |= rc_names((paths.home / name).read_text(encoding="utf-8", errors="replace"))
    in_off_packs = {
        off.name
        for off in config.switched_off
        if not off.removed and off.section in ("aliases", "functions")
    }
    return frozenset(names | in_off_packs)


def expand(
    command: Annotated[
        str, typer.Argument(metavar="COMMAND", help="The command line, quoted as one argument.")
    ],
    home: HomeOption = None,
) -> int:
    """Print COMMAND with dotdbg's aliases expanded as bash would, for docs and bug reports."""
    paths = Paths.from_env(home)
    config = load_config(paths)
    functions = {function.name for function in config.functions}
    result = expand_aliases(command, shell_aliases(config), functions)
    shown = visible(result.text) if sys.stdout.isatty() else result.text
    print(shown)
    if shown != result.text:
        warn("control characters in it are shown as escapes; pipe the output for the exact text")
    for name in dict.fromkeys(result.open_ended):
        warn(
            f"alias {name} ends inside a quote or $(: bash reads on into the text after it, "
            "which expand does not follow; check the result"
        )
    descriptions = {function.name: function.desc for function in config.functions}
    for name in dict.fromkeys(result.functions):
        note(
            f"{name} is a dotdbg function ({visible(descriptions[name])}), not inlined: "
            f"readers without dotdbg need its definition (`type {name}`)"
        )
    return 0
