"""suggest and expand, the commands that read your aliases (alias, fn and pack, which edit
them, are in ``edits.py``)."""

from __future__ import annotations

from dotdbg.cli.commands.home import HOME, JSON, home_paths
from dotdbg.cli.parser import Argument, Command, Option, integer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.aliases.suggest import Existing
    from dotdbg.cli.parser import Values
    from dotdbg.config.model import Config
    from dotdbg.paths import Paths


def suggest(values: Values) -> int:
    import os
    from pathlib import Path

    from dotdbg.aliases.history import count_history, history_path
    from dotdbg.aliases.suggest import format_suggestions, pick, suggest_counted
    from dotdbg.cli.commands.edits import report
    from dotdbg.config import load_config
    from dotdbg.home import edit

    if values["json"] and values["apply"] is not None:
        from dotdbg.errors import UsageError

        raise UsageError(
            "--json and --apply cannot be used together", help_command="dotdbg suggest"
        )
    paths = home_paths(values)
    config = load_config(paths)
    # --home is hermetic: it ignores $HISTFILE as it ignores the XDG variables.
    chosen = values["history"]
    path = (None if chosen is None else Path(chosen)) or history_path(
        paths, os.environ if values["home"] is None else {}
    )
    counts, entries = count_history(path)
    existing = existing_names(config, defined_elsewhere(paths, config))
    found = suggest_counted(counts, existing, top=values["top"])
    if values["json"]:
        from dotdbg.cli import jsonout

        jsonout.emit(jsonout.suggestions(found, path, entries))
        return 0
    if values["apply"] is None:
        print(format_suggestions(found, paths.display(path), entries), end="")
        return 0
    proposal = pick(found, values["apply"])
    return report(paths, edit.add(paths, "aliases", proposal.name, proposal.command), proposal.name)


def shell_aliases(config: Config) -> dict[str, str]:
    """Every alias the generated dotdbg.bash defines, the cheatsheet shortcut included."""
    aliases = {alias.name: alias.command for alias in config.aliases}
    if config.cheat.alias:
        aliases[config.cheat.alias] = "dotdbg cheat"
    return aliases


def existing_names(config: Config, elsewhere: frozenset[str] = frozenset()) -> Existing:
    import shutil

    from dotdbg.aliases.suggest import Existing, learned_stems

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
    import contextlib

    from dotdbg.aliases.suggest import rc_names

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


def expand(values: Values) -> int:
    import sys

    from dotdbg.aliases.expand import expand as expand_aliases
    from dotdbg.common.output import note, warn
    from dotdbg.config import load_config
    from dotdbg.visible import visible

    config = load_config(home_paths(values))
    functions = {function.name for function in config.functions}
    result = expand_aliases(values["command"], shell_aliases(config), functions)
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


SUGGEST = Command(
    "suggest",
    "Propose aliases for the commands you type most, from your bash history.",
    suggest,
    options=[
        Option(["--history"], "Default: $HISTFILE or ~/.bash_history.", metavar="FILE"),
        Option(["--top"], "Show at most N proposals.", metavar="N", convert=integer(1), default=10),
        Option(["--apply"], "Add proposal N with `alias add`.", metavar="N", convert=integer(1)),
        HOME,
        JSON,
    ],
)
EXPAND = Command(
    "expand",
    "Print COMMAND with dotdbg's aliases expanded as bash would, for docs and bug reports.",
    expand,
    arguments=[
        Argument(
            "command", "The command line, quoted as one argument.", required=True, metavar="COMMAND"
        )
    ],
    options=[HOME],
)
