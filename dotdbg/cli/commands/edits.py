"""alias add/rm/on, fn add/rm/on and pack on/off: edits of the config, installed at once, on
the command line (``dotdbg.cli.parser``). Messages go to stderr; stdout carries
only the line that updates the running shell, so `eval "$(dotdbg alias add …)"` works."""

from __future__ import annotations

from dotdbg.cli.commands.home import HOME, home_paths
from dotdbg.cli.parser import Argument, Command, Group, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dotdbg.cli.parser import Values
    from dotdbg.home.edit import Outcome, Saved, Section
    from dotdbg.paths import Paths

PACK = Option(["--pack"], "Put it in PACK (switchable in [packs]).", metavar="PACK")
NEW_PACK = Option(
    ["--new-pack"], "PACK is new even if its name is close to a known one.", default=False
)
DESC = Option(["--desc"], "One line for `dotdbg aliases`.", metavar="TEXT")
BODIES = [
    Option([f"--{shell}"], f"Its body for {shell}, when bash's does not fit.", metavar="BODY")
    for shell in ("zsh", "fish")
]


def report(paths: Paths, outcome: Outcome, name: str) -> int:
    from dotdbg.aliases.shadows import entry_shadow_warnings
    from dotdbg.common.output import note, warn
    from dotdbg.common.programs import which  # install's lookup; shutil's import is 3 ms

    note(f"{outcome.action} {name} in {paths.display(paths.config_file)}")
    for line in entry_shadow_warnings(outcome.saved.config, name, which):
        warn(line)
    for line in outcome.left_out:
        warn(line)
    if outcome.off_pack:
        warn(
            f"{name} is in pack {outcome.off_pack}, which is switched off: it stays undefined "
            f"until `dotdbg pack on {outcome.off_pack}`"
        )
    if outcome.saved.install is None:
        note("dotdbg is not installed in this home: run `dotdbg install` to use it")
        return 0
    note("installed: new shells see the change, and this line updates the running one:")
    print(outcome.reload)
    return 0


def _add(section: Section, value_key: str) -> Callable[[Values], int]:
    def run(values: Values) -> int:
        from dotdbg.home import edit

        paths, name = home_paths(values), values["name"]
        bodies = {shell: values.get(shell) for shell in ("zsh", "fish")}
        outcome = edit.add(
            paths,
            section,
            name,
            values[value_key],
            values["desc"],
            values["pack"],
            values["new_pack"],
            {shell: body for shell, body in bodies.items() if body is not None},
        )
        return report(paths, outcome, name)

    return run


def _remove(section: Section) -> Callable[[Values], int]:
    def run(values: Values) -> int:
        from dotdbg.home import edit

        paths = home_paths(values)
        return report(paths, edit.remove(paths, section, values["name"]), values["name"])

    return run


def _switch_on(section: Section) -> Callable[[Values], int]:
    def run(values: Values) -> int:
        from dotdbg.home import edit

        paths = home_paths(values)
        return report(paths, edit.switch_on(paths, section, values["name"]), values["name"])

    return run


def _pack(on: bool) -> Callable[[Values], int]:
    def run(values: Values) -> int:
        from dotdbg.home import edit

        paths = home_paths(values)
        return _report_pack(paths, edit.switch_pack(paths, values["pack"], on), values["pack"])

    return run


def _report_pack(paths: Paths, saved: Saved, pack: str) -> int:
    from dotdbg.common.output import note

    note(f"{saved.action} pack {pack} in {paths.display(paths.config_file)}")
    if saved.install is None:
        note("dotdbg is not installed in this home: run `dotdbg install` to use it")
    else:
        note("installed: new shells see the change (a running one keeps what it has; `exec bash`)")
    return 0


def _name(help: str) -> Argument:
    return Argument("name", help, required=True, metavar="NAME")


ALIAS = Group(
    "alias",
    "Add or remove an alias in your config.",
    [
        Command(
            "add",
            "Add (or replace) an alias, re-install, and print the line that loads it in this "
            "shell.",
            _add("aliases", "command"),
            options=[PACK, DESC, NEW_PACK, HOME],
            arguments=[
                _name("The alias, e.g. gs."),
                Argument(
                    "command",
                    "What it stands for, quoted as one argument.",
                    required=True,
                    metavar="COMMAND",
                ),
            ],
        ),
        Command(
            "rm",
            "Remove an alias (a built-in one is switched off with `name = false`).",
            _remove("aliases"),
            options=[HOME],
            arguments=[_name("The name to remove.")],
        ),
        Command(
            "on",
            "Switch a built-in alias that `alias rm` switched off back on.",
            _switch_on("aliases"),
            options=[HOME],
            arguments=[_name("The name to switch back on.")],
        ),
    ],
)
FN = Group(
    "fn",
    "Add or remove a shell function in your config.",
    [
        Command(
            "add",
            "Add (or replace) a function, re-install, and print the line that loads it in "
            "this shell.",
            _add("functions", "body"),
            options=[*BODIES, PACK, DESC, NEW_PACK, HOME],
            arguments=[
                _name("The function, e.g. mkcd."),
                Argument(
                    "body",
                    'Its body, e.g. \'mkdir -p "$1" && cd "$1"\'.',
                    required=True,
                    metavar="BODY",
                ),
            ],
        ),
        Command(
            "rm",
            "Remove a function (a built-in one is switched off with `name = false`).",
            _remove("functions"),
            options=[HOME],
            arguments=[_name("The name to remove.")],
        ),
        Command(
            "on",
            "Switch a built-in function that `fn rm` switched off back on.",
            _switch_on("functions"),
            options=[HOME],
            arguments=[_name("The name to switch back on.")],
        ),
    ],
)
PACK_GROUP = Group(
    "pack",
    "Switch a pack of aliases and functions on or off.",
    [
        Command(
            "on",
            "Switch a pack on: its aliases and functions are defined again.",
            _pack(on=True),
            options=[HOME],
            arguments=[Argument("pack", "The pack, e.g. git.", required=True, metavar="PACK")],
        ),
        Command(
            "off",
            "Switch a pack off (`PACK = false` under [packs]).",
            _pack(on=False),
            options=[HOME],
            arguments=[Argument("pack", "The pack, e.g. git.", required=True, metavar="PACK")],
        ),
    ],
)
