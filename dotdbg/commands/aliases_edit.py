"""Commands that live with aliases: alias add/rm/on, fn add/rm/on, pack on/off, suggest,
expand."""

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
from dotdbg.config import load_config
from dotdbg.config.model import Config
from dotdbg.expand import expand as expand_aliases
from dotdbg.history import history_path, read_history
from dotdbg.notices import note, warn
from dotdbg.paths import Paths
from dotdbg.shadows import shadow_warnings
from dotdbg.suggest import Existing, format_suggestions, learned_stems, pick, rc_names
from dotdbg.suggest import suggest as propose
from dotdbg.typerstyle import APP_SETTINGS
from dotdbg.visible import visible

alias_app = typer.Typer(help="Add or remove an alias in your config.", **APP_SETTINGS)  # type: ignore[arg-type]
fn_app = typer.Typer(help="Add or remove a shell function in your config.", **APP_SETTINGS)  # type: ignore[arg-type]
pack_app = typer.Typer(help="Switch a pack of aliases and functions on or off.", **APP_SETTINGS)  # type: ignore[arg-type]

PackOption = Annotated[
    Optional[str],  # noqa: UP045 - typer needs the Optional spelling on Python 3.10
    typer.Option("--pack", metavar="PACK", help="Put it in PACK (switchable in [packs])."),
]
NameArgument = Annotated[str, typer.Argument(metavar="NAME", help="The name to remove.")]
NewPackOption = Annotated[
    bool,
    typer.Option("--new-pack", help="PACK is new even if its name is close to a known one."),
]
OnArgument = Annotated[str, typer.Argument(metavar="NAME", help="The name to switch back on.")]
PackArgument = Annotated[str, typer.Argument(metavar="PACK", help="The pack, e.g. git.")]
DescOption = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--desc", metavar="TEXT", help="One line for `dotdbg aliases`."),
]


def register(app: typer.Typer) -> None:
    app.add_typer(alias_app, name="alias")
    app.add_typer(fn_app, name="fn")
    app.add_typer(pack_app, name="pack")
    app.command()(suggest)
    app.command()(expand)


@alias_app.command("add")
def alias_add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The alias, e.g. gs.")],
    command: Annotated[
        str, typer.Argument(metavar="COMMAND", help="What it stands for, quoted as one argument.")
    ],
    pack: PackOption = None,
    desc: DescOption = None,
    new_pack: NewPackOption = False,
    home: HomeOption = None,
) -> int:
    """Add (or replace) an alias, re-install, and print the line that loads it in this shell."""
    paths = Paths.from_env(home)
    outcome = edit.add(paths, "aliases", name, command, desc, pack, new_pack)
    return _report(paths, outcome, name)


@alias_app.command("rm")
def alias_rm(name: NameArgument, home: HomeOption = None) -> int:
    """Remove an alias (a built-in one is switched off with `name = false`)."""
    paths = Paths.from_env(home)
    return _report(paths, edit.remove(paths, "aliases", name), name)


@alias_app.command("on")
def alias_on(name: OnArgument, home: HomeOption = None) -> int:
    """Switch a built-in alias that `alias rm` switched off back on."""
    paths = Paths.from_env(home)
    return _report(paths, edit.switch_on(paths, "aliases", name), name)


@fn_app.command("add")
def fn_add(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The function, e.g. mkcd.")],
    body: Annotated[
        str, typer.Argument(metavar="BODY", help='Its body, e.g. \'mkdir -p "$1" && cd "$1"\'.')
    ],
    pack: PackOption = None,
    desc: DescOption = None,
    new_pack: NewPackOption = False,
    home: HomeOption = None,
) -> int:
    """Add (or replace) a function, re-install, and print the line that loads it in this shell."""
    paths = Paths.from_env(home)
    outcome = edit.add(paths, "functions", name, body, desc, pack, new_pack)
    return _report(paths, outcome, name)


@fn_app.command("rm")
def fn_rm(name: NameArgument, home: HomeOption = None) -> int:
    """Remove a function (a built-in one is switched off with `name = false`)."""
    paths = Paths.from_env(home)
    return _report(paths, edit.remove(paths, "functions", name), name)


@fn_app.command("on")
def fn_on(name: OnArgument, home: HomeOption = None) -> int:
    """Switch a built-in function that `fn rm` switched off back on."""
    paths = Paths.from_env(home)
    return _report(paths, edit.switch_on(paths, "functions", name), name)


@pack_app.command("on")
def pack_on(pack: PackArgument, home: HomeOption = None) -> int:
    """Switch a pack on: its aliases and functions are defined again."""
    paths = Paths.from_env(home)
    return _report_pack(paths, edit.switch_pack(paths, pack, on=True), pack)


@pack_app.command("off")
def pack_off(pack: PackArgument, home: HomeOption = None) -> int:
    """Switch a pack off (`PACK = false` under [packs])."""
    paths = Paths.from_env(home)
    return _report_pack(paths, edit.switch_pack(paths, pack, on=False), pack)


def _report_pack(paths: Paths, saved: edit.Saved, pack: str) -> int:
    note(f"{saved.action} pack {pack} in {paths.display(paths.config_file)}")
    if saved.install is None:
        note("dotdbg is not installed in this home: run `dotdbg install` to use it")
        return 0
    note("installed: new shells see the change (a running one keeps what it has; `exec bash`)")
    return 0


def _report(paths: Paths, outcome: edit.Outcome, name: str) -> int:
    """Messages on stderr; on stdout only the reload line, so `eval "$(dotdbg alias …)"` works."""
    note(f"{outcome.action} {name} in {paths.display(paths.config_file)}")
    for line in shadow_warnings(outcome.saved.config, shutil.which):
        if line.split()[1] == name:
            warn(line)
    if outcome.off_pack:
        warn(
            f"{name} is in pack {outcome.off_pack}, which is switched off: it stays undefined "
            f"until `{outcome.off_pack} = true` under [packs]"
        )
    if outcome.saved.install is None:
        note("dotdbg is not installed in this home: run `dotdbg install` to use it")
        return 0
    note("installed: new shells see the change, and this line updates the running one:")
    print(outcome.reload)
    return 0


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
    return _report(
        paths, edit.add(paths, "aliases", proposal.name, proposal.command), proposal.name
    )


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
