"""The one writer of a home: every command that changes files applies its plan here.

``apply`` checks every target, saves a complete backup, writes the journal, then the files and
the manifest, and removes the journal, all through the home's filesystem (``paths.fs``): a run
completes, or changes nothing (rolled back at once, or by the next run when this one is killed).
``session`` is the lock every writing command holds, and the place where the leftovers of a dead
run are finished first.
"""

from __future__ import annotations

import contextlib
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from dotdbg.common.output import note, warn
from dotdbg.errors import DotdbgError
from dotdbg.home.backup import Saving, encoded, make_backup, new_name, prune, publish
from dotdbg.home.homefs import FileInfo
from dotdbg.home.journal import Journal, Step, now, remove_journal, write_journal
from dotdbg.home.plan import Change, Plan
from dotdbg.home.recover import recover, roll_back
from dotdbg.home.state import digest, read_manifest, save_manifest
from dotdbg.home.statedir import refuse_blocked, run_lock
from dotdbg.paths import Paths


@contextlib.contextmanager
def session(paths: Paths) -> Iterator[None]:
    """The run lock, with whatever a dead run left finished first (and said, one line each)."""
    with run_lock(paths):
        for line in recover(paths):
            note(line)
        yield


# -- checks before the first write -----------------------------------------------------------


def preflight(paths: Paths, changes: Iterable[Change]) -> None:
    """Refuse before the first write if any file cannot be written: nothing is half-changed."""
    fs = paths.fs
    for change in changes:
        shown = paths.display(change.path)
        try:
            target = fs.real_target(change.path)
            info = fs.stat(target)
        except OSError as error:
            raise cannot("read", paths, change.path, error) from None
        if info is not None:
            _check_owned(paths, shown, info)
            if not info.mode & stat.S_IWUSR:
                raise DotdbgError(
                    f"{shown} is read-only, so dotdbg changed nothing",
                    hint=f"make it writable (chmod u+w {shown}), then run the command again",
                )
        _check_directory(paths, target.parent)


def _check_owned(paths: Paths, shown: str, info: FileInfo) -> None:
    """A file of another user is never replaced: the new file would be the runner's. (Root
    keeps the owner: write_atomic gives the new file the old one's.)"""
    if info.owned_by(paths.fs.euid()):
        return
    owner = paths.fs.user_name(info.uid)
    raise DotdbgError(
        f"{shown} belongs to {owner}, not to you, so dotdbg changed nothing",
        hint=f"dotdbg does not take over another user's file; ask {owner} to make it yours "
        f"(chown), then run the command again",
    )


def _check_directory(paths: Paths, directory: Path) -> None:
    refuse_blocked(paths, directory)
    directory = _existing_parent(paths, directory)
    if not paths.fs.can_write(directory):
        raise DotdbgError(
            f"cannot write in {directory}, so dotdbg changed nothing",
            hint="check the directory's permissions",
        )


def _existing_parent(paths: Paths, directory: Path) -> Path:
    while not paths.fs.exists(directory):
        directory = directory.parent
    return directory


def cannot(action: str, paths: Paths, path: Path | str | None, error: OSError) -> DotdbgError:
    """An OSError as one line: what could not be done, to which path, and why."""
    shown = paths.display(Path(path)) if path else "a file"
    return DotdbgError(
        f"cannot {action} {shown}: {error.strerror or error}, so dotdbg changed nothing",
        hint=f"check it and its directory (ls -ld {shown}; df for a full disk)",
    )


# -- applying --------------------------------------------------------------------------------


def apply(paths: Paths, plan: Plan, *, command: str, restored: str | None = None) -> Path | None:
    """Write ``plan``; returns its backup folder (None when no file changes).

    ``restored``: the backup a restore puts back, recorded so that the next plain restore goes
    one step further back.
    """
    pending = plan.pending
    old_manifest = read_manifest(paths)
    if not pending:
        if not plan.keep_manifest and (plan.manifest or {}) != old_manifest:
            _save_manifest_or_fail(paths, plan.manifest)
        paths.fs.remove_empty_dirs(list(plan.remove_dirs))
        return None
    preflight(paths, pending)
    dirs = [d for change in pending if change.after is not None for d in _dirs_for(paths, change)]
    dirs = list(dict.fromkeys(dirs))
    manifest = _with_dirs(plan.manifest, dirs)
    partial = _back_up(paths, pending, command, old_manifest, dirs, restored)
    folder = new_name(paths)
    journal = Journal(
        command=command,
        started=now(),
        backup=folder.name,
        steps=tuple(_step(change) for change in pending),
        dirs=tuple(dirs),
        manifest=manifest,
        writes_manifest=not plan.keep_manifest,
        remove_dirs=plan.remove_dirs,
    )
    _start(paths, journal, partial, folder)
    _write_all(paths, journal, pending)
    _done(paths, journal)
    return folder


