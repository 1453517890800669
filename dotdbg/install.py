"""Install, uninstall, restore and the login-file fix: lock, read, plan, then apply the plan.

Each reads the config and the files under the run lock (a concurrent `alias add` is never
half-seen), plans with the pure functions of ``plan``, and hands the plan to ``writer.apply``,
the one writer. A dry run (status, diff, --dry-run) takes no lock and writes nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from dotdbg import blocks
from dotdbg.backup import Contents, read_backup, step_back
from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from dotdbg.plan import (
    Plan,
    accepted_blocks,
    plan_install,
    plan_profile_fix,
    plan_restore,
    plan_uninstall,
)
from dotdbg.render import BASH_FILE, SHELLS, Rendered, render_all
from dotdbg.settings import Config
from dotdbg.state import State, block_files, read_manifest, read_state
from dotdbg.writer import apply, session
from dotdbg.zshfish import FISH_FILE, ZSH_FILE


@dataclass(frozen=True)
class Report:
    plan: Plan
    backup_dir: Path | None = None
    warnings: tuple[str, ...] = field(default=())
    config: Config | None = None
    restored: str | None = None  # the backup a restore put back


def render_for(
    paths: Paths,
    config: Config,
    shells: Sequence[str] | None = None,
    no_fish_aliases: Collection[str] = (),
) -> Rendered:
    shown = [
        paths.display(source) if source.is_relative_to(paths.home) else "dotdbg's defaults"
        for source in config.sources
    ]
    chosen = shells or selected_shells(paths)
    return render_all(config, shown, command_names(), chosen, no_fish_aliases)


def selected_shells(paths: Paths) -> tuple[str, ...]:
    """The shells of the last install, else bash and those of zsh and fish installed here."""
    recorded = read_manifest(paths).get("shells")
    if isinstance(recorded, list) and recorded and set(recorded) <= set(SHELLS):
        return tuple(shell for shell in SHELLS if shell in recorded)
    return ("bash", *(shell for shell in ("zsh", "fish") if shutil.which(shell)))


def command_names() -> list[str]:
    from dotdbg.cli import command_names as names

    return names()


def checked_render(paths: Paths, config: Config, shells: Sequence[str] | None = None) -> Rendered:
    """The generated files, once bash -n and shellcheck, zsh -n and fish --no-execute accept
    them (each for the shells installed for)."""
    from dotdbg import zshfishcheck
    from dotdbg.bashcheck import check_bash

    shells = shells or selected_shells(paths)
    no_fish = zshfishcheck.unreadable_fish_aliases(config) if "fish" in shells else set()
    rendered = render_for(paths, config, shells, no_fish)
    if "bash" in shells:
        check_bash(rendered.files[BASH_FILE], config)
    if "zsh" in shells:
        zshfishcheck.check_zsh(rendered.files[ZSH_FILE], config)
    if "fish" in shells:
        zshfishcheck.check_fish(rendered.files[FISH_FILE], config)
    said = zshfishcheck.fish_alias_warnings(config, no_fish)
    return replace(rendered, warnings=(*rendered.warnings, *said))


def _with_interrupted(paths: Paths, plan: Plan) -> Plan:
    """A dry run's plan, noting a run that died part-way: the next real run finishes it."""
    from dotdbg.recover import interrupted

    pending = interrupted(paths)
    return replace(plan, notes=(pending, *plan.notes)) if pending else plan


@contextmanager
def _session_unless(dry_run: bool, paths: Paths) -> Iterator[None]:
    """A dry run takes no lock: every write is a rename, so it reads each file whole."""
    if dry_run:
        yield
    else:
        with session(paths):
            yield


def install(
    paths: Paths,
    config: Config | None = None,
    *,
    dry_run: bool = False,
    shells: Sequence[str] | None = None,
) -> Report:
    """``config``: None reads it under the lock (tests hand one in). ``shells``: those to
    install for (the others' files are removed); None: as last time, else those installed."""
    early: tuple[Config, Rendered] | None = None
    if config is None and not dry_run:
        # Checked once before the lock too, so that a bad config fails before anything
        # (the lock, the state directory) is created.
        read = load_config(paths)
        early = (read, checked_render(paths, read, shells))
    with _session_unless(dry_run, paths):
        config = config or load_config(paths)
        same = early is not None and early[0] == config
        rendered = early[1] if early and same else checked_render(paths, config, shells)
        plan = plan_install(paths, config, rendered, read_state(paths))
        warnings = (*config.warnings, *rendered.warnings)
        if dry_run:
            return Report(_with_interrupted(paths, plan), None, warnings, config)
        backup_dir = apply(paths, plan, command="install")
    return Report(plan, backup_dir, warnings, config)


def uninstall(paths: Paths, *, dry_run: bool = False) -> Report:
    with _session_unless(dry_run, paths):
        state = read_state(paths)
        plan = plan_uninstall(paths, state, _accepted(paths, state))
        if dry_run:
            return Report(_with_interrupted(paths, plan))
        backup_dir = apply(paths, plan, command="uninstall")
    return Report(plan, backup_dir)


def _accepted(paths: Paths, state: State) -> dict[Path, set[str]]:
    """The blocks install would write now: they prove a block dotdbg's when its records are
    gone. Rendered only then; none when the config cannot be read (records alone decide)."""
    unrecorded = [
        path
        for path in block_files(paths)
        if blocks.START in (state.text(path) or "") and not state.block_record(path)
    ]
    if not unrecorded:
        return {}
    try:
        config = load_config(paths)
        return accepted_blocks(paths, config, state, render_for(paths, config))
    except DotdbgError:
        return {}


def fix_profile(paths: Paths, *, dry_run: bool = False) -> Report:
    with _session_unless(dry_run, paths):
        plan = plan_profile_fix(paths, read_state(paths))
        backup_dir = None if dry_run or not plan.pending else apply(paths, plan, command="fix")
    return Report(plan, backup_dir)


def restore(paths: Paths, stamp: str | None = None, *, dry_run: bool = False) -> Report:
    """Put back backup ``stamp``, or by default step one command further back."""
    with _session_unless(dry_run, paths):
        backup = step_back(paths) if stamp is None else _named(paths, stamp)
        plan = plan_restore(paths, backup)
        backup_dir = (
            None if dry_run else apply(paths, plan, command="restore", restored=backup.folder.name)
        )
    return Report(plan, backup_dir, restored=backup.folder.name)


def _named(paths: Paths, stamp: str) -> Contents:
    folder = paths.backups_dir / stamp
    if "/" in stamp or stamp.startswith(".") or not folder.is_dir():
        from dotdbg.backup import backup_dirs

        names = ", ".join(b.name for b in backup_dirs(paths)[-5:]) or "none yet"
        raise DotdbgError(
            f"no backup named {stamp!r}",
            hint=f"recent backups: {names} (`dotdbg restore --list`)",
        )
    return read_backup(paths, folder)


def create_config(paths: Paths, text: str) -> Path | None:
    """Write a new config file (`dotdbg init`); an existing one is an error, left alone."""
    from dotdbg.plan import Change

    with session(paths):
        if paths.config_file.exists():
            raise DotdbgError(
                f"{paths.display(paths.config_file)} already exists; dotdbg left it alone",
                hint="edit it, or move it away to get a fresh starter file",
            )
        plan = Plan((Change(paths.config_file, None, text),), None, keep_manifest=True)
        return apply(paths, plan, command="init")
