"""install, uninstall, status and diff: the commands that check and change the home, on the
command line (``dotdbg.cli.parser``); status and diff reuse
the check `install` made of the same text (``dotdbg.home.checks``)."""

from __future__ import annotations

from dotdbg.cli.parser import Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from dotdbg.cli.parser import Values
    from dotdbg.config.model import Config
    from dotdbg.home.install import Result
    from dotdbg.paths import Paths


def existing_home(text: str, name: str = "--home") -> Path:
    """``--home DIR``: a mistyped one would otherwise grow a whole new home tree."""
    from pathlib import Path

    from dotdbg.errors import DotdbgError

    home = Path(text)
    if not home.expanduser().is_dir():
        raise DotdbgError(
            f"--home {home}: no such directory", hint=f"create it first (mkdir -p {home})"
        )
    return home


def home_paths(values: Values) -> Paths:
    from dotdbg.paths import Paths

    return Paths.from_env(values["home"])


HOME = Option(
    ["--home"],
    "Use DIR as the home directory (ignores XDG_* variables).",
    metavar="DIR",
    convert=existing_home,
)


def shell_list(text: str, name: str = "--shell") -> list[str]:
    """``--shell bash,zsh,fish``: known shells, each installed here (dotdbg checks every file
    it writes with the shell that reads it)."""
    import shutil

    from dotdbg.errors import DotdbgError
    from dotdbg.shells import registered

    known = [target.name for target in registered()]
    shells = [word.strip() for word in text.split(",") if word.strip()]
    for shell in shells or [""]:
        if shell not in known:
            raise DotdbgError(
                f"--shell {text}: {f'unknown shell {shell!r}' if shell else 'no shell named'}",
                hint=f"name one or more of {', '.join(known)}, with commas: --shell bash,zsh",
            )
        if shutil.which(shell) is None:
            raise DotdbgError(
                f"--shell {text}: {shell} is not installed, and dotdbg checks each file it "
                "writes with the shell that reads it",
                hint=f"install {shell} first, or leave it out of --shell",
            )
    return shells


SHELL = Option(
    ["--shell"],
    "Install for these shells only (e.g. bash,zsh); default: those of the last install, "
    "else bash and whichever of zsh and fish are installed.",
    metavar="SHELLS",
    convert=shell_list,
)
DRY_RUN = Option(["--dry-run", "-n"], "Show what would change; write nothing.", default=False)
DIFF = Option(["--diff"], "Show a unified diff of every change.", default=False)
PURGE = Option(
    ["--purge"],
    "Also remove dotdbg's caches and run lock (~/.local/state/dotdbg, ~/.cache/dotdbg); "
    "the backups of your files stay.",
    default=False,
)
JSON = Option(["--json"], "Print one JSON record (docs/json.md).", default=False)


def install(values: Values) -> int:
    from dotdbg.cli import report
    from dotdbg.home import install as installer

    paths, dry_run = home_paths(values), values["dry_run"]
    done = installer.install(paths, dry_run=dry_run, shells=values["shell"])
    assert done.config is not None
    shadows = _new_shadows(paths, done.config, done)
    warnings = [*done.warnings, *_summarised(done.config, shadows)]
    report.print_install(paths, done, warnings, dry_run=dry_run, diff=values["diff"])
    return 0


def _summarised(config: Config, shadows: list[str]) -> list[str]:
    """The shadows of the user's own names, one line each; those of dotdbg's defaults, which
    the user never chose, in one line that says where to see more."""
    section = {"alias": "aliases", "function": "functions"}
    chosen = [
        line
        for line in shadows
        if not config.in_defaults(section[line.split()[0]], line.split()[1])
    ]
    defaults = [line.split()[1] for line in shadows if line not in chosen]
    if not defaults:
        return chosen
    from dotdbg.common.output import times

    hidden = f"{times(len(defaults), 'command')} here ({', '.join(defaults)})"
    return [
        *chosen,
        f"dotdbg's defaults hide {hidden}: `dotdbg aliases {defaults[0]}` says how to reach "
        "the original, `dotdbg aliases` lists every name",
    ]


def _new_shadows(paths: Paths, config: Config, done: Result) -> list[str]:
    """Shadows this install brings in; those the installed file had were told before."""
    from dotdbg.aliases.shadows import defined_names, shadow_warnings
    from dotdbg.common.programs import which
    from dotdbg.shells.bash import BASH

    bash = BASH.generated_path(paths)
    before = next((change.before for change in done.plan.changes if change.path == bash), None)
    return shadow_warnings(config, which, said=defined_names(before))


def uninstall(values: Values) -> int:
    from dotdbg.cli import report
    from dotdbg.home import install as installer

    paths = home_paths(values)
    dry_run = values["dry_run"]
    done = installer.uninstall(paths, dry_run=dry_run)
    report.print_uninstall(paths, done, dry_run=dry_run, diff=values["diff"])
    if values["purge"] and not dry_run:
        removed = installer.purge(paths)
        report.print_purged(paths, removed, installer.kept_state(paths))
    else:
        report.print_kept(paths, installer.kept_state(paths))
    return 0


def status(values: Values) -> int:
    from dotdbg.cli import report
    from dotdbg.home import install as installer
    from dotdbg.home.plan import NotOurBlock
    from dotdbg.home.state import is_installed

    paths = home_paths(values)
    pending = installer.interrupted_run(paths)
    if pending:
        return _status_problem(values, paths, [pending])
    try:
        done = installer.install(paths, dry_run=True, advise=False)
    except NotOurBlock as problem:
        lines = [line.removeprefix("dotdbg: error: ") for line in problem.lines()]
        return _status_problem(values, paths, lines)
    if values["json"]:
        from dotdbg.cli import jsonout

        record = jsonout.status(paths, done, is_installed(paths))
        jsonout.emit(record)
        return 0 if record["current"] else 1
    return report.print_status(paths, done, installed=is_installed(paths))


def _status_problem(values: Values, paths: Paths, lines: list[str]) -> int:
    """Exit 1: an interrupted run or a block that is not dotdbg's; what status can say."""
    if values["json"]:
        from dotdbg.cli import jsonout
        from dotdbg.home.state import is_installed

        jsonout.emit(jsonout.status(paths, None, is_installed(paths), lines))
    else:
        print("\n".join(lines))
    return 1


def diff(values: Values) -> int:
    import sys

    from dotdbg.home import install as installer
    from dotdbg.home.plan import unified_diff

    paths = home_paths(values)
    done = installer.install(paths, dry_run=True, advise=False)
    sys.stdout.write(unified_diff(paths, done.plan))
    return 1 if done.plan.pending else 0


INSTALL = Command(
    "install",
    "Render the config and install it for bash (~/.bashrc), zsh (~/.zshrc) and fish "
    "(conf.d/dotdbg.fish), and into ~/.inputrc and ~/.pdbrc.",
    install,
    options=[HOME, SHELL, DRY_RUN, DIFF],
)
UNINSTALL = Command(
    "uninstall",
    "Remove exactly what install added; files dotdbg created are deleted.",
    uninstall,
    options=[HOME, DRY_RUN, DIFF, PURGE],
)
STATUS = Command(
    "status",
    "Is dotdbg installed, current with the config, and untouched? Exit 1 if not.",
    status,
    options=[HOME, JSON],
)
DIFF_COMMAND = Command(
    "diff",
    "Show what `dotdbg install` would change, as a unified diff. Exit 1 if anything would.",
    diff,
    options=[HOME],
)