def _start(paths: Paths, journal: Journal, partial: Path, folder: Path) -> None:
    """The journal, then the backup under its name: from here on a dead run is finished by
    the next one. If either fails, nothing was changed and nothing is left."""
    at = paths.journal_file
    try:
        write_journal(paths, journal)
        at = folder
        publish(paths, partial, folder)
    except OSError as error:
        with contextlib.suppress(OSError):
            if at == folder:
                remove_journal(paths)
            paths.fs.remove_tree(partial)
        raise cannot("write", paths, at, error) from None


def _dirs_for(paths: Paths, change: Change) -> list[Path]:
    return paths.fs.missing_dirs(paths.fs.real_target(change.path).parent)


def _with_dirs(manifest: dict[str, Any] | None, dirs: list[Path]) -> dict[str, Any] | None:
    """The manifest to come, remembering the directories this run creates for uninstall."""
    if manifest is None or not dirs:
        return manifest
    recorded = set(manifest.get("dirs", [])) | {str(directory) for directory in dirs}
    return {**manifest, "dirs": sorted(recorded)}


def _step(change: Change) -> Step:
    def sha(text: str | None) -> str | None:
        return None if text is None else digest(text)

    return Step(change.path, sha(change.before), sha(change.after))


def _back_up(
    paths: Paths,
    pending: tuple[Change, ...],
    command: str,
    old_manifest: dict[str, Any],
    dirs: list[Path],
    restored: str | None,
) -> Path:
    try:
        return make_backup(
            paths,
            (Saving(change.path, change.before) for change in pending),
            command=command,
            manifest=old_manifest,
            created_dirs=dirs,
            restored=restored,
        )
    except OSError as error:
        raise DotdbgError(
            f"cannot back up {_shown_name(paths, error)} into "
            f"{paths.display(paths.backups_dir)} ({error.strerror}), so dotdbg changed nothing",
            hint="dotdbg changes nothing it cannot save first (df for a full disk)",
        ) from None


def _shown_name(paths: Paths, error: OSError) -> str:
    return paths.display(Path(error.filename)) if error.filename else "the files"


def _write_all(paths: Paths, journal: Journal, pending: tuple[Change, ...]) -> None:
    """The writes, in order; on any failure (or Ctrl-C) everything is rolled back at once."""
    at: Path = paths.home
    try:
        for directory in journal.dirs:
            at = directory
            paths.fs.mkdir(directory)
        for change in pending:
            at = change.path
            _write(paths, change.path, change.after)
        if journal.writes_manifest:
            at = paths.manifest_file
            save_manifest(paths, journal.manifest)
    except BaseException as error:
        _undo(paths, journal, at, error)
        raise


def _write(paths: Paths, path: Path, text: str | None) -> None:
    if text is None:
        paths.fs.remove(paths.fs.real_target(path))
    else:
        paths.fs.write_atomic(path, encoded(text))


def _undo(paths: Paths, journal: Journal, at: Path, error: BaseException) -> None:
    """Roll back after ``error``; raises what the user reads when it was an OSError."""
    shown = paths.display(at)
    try:
        roll_back(paths, journal)
    except (OSError, DotdbgError) as failed:
        why = failed.strerror if isinstance(failed, OSError) else failed.message
        reason = error.strerror if isinstance(error, OSError) else "interrupted"
        raise DotdbgError(
            f"cannot write {shown} ({reason}), and putting back the files written before it "
            f"failed too ({why}): the next dotdbg command finishes putting them back",
            hint=f"the files from before are in {paths.display(paths.backups_dir)}/"
            f"{journal.backup}; `dotdbg status` shows what is pending",
        ) from None
    if isinstance(error, OSError):
        raise DotdbgError(
            f"cannot write {shown} ({error.strerror}), so dotdbg changed nothing",
            hint=f"check the file and its directory: ls -ld {shown} (lsattr for chattr +i; df)",
        ) from None


def _done(paths: Paths, journal: Journal) -> None:
    """After the last write: empty directories go, then the journal, then old backups."""
    paths.fs.remove_empty_dirs(list(journal.remove_dirs))
    try:
        remove_journal(paths)
    except OSError as error:
        warn(
            f"every file is written, but {paths.display(paths.journal_file)} could not be "
            f"removed ({error.strerror}): the next dotdbg command does it"
        )
        return
    with contextlib.suppress(OSError, DotdbgError):  # old backups can wait for the next run
        prune(paths)


def _save_manifest_or_fail(paths: Paths, manifest: dict[str, Any] | None) -> None:
    try:
        save_manifest(paths, manifest)
    except OSError as error:
        raise cannot("write", paths, paths.manifest_file, error) from None
