"""Commands of the core on the typer app: render, init, doctor, aliases, restore (install,
uninstall, status and diff are on the fast command line: ``dotdbg.commands.home``)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from dotdbg import install as installer
from dotdbg import notices, report
from dotdbg.commands.home import existing_home
from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths


def _existing_home(home: Path | None) -> Path | None:
    return None if home is None else existing_home(str(home))


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


def register(app: typer.Typer) -> None:
    for command in (render, init, doctor, aliases, restore):
        app.command()(command)


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
    paths = Paths.from_env(home)
    rendered = installer.checked_render(paths, load_config(paths))  # each shell's own checks
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
