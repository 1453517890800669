"""What the core commands print. Data goes to stdout, warnings and notes to stderr."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from dotdbg.backup import backup_dirs, read_backup
from dotdbg.install import Report
from dotdbg.paths import Paths
from dotdbg.plan import Plan, unified_diff
from dotdbg.settings import Config
from dotdbg.shadows import shadow_warnings

if TYPE_CHECKING:
    from dotdbg.doctor import Check

VERBS = {"create": "create", "update": "update", "delete": "delete", "unchanged": "unchanged"}
PAST = {"create": "created", "update": "updated", "delete": "deleted", "unchanged": "unchanged"}


def warn(line: str) -> None:
    print(f"dotdbg: warning: {line}", file=sys.stderr)


def note(line: str) -> None:
    print(f"dotdbg: {line}", file=sys.stderr)


def change_lines(paths: Paths, plan: Plan, *, dry_run: bool) -> list[str]:
    words = VERBS if dry_run else PAST
    prefix = "would " if dry_run else ""
    lines = []
    for change in plan.changes:
        action = change.action
        shown = paths.display(change.path)
        lines.append(f"  {shown}: {prefix if action != 'unchanged' else ''}{words[action]}")
    return lines


def print_changes(paths: Paths, plan: Plan, *, dry_run: bool) -> None:
    for line in change_lines(paths, plan, dry_run=dry_run):
        print(line)


def print_install(
    paths: Paths, done: Report, warnings: Sequence[str], *, dry_run: bool, diff: bool
) -> None:
    if diff:
        sys.stdout.write(unified_diff(paths, done.plan))
    print_changes(paths, done.plan, dry_run=dry_run)
    for line in [*warnings, *done.plan.notes]:
        warn(line)
    if done.backup_dir is not None:
        note(f"previous versions saved in {paths.display(done.backup_dir)}")
    if not dry_run and done.plan.pending:
        note("done: open a new shell or run `exec bash` to use it")


def print_uninstall(paths: Paths, done: Report, *, dry_run: bool, diff: bool) -> None:
    if diff:
        sys.stdout.write(unified_diff(paths, done.plan))
    if not done.plan.changes:
        note("nothing to uninstall")
    print_changes(paths, done.plan, dry_run=dry_run)
    if done.backup_dir is not None:
        note(f"previous versions saved in {paths.display(done.backup_dir)}")


def print_backups(paths: Paths) -> None:
    """One line per backup, oldest first: the files it puts back, and those it deletes (they
    did not exist before that command)."""
    for folder in backup_dirs(paths):
        contents = read_backup(paths, folder)
        what = [" ".join(paths.display(path) for path in contents.saved)]
        if contents.absent:
            what.append("restore deletes " + " ".join(paths.display(p) for p in contents.absent))
        print(f"{folder.name}  {'; '.join(part for part in what if part)}")


def print_status(paths: Paths, done: Report, *, installed: bool) -> int:
    if not installed:
        print("not installed: run `dotdbg install`")
        return 1
    problems = [*done.plan.notes]
    for change in done.plan.pending:
        problems.append(
            f"{paths.display(change.path)} is not current with the config ({change.action} pending)"
        )
    for change in done.plan.changes:
        if change.action == "unchanged" and change.after is not None:
            print(f"  {paths.display(change.path)}: current")
    for line in problems:
        print(f"  {line}")
    if problems:
        print("run `dotdbg diff` to see the differences and `dotdbg install` to update")
        return 1
    print("installed and current")
    return 0


def print_checks(results: Sequence[Check]) -> None:
    for result in results:
        mark = "ok " if result.ok else "-- " if result.optional else "!! "
        print(f"{mark} {result.name}: {result.detail}")
        if result.fix and not result.ok:
            print(f"     fix: {result.fix}")


def print_aliases(config: Config) -> None:
    from rich.table import Table

    from dotdbg.common.output import rich_console

    table = Table("name", "pack", "kind", "expansion", "description", box=None, header_style="bold")
    for alias in config.aliases:
        table.add_row(alias.name, alias.pack, "alias", alias.command, alias.desc)
    for function in config.functions:
        first_line = function.body.strip().splitlines()[0]
        more = " …" if len(function.body.strip().splitlines()) > 1 else ""
        table.add_row(function.name, function.pack, "function", first_line + more, function.desc)
    if config.cheat.alias:
        table.add_row(config.cheat.alias, "cheat", "alias", "dotdbg cheat", "look up a cheatsheet")
    if config.cheat.key:
        what = "pick a cheatsheet command onto the prompt line (never runs it)"
        table.add_row(config.cheat.key, "cheat", "key", "cheatsheet picker", what)
    rich_console(soft_wrap=False).print(table)


def explain(config: Config, name: str, which: Callable[[str], str | None]) -> int:
    """Like bash's `type NAME` for dotdbg's items; exit 1 if dotdbg does not define NAME."""
    for alias in config.aliases:
        if alias.name == name:
            print(f"{name} is an alias (pack {alias.pack}): {alias.desc}")
            print(f"  {name} → {alias.command}")
            _print_shadow(config, name, which)
            return 0
    for function in config.functions:
        if function.name == name:
            print(f"{name} is a function (pack {function.pack}): {function.desc}")
            print(f"{name}() {{")
            for line in function.body.strip("\n").splitlines():
                print(f"    {line}")
            print("}")
            _print_shadow(config, name, which)
            return 0
    print(f"dotdbg defines no alias or function named {name!r} (`dotdbg aliases` lists them)")
    return 1


def _print_shadow(config: Config, name: str, which: Callable[[str], str | None]) -> None:
    for line in shadow_warnings(config, which):
        if line.split()[1] == name:
            print(f"  note: {line}")
