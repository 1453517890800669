"""Install, uninstall, restore and the login-file fix: lock, plan, then apply the plan.

``apply`` is the one writer of home files: it checks every target first, backs up, writes each
file atomically and rolls back on failure, so a run changes everything or nothing.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dotdbg.backup import Backup, backup_dirs
from dotdbg.errors import DotdbgError
from dotdbg.fileops import atomic_write, real_target, run_lock
from dotdbg.paths import Paths
from dotdbg.plan import Change, Plan, plan_install, plan_profile_fix, plan_restore, plan_uninstall
from dotdbg.render import BASH_FILE, Rendered, render_all
from dotdbg.settings import Config
from dotdbg.state import read_state

# -- applying --------------------------------------------------------------------------------


def preflight(paths: Paths, changes: Iterable[Change]) -> None:
    """Refuse before the first write if any file cannot be written: nothing is half-changed."""
    for change in changes:
        target = real_target(change.path)
        if target.exists() and not target.stat().st_mode & stat.S_IWUSR:
            shown = paths.display(change.path)
            raise DotdbgError(
                f"{shown} is read-only, so dotdbg changed nothing",
                hint=f"make it writable (chmod u+w {shown}) or switch off its pack in the config",
            )
        directory = _existing_parent(target)
        if not directory.is_dir():
            raise DotdbgError(
                f"{directory} is a file where dotdbg needs a directory, so dotdbg changed nothing",
                hint=f"move it away (mv {directory} {directory}.old), then run it again",
            )
        if not os.access(directory, os.W_OK):
            raise DotdbgError(
                f"cannot write in {directory}, so dotdbg changed nothing",
                hint="check the directory's permissions",
            )


def _existing_parent(path: Path) -> Path:
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    return parent


def apply(paths: Paths, plan: Plan, backup: Backup | None = None) -> Path | None:
    """Back up, then write or delete each pending change atomically; returns the backup dir.

    ``backup``: the folder of the command this plan is part of (`alias add` edits the config
    first), so that one restore undoes the whole command.
    """
    pending = plan.pending
    preflight(paths, pending)
    backup = backup or Backup(paths)
    backup.save(change.path for change in pending)
    backup_dir = backup.dir
    done: list[Change] = []
    for change in pending:
        try:
            _write(change.path, change.after)
        except OSError as error:  # what preflight cannot see: chattr +i, a full disk, EROFS
            _roll_back(paths, done, change, error, backup_dir)
        done.append(change)
    _save_manifest(paths, plan.manifest)
    for change in pending:
        if change.after is None and change.path.parent in (paths.data_dir, paths.config_dir):
            _remove_if_empty(change.path.parent)
    return backup_dir


def _write(path: Path, text: str | None) -> None:
    if text is None:
        real_target(path).unlink()
    else:
        atomic_write(path, text.encode("utf-8", errors="surrogateescape"))


def _roll_back(
    paths: Paths, done: Sequence[Change], failed: Change, error: OSError, backup_dir: Path | None
) -> None:
    """Undo the changes already written, then raise: a run changes everything or nothing."""
    shown = paths.display(failed.path)
    for change in reversed(done):
        try:
            _write(change.path, change.before)
        except OSError:
            saved = f"; the old files are in {paths.display(backup_dir)}" if backup_dir else ""
            raise DotdbgError(
                f"cannot write {shown} ({error.strerror}), and undoing the files written before "
                f"it failed too at {paths.display(change.path)}",
                hint=f"`dotdbg status` shows the state{saved}",
            ) from None
    raise DotdbgError(
        f"cannot write {shown} ({error.strerror}), so dotdbg changed nothing",
        hint=f"check the file and its directory: ls -ld {shown} (lsattr for chattr +i; df)",
    ) from None


def _remove_if_empty(directory: Path) -> None:
    try:
        directory.rmdir()
    except OSError:
        pass  # not empty (the user keeps files there) or already gone


def _save_manifest(paths: Paths, manifest: dict[str, Any] | None) -> None:
    if manifest is None:
        paths.manifest_file.unlink(missing_ok=True)
    else:
        text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
        atomic_write(paths.manifest_file, text.encode(), mode=0o600)


# -- the operations the CLI calls ------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    plan: Plan
    backup_dir: Path | None = None
    warnings: tuple[str, ...] = field(default=())


def render_for(paths: Paths, config: Config) -> Rendered:
    shown = [
        paths.display(source) if source.is_relative_to(paths.home) else "dotdbg's defaults"
        for source in config.sources
    ]
    return render_all(config, shown, command_names())


def command_names() -> list[str]:
    from dotdbg.cli import command_names as names

    return names()


def _lock_unless(dry_run: bool, paths: Paths) -> AbstractContextManager[None]:
    """A dry run (status, diff, --dry-run) writes nothing, not even the lock file: every
    write is a rename, so it reads each file whole, before or after a concurrent run."""
    return nullcontext() if dry_run else run_lock(paths)


def install(
    paths: Paths,
    config: Config,
    *,
    dry_run: bool = False,
    backup: Backup | None = None,
    locked: bool = False,
) -> Report:
    """``backup`` and ``locked``: the install is one step of a command (`alias add`) that
    backs up into that folder and already holds the run lock."""
    from dotdbg.render import check_bash

    rendered = render_for(paths, config)
    check_bash(rendered.files[BASH_FILE], config)
    with _lock_unless(dry_run or locked, paths):
        plan = plan_install(paths, config, rendered, read_state(paths))
        backup_dir = None if dry_run else apply(paths, plan, backup)
    return Report(plan, backup_dir, config.warnings)


def uninstall(paths: Paths, *, dry_run: bool = False) -> Report:
    with _lock_unless(dry_run, paths):
        plan = plan_uninstall(paths, read_state(paths))
        backup_dir = None if dry_run else apply(paths, plan)
    return Report(plan, backup_dir)


def fix_profile(paths: Paths, *, dry_run: bool = False) -> Report:
    with _lock_unless(dry_run, paths):
        plan = plan_profile_fix(paths, read_state(paths))
        backup_dir = None if dry_run or not plan.pending else apply(paths, plan)
    return Report(plan, backup_dir)


def restore(paths: Paths, stamp: str | None = None, *, dry_run: bool = False) -> Report:
    available = backup_dirs(paths)
    chosen = [b for b in available if stamp is None or b.name == stamp]
    if not chosen:
        names = ", ".join(b.name for b in available[-5:]) or "none yet"
        raise DotdbgError(
            f"no backup named {stamp!r}" if stamp else "there are no backups to restore",
            hint=f"recent backups: {names} (`dotdbg restore --list`)",
        )
    with _lock_unless(dry_run, paths):
        plan = plan_restore(paths, chosen[-1])
        backup_dir = None if dry_run else apply(paths, plan)
    return Report(plan, backup_dir)
