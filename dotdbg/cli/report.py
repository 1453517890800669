"""What the core commands print. Data goes to stdout, warnings and notes to stderr."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from dotdbg.common.output import note, warn
from dotdbg.config.model import Config
from dotdbg.errors import DotdbgError
from dotdbg.home.install import Result
from dotdbg.home.plan import Plan, unified_diff
from dotdbg.paths import Paths
from dotdbg.visible import one_line, pieces

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from rich.text import Text

    from dotdbg.home.doctor import Check

VERBS = {"create": "create", "update": "update", "delete": "delete", "unchanged": "unchanged"}
PAST = {"create": "created", "update": "updated", "delete": "deleted", "unchanged": "unchanged"}


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
    paths: Paths, done: Result, warnings: Sequence[str], *, dry_run: bool, diff: bool
) -> None:
    if diff:
        sys.stdout.write(unified_diff(paths, done.plan))
    print_changes(paths, done.plan, dry_run=dry_run)
    for line in [*warnings, *done.plan.notes]:
        warn(line)
    if done.backup_dir is not None:
        note(f"previous versions saved in {paths.display(done.backup_dir)}")
    if not dry_run and done.plan.pending:
        shells = (done.plan.manifest or {}).get("shells") or ["bash"]
        shown = " or ".join(f"`exec {shell}`" for shell in shells)
        note(f"done ({', '.join(shells)}): open a new shell or run {shown} to use it")


def print_uninstall(paths: Paths, done: Result, *, dry_run: bool, diff: bool) -> None:
    if diff:
        sys.stdout.write(unified_diff(paths, done.plan))
    if not done.plan.changes:
        note("nothing to uninstall")
    print_changes(paths, done.plan, dry_run=dry_run)
    for line in done.plan.notes:
        warn(line)
    if done.backup_dir is not None:
        note(f"previous versions saved in {paths.display(done.backup_dir)}")


def print_kept(paths: Paths, kept: Sequence[Path]) -> None:
    """What uninstall leaves of dotdbg's own, and how to remove it."""
    caches = [paths.display(path) for path in kept if path != paths.backups_dir]
    if caches:
        note(f"kept: {', '.join(caches)} (`dotdbg uninstall --purge` removes them)")
    if paths.backups_dir in kept:
        note(
            f"kept: your old files in {paths.display(paths.backups_dir)} (`dotdbg restore --list`)"
        )


def print_purged(paths: Paths, removed: Sequence[Path], kept: Sequence[Path]) -> None:
    if removed:
        note(f"removed: {', '.join(paths.display(path) for path in removed)}")
    print_kept(paths, kept)


def print_backups(paths: Paths) -> None:
    """One line per backup, oldest first: the command that made it, the files it puts back,
    and those it deletes (they did not exist before that command)."""
    from dotdbg.home.backup import backup_dirs, is_complete, read_backup, step_back

    try:
        next_one = step_back(paths).folder
    except DotdbgError:
        next_one = None
    for folder in backup_dirs(paths):
        if not is_complete(paths, folder):
            print(f"{folder.name}  (no complete index: restore refuses it)")
            continue
        contents = read_backup(paths, folder)
        what = [" ".join(paths.display(path) for path in contents.saved)]
        if contents.absent:
            what.append("restore deletes " + " ".join(paths.display(p) for p in contents.absent))
        made_by = contents.command or "?"
        if contents.restored:
            made_by += f" {contents.restored}"
        mark = "  <- next `dotdbg restore`" if folder == next_one else ""
        print(f"{folder.name}  {made_by}: {'; '.join(part for part in what if part)}{mark}")


def print_status(paths: Paths, done: Result, *, installed: bool) -> int:
    """Exit 1 only when a file is not what install would write; notes (a login file that does
    not load ~/.bashrc) are said, and change nothing about that."""
    if not installed:
        print("not installed: run `dotdbg install`")
        return 1
    for change in done.plan.changes:
        if change.action == "unchanged" and change.after is not None:
            print(f"  {paths.display(change.path)}: current")
    for change in done.plan.pending:
        shown = paths.display(change.path)
        print(f"  {shown} is not current with the config ({change.action} pending)")
    for said in done.plan.notes:
        print(f"  note: {said}")
    if done.plan.pending:
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


NARROW = 100  # columns below which the table leaves out pack and kind


def print_cut(config: Config) -> None:
    """The values too big to use, shown cut: each said once, with what to do (on stderr)."""
    from dotdbg.common.output import hint, warn
    from dotdbg.config.limits import HINT

    for line in config.cut:
        warn(one_line(line))
    if config.cut:
        hint(f"{HINT}; install, status and expand refuse the config until then")


