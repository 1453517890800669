"""Commands of the core: install, uninstall, status, diff, render, init, doctor, aliases."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from dotdbg import install as installer
from dotdbg import notices, report
from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from dotdbg.plan import unified_diff
from dotdbg.settings import Config
from dotdbg.shadows import defined_names, shadow_warnings
from dotdbg.state import is_installed


def _existing_home(home: Path | None) -> Path | None:
    # A mistyped --home would otherwise grow a whole new home tree without a word.
    if home is not None and not home.expanduser().is_dir():
        raise DotdbgError(
            f"--home {home}: no such directory", hint=f"create it first (mkdir -p {home})"
        )
    return home


HomeOption = Annotated[
    Optional[Path],  # noqa: UP045 - typer needs the Optional spelling on Python 3.10
    typer.Option(
        "--home",
        metavar="DIR",
        callback=_existing_home,
        help="Use DIR as the home directory (ignores XDG_* variables).",
    ),
]
DryRunOption = Annotated[
    bool, typer.Option("--dry-run", "-n", help="Show what would change; write nothing.")
]
DiffOption = Annotated[bool, typer.Option("--diff", help="Show a unified diff of every change.")]


def _shell_list(value: str | None) -> list[str] | None:
    from dotdbg.shells import registered

    if value is None:
        return None
    shells = [word.strip() for word in value.split(",") if word.strip()]
    unknown = [shell for shell in shells if shell not in {t.name for t in registered()}]
    if unknown or not shells:
        raise DotdbgError(
            f"--shell {value}: {'unknown shell ' + unknown[0] if unknown else 'no shell named'}",
            hint="name one or more of bash, zsh, fish, separated by commas: --shell bash,zsh",
        )
    return shells


ShellOption = Annotated[
    Optional[str],  # noqa: UP045 - typer needs the Optional spelling on Python 3.10
    typer.Option(
        "--shell",
        metavar="SHELLS",
        help="Install for these shells only (bash,zsh,fish); the default is the shells of the "
        "last install, else bash and whichever of zsh and fish are installed.",
    ),
]


def register(app: typer.Typer) -> None:
    for command in (install, uninstall, status, diff, render, init, doctor, aliases, restore):
        app.command()(command)


def install(
    home: HomeOption = None,
    dry_run: DryRunOption = False,
    diff: DiffOption = False,
    shell: ShellOption = None,
) -> int:
    """Render the config and install it into ~/.bashrc, ~/.zshrc, fish's conf.d, ~/.inputrc
    and ~/.pdbrc."""
    paths = Paths.from_env(home)
    shells = _shell_list(shell)
    if shells:
        _check_installed(shells)
    done = installer.install(paths, dry_run=dry_run, shells=shells)
    assert done.config is not None
    warnings = [*done.warnings, *_new_shadows(paths, done.config, done)]
    report.print_install(paths, done, warnings, dry_run=dry_run, diff=diff)
    return 0


def _check_installed(shells: list[str]) -> None:
    missing = [shell for shell in shells if shutil.which(shell) is None]
    if missing:
        raise DotdbgError(
            f"--shell: {missing[0]} is not installed, and dotdbg checks every file it writes "
            f"with the shell that reads it",
            hint=f"install {missing[0]} first, or leave it out of --shell",
        )


def _new_shadows(paths: Paths, config: Config, done: installer.Report) -> list[str]:
    """Shadows this install brings in; those the installed file had were told before."""
    from dotdbg.render import BASH_FILE

    bash = paths.data_dir / BASH_FILE
    before = next((change.before for change in done.plan.changes if change.path == bash), None)
    return shadow_warnings(config, shutil.which, said=defined_names(before))


def uninstall(
    home: HomeOption = None, dry_run: DryRunOption = False, diff: DiffOption = False
) -> int:
    """Remove exactly what install added; files dotdbg created are deleted."""
    paths = Paths.from_env(home)
    done = installer.uninstall(paths, dry_run=dry_run)
    report.print_uninstall(paths, done, dry_run=dry_run, diff=diff)
    return 0


def status(home: HomeOption = None) -> int:
    """Is dotdbg installed, current with the config, and untouched? Exit 1 if not."""
    from dotdbg.plan import NotOurBlock
    from dotdbg.recover import interrupted

    paths = Paths.from_env(home)
    pending = interrupted(paths)
    if pending:
        print(pending)
        return 1
    try:
        done = installer.install(paths, dry_run=True)
    except NotOurBlock as problem:
        for line in problem.lines():
            print(line.removeprefix("dotdbg: error: "))
        return 1
    return report.print_status(paths, done, installed=is_installed(paths))


def diff(home: HomeOption = None) -> int:
    """Show what `dotdbg install` would change, as a unified diff. Exit 1 if anything would."""
    paths = Paths.from_env(home)
    done = installer.install(paths, dry_run=True)
    sys.stdout.write(unified_diff(paths, done.plan))
    return 1 if done.plan.pending else 0


def render(
    home: HomeOption = None,
    output: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option(
            "--output", "-o", metavar="DIR", help="Write the files into DIR instead of stdout."
        ),
    ] = None,
) -> int:
    """Print the generated files (or write them into a directory); installs nothing."""
    from dotdbg.bashcheck import check_bash

    paths = Paths.from_env(home)
    config = load_config(paths)
    rendered = installer.render_for(paths, config)
    check_bash(rendered.files["dotdbg.bash"], config)
    if output is None:
        for name, text in rendered.files.items():
            sys.stdout.write(f"==> {name} <==\n{text}\n")
        return 0
    try:
        output.mkdir(parents=True, exist_ok=True)
        for name, text in rendered.files.items():
            (output / name).write_text(text, encoding="utf-8")
            print(output / name)
    except OSError as error:
        raise DotdbgError(
            f"cannot write into {output}: {error.strerror}", hint="give -o a writable directory"
        ) from None
    return 0


def init(home: HomeOption = None) -> int:
    """Write a commented starter config; never overwrites an existing one."""
    from dotdbg.render import render_starter_config

    paths = Paths.from_env(home)
    installer.create_config(paths, render_starter_config(load_config(paths)))
    print(f"wrote {paths.display(paths.config_file)}; edit it, then run `dotdbg install`")
    return 0


def doctor(
    home: HomeOption = None,
    fix: Annotated[
        bool, typer.Option("--fix", help="Make login shells (~/.bash_profile) load ~/.bashrc.")
    ] = False,
) -> int:
    """Check the set-up: login shells, PATH, installed state and the helpers' requirements."""
    from dotdbg import doctor as checks

    paths = Paths.from_env(home)
    if fix:
        done = installer.fix_profile(paths)
        report.print_changes(paths, done.plan, dry_run=False)
        if not done.plan.pending:
            notices.note("login shells already load ~/.bashrc: nothing to fix")
    results = checks.run_checks(paths)
    report.print_checks(results)
    return 0 if all(result.ok or result.optional for result in results) else 1


def aliases(
    name: Annotated[
        str | None, typer.Argument(metavar="NAME", help="Explain one alias or function.")
    ] = None,
    home: HomeOption = None,
) -> int:
    """List every alias and function (name, pack, expansion, description), or explain one."""
    paths = Paths.from_env(home)
    config = load_config(paths)
    if name is None:
        report.print_aliases(config)
        return 0
    return report.explain(config, name, shutil.which)


def restore(
    stamp: Annotated[
        Optional[str],  # noqa: UP045
        typer.Argument(
            metavar="STAMP", help="The backup to restore (a UTC timestamp); default: the newest."
        ),
    ] = None,
    home: HomeOption = None,
    list_: Annotated[bool, typer.Option("--list", help="List the backups.")] = False,
    dry_run: DryRunOption = False,
    diff: DiffOption = False,
) -> int:
    """Put back the files of a backup (the current ones are backed up first)."""
    paths = Paths.from_env(home)
    if list_:
        report.print_backups(paths)
        return 0
    done = installer.restore(paths, stamp, dry_run=dry_run)
    report.print_uninstall(paths, done, dry_run=dry_run, diff=diff)
    return 0
