"""render, init, doctor, aliases and restore (install, uninstall, status and diff are in
``home.py``): each parses, calls one function of the home pipeline and prints."""

from __future__ import annotations

from dotdbg.cli.commands.home import DIFF, DRY_RUN, HOME, JSON, home_paths
from dotdbg.cli.parser import Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values


def render(values: Values) -> int:
    import sys
    from pathlib import Path

    from dotdbg.config import load_config
    from dotdbg.errors import DotdbgError
    from dotdbg.home import install as installer

    paths = home_paths(values)
    rendered = installer.checked_render(paths, load_config(paths))  # each shell's own checks
    if values["output"] is None:
        for name, text in rendered.files.items():
            sys.stdout.write(f"==> {name} <==\n{text}\n")
        return 0
    output = Path(values["output"])
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


def init(values: Values) -> int:
    from dotdbg.config import load_config
    from dotdbg.home import install as installer
    from dotdbg.home.render import render_starter_config

    paths = home_paths(values)
    installer.create_config(paths, render_starter_config(load_config(paths)))
    print(f"wrote {paths.display(paths.config_file)}; edit it, then run `dotdbg install`")
    return 0


def doctor(values: Values) -> int:
    from dotdbg.cli import report
    from dotdbg.common.output import note
    from dotdbg.home import doctor as checks
    from dotdbg.home import install as installer

    paths, as_json = home_paths(values), values["json"]
    fixed: list[str] = []
    if values["fix"]:
        done = installer.fix_profile(paths)
        fixed = [paths.display(change.path) for change in done.plan.pending]
        if not as_json:
            report.print_changes(paths, done.plan, dry_run=False)
        if not done.plan.pending:
            note("login shells already load ~/.bashrc: nothing to fix")
    results = checks.run_checks(paths)
    if as_json:
        from dotdbg.cli import jsonout

        jsonout.emit(jsonout.checks(results, fixed))
    else:
        report.print_checks(results)
    return 0 if all(result.ok or result.optional for result in results) else 1


def aliases(values: Values) -> int:
    import shutil

    from dotdbg.cli import report
    from dotdbg.config import load_config

    config, name = load_config(home_paths(values), cut_huge=True), values["name"]
    report.print_cut(config)
    if values["json"]:
        from dotdbg.cli import jsonout

        record = jsonout.aliases(config)
        if name is not None:  # the one entry; exit 1 (as the text says) if it is not defined
            record["entries"] = [e for e in record["entries"] if e["name"] == name]
            record["switched_off"] = [o for o in record["switched_off"] if o["name"] == name]
        jsonout.emit(record)
        return 0 if name is None or record["entries"] else 1
    if name is None:
        report.print_aliases(config)
        return 0
    return report.explain(config, name, shutil.which)


def restore(values: Values) -> int:
    from dotdbg.cli import report
    from dotdbg.home import install as installer

    paths, dry_run = home_paths(values), values["dry_run"]
    if values["list"]:
        report.print_backups(paths)
        return 0
    done = installer.restore(paths, values["stamp"], dry_run=dry_run)
    report.print_uninstall(paths, done, dry_run=dry_run, diff=values["diff"])
    return 0


RENDER = Command(
    "render",
    "Print the generated files (or write them into a directory); installs nothing.",
    render,
    options=[
        HOME,
        Option(["--output", "-o"], "Write the files into DIR instead of stdout.", metavar="DIR"),
    ],
)
INIT = Command(
    "init",
    "Write a commented starter config; never overwrites an existing one.",
    init,
    options=[HOME],
)
DOCTOR = Command(
    "doctor",
    "Check the set-up: login shells, PATH, installed state and the helpers' requirements.",
    doctor,
    options=[
        HOME,
        Option(["--fix"], "Make login shells (~/.bash_profile) load ~/.bashrc.", default=False),
        JSON,
    ],
)
ALIASES = Command(
    "aliases",
    "List every alias and function (name, pack, expansion, description), or explain one.",
    aliases,
    arguments=[Argument("name", "Explain one alias or function.", metavar="NAME")],
    options=[HOME, JSON],
)
RESTORE = Command(
    "restore",
    "Put back the files of a backup (the current ones are backed up first).",
    restore,
    arguments=[
        Argument(
            "stamp",
            "The backup to restore (a UTC timestamp); default: the newest.",
            metavar="STAMP",
        )
    ],
    options=[
        HOME,
        Option(["--list"], "List the backups.", default=False),
        DRY_RUN,
        DIFF,
    ],
)