def print_aliases(config: Config) -> None:
    """The table of every name; on a narrow terminal (< NARROW columns), two lines a name: its
    description, then its expansion cut to the width with … (``dotdbg aliases NAME`` shows it
    whole)."""
    from rich.table import Table

    from dotdbg.common.output import rich_console

    console = rich_console(soft_wrap=False, markup=False, emoji=False, highlight=False)
    if console.width < NARROW:
        for line in narrow_aliases(alias_rows(config), console.width):
            console.print(_text(line))
        return
    table = Table(*COLUMNS, box=None, header_style="bold")
    for row in alias_rows(config):
        table.add_row(*(_text(cell) for cell in row))
    console.print(table)


def narrow_aliases(rows: Sequence[tuple[str, str, str, str, str]], width: int) -> list[str]:
    from dotdbg.cli.layout import wrap

    column = min(max(len(row[0]) for row in rows) + 2, 16)
    lines = []
    for name, _, _, expansion, description in rows:
        text = wrap(one_line(description), width - column)
        first = name.ljust(column) if len(name) < column else name + "  "
        lines.append(first + text[0])
        lines += [" " * column + more for more in text[1:]]
        shown = one_line(expansion)
        room = width - column - 2
        lines.append(
            " " * column + "→ " + (shown if len(shown) <= room else shown[: room - 1] + "…")
        )
    return lines


COLUMNS = ("name", "pack", "kind", "expansion", "description")


def alias_rows(config: Config) -> list[tuple[str, str, str, str, str]]:
    """(name, pack, kind, expansion, description) of every alias, function, cheat alias and key.
    A function of one line shows it; a longer one says so, not its first line alone."""
    rows = [(a.name, a.pack, "alias", a.command, a.desc) for a in config.aliases]
    for function in config.functions:
        lines = function.body.strip().splitlines()
        body = (
            lines[0]
            if len(lines) == 1
            else f"{{ {len(lines)} lines: `dotdbg aliases {function.name}` }}"
        )
        rows.append((function.name, function.pack, "function", body, function.desc))
    if config.cheat.alias:
        rows.append((config.cheat.alias, "cheat", "alias", "dotdbg cheat", "look up a cheatsheet"))
    if config.cheat.key:
        what = "pick a cheatsheet command onto the prompt line (never runs it)"
        rows.append((config.cheat.key, "cheat", "key", "cheatsheet picker", what))
    return rows


def _text(value: str) -> Text:
    from rich.text import Text

    text = Text()
    for piece, hidden in pieces(value):
        text.append(piece, style="reverse" if hidden else "")
    return text


def explain(config: Config, name: str, which: Callable[[str], str | None]) -> int:
    """Like bash's `type NAME` for dotdbg's items; exit 1 if dotdbg does not define NAME."""
    for alias in config.aliases:
        if alias.name == name:
            print(f"{name} is an alias (pack {alias.pack}): {one_line(alias.desc)}")
            print(f"  {name} → {one_line(alias.command)}")
            _print_shadow(config, name, which)
            return 0
    for function in config.functions:
        if function.name == name:
            print(f"{name} is a function (pack {function.pack}): {one_line(function.desc)}")
            print(f"{name}() {{")
            for line in function.body.strip("\n").splitlines():
                print(f"    {one_line(line)}")
            print("}")
            _print_shadow(config, name, which)
            return 0
    if config.cheat.alias and name == config.cheat.alias:
        print(f"{name} is an alias (pack cheat): look up a cheatsheet ([cheat] alias)")
        print(f"  {name} → dotdbg cheat")
        _print_shadow(config, name, which)
        return 0
    return _explain_off(config, name)


SWITCHED_OFF_KIND = {"aliases": "an alias", "functions": "a function", "pdb.aliases": "a pdb alias"}
ON_COMMAND = {"aliases": "dotdbg alias on", "functions": "dotdbg fn on"}


def _explain_off(config: Config, name: str) -> int:
    """Exit 1: ``name`` is not in the shell; say whether the config switched it off, and how
    to switch it back on."""
    off = next((o for o in config.switched_off if o.name == name), None)
    if off is None:
        print(f"dotdbg defines no alias or function named {name!r} (`dotdbg aliases` lists them)")
        return 1
    kind = SWITCHED_OFF_KIND[off.section]
    if off.removed:
        why = f"`{name} = false` in your config"
        how = (
            f"`{ON_COMMAND[off.section]} {name}`"
            if off.section in ON_COMMAND
            else f"delete `{name} = false` under [pdb.aliases]"
        )
    else:
        why, how = f"its pack {off.pack} is switched off", f"`dotdbg pack on {off.pack}`"
    print(f"{name} is {kind} (pack {off.pack}) that is switched off: {why}")
    print(f"  {name} → {one_line(off.value.strip().splitlines()[0])}")
    print(f"  switch it back on: {how}")
    return 1


def _print_shadow(config: Config, name: str, which: Callable[[str], str | None]) -> None:
    from dotdbg.aliases.shadows import entry_shadow_warnings  # `aliases NAME`'s, not status's

    for line in entry_shadow_warnings(config, name, which):
        print(f"  note: {line}")
