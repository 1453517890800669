"""Backups: one folder per command, holding every file the command changed, as it was.

``backups/<UTC timestamp>/<path relative to home>`` (``_abs/<absolute path>`` outside it), mode
0600. A folder is written as ``.partial-…``: every copy is written and fsynced, then the index
``dotdbg-backup.json`` (the sha256 of each copy, the files that did not exist yet, the
directories the command created, dotdbg's manifest as it was, and which command made it); the
run's journal names it, and only then is it renamed to its timestamp, just before the first
change. So a folder with a timestamp name is complete; a ``.partial-…`` one is a run that died
and is never restored from, and a copy is written back only if its digest is the one recorded.
"""

from __future__ import annotations

import errno
import json
import os
import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dotdbg.common.record import Record
from dotdbg.errors import DotdbgError
from dotdbg.home.state import MANIFEST_VERSION
from dotdbg.paths import Paths

INDEX = "dotdbg-backup.json"  # never a backed-up name: those are dotfiles or in subfolders
INDEX_VERSION = 2
PARTIAL = ".partial-"  # a folder being written
PRUNING = ".pruning-"  # a folder being deleted
KEEP_NEWEST = 20


def digest_bytes(data: bytes) -> str:
    from dotdbg.common.sha256 import sha256

    return sha256(data).hexdigest()


def encoded(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogateescape")


class Saving(Record):
    """A file a command is about to change, and the text it was planned from (None: absent)."""

    path: Path
    before: str | None


def make_backup(
    paths: Paths,
    files: Iterable[Saving],
    *,
    command: str,
    manifest: dict[str, Any],
    created_dirs: Iterable[Path] = (),
    restored: str | None = None,
) -> Path:
    """Save every file, complete and fsynced, into a new ``.partial-…`` folder; returns it.
    ``publish`` gives it its timestamp name once the run's journal names it.

    A file that no longer holds the text the plan was made from was changed meanwhile (an
    editor, by hand): nothing is written then. On any failure the partial folder is removed.
    """
    fs = paths.fs
    fs.make_dirs(fs.missing_dirs(paths.backups_dir), mode=0o700)
    partial = paths.backups_dir / f"{PARTIAL}{_stamp()}-{os.getpid()}"
    fs.mkdir(partial, mode=0o700)
    try:
        index = _save_files(paths, partial, files)
        index.update(
            version=INDEX_VERSION,
            complete=True,
            command=command,
            restored=restored,
            made=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            dirs=[str(backup_name(paths, d)) for d in created_dirs],
            manifest=manifest or None,
        )
        text = json.dumps(index, indent=2, sort_keys=True) + "\n"
        fs.write_new(partial / INDEX, text.encode())
    except BaseException:
        fs.remove_tree(partial)
        raise
    return partial


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def new_name(paths: Paths) -> Path:
    """A timestamp name no backup folder has yet (-2, -3 … within one second)."""
    stamp = _stamp()
    for number in range(1, 10000):
        candidate = paths.backups_dir / (stamp if number == 1 else f"{stamp}-{number}")
        if not paths.fs.lexists(candidate):
            return candidate
    raise DotdbgError(f"too many backups for {stamp} in {paths.backups_dir}")


def publish(paths: Paths, partial: Path, final: Path) -> None:
    paths.fs.rename(partial, final)


def _save_files(paths: Paths, folder: Path, files: Iterable[Saving]) -> dict[str, Any]:
    fs = paths.fs
    digests: dict[str, str] = {}
    absent: list[str] = []
    for saving in {saving.path: saving for saving in files}.values():
        name = backup_name(paths, saving.path)
        data = fs.read_bytes(fs.real_target(saving.path))
        expected = None if saving.before is None else encoded(saving.before)
        if data != expected:
            raise DotdbgError(
                f"{paths.display(saving.path)} changed while dotdbg was running, so dotdbg "
                "changed nothing",
                hint="run the command again",
            )
        if data is None:
            absent.append(str(name))
            continue
        copy = folder / name
        try:
            fs.make_dirs(fs.missing_dirs(copy.parent), mode=0o700)
            fs.write_new(copy, data)
        except OSError as error:  # name the file being saved, not the copy
            raise OSError(error.errno, error.strerror, str(saving.path)) from None
        digests[str(name)] = digest_bytes(data)
    return {"files": digests, "absent": sorted(absent)}


# -- reading a backup ------------------------------------------------------------------------


class Contents(Record):
    """What restoring a backup folder puts back."""

    folder: Path
    saved: dict[Path, tuple[Path, str]]  # original file: its copy and the copy's sha256
    absent: tuple[Path, ...]  # files that did not exist: a restore deletes them
    dirs: tuple[Path, ...]  # directories the command created: a restore removes them if empty
    manifest: dict[str, Any] | None  # dotdbg's manifest then ({}: none); None: unreadable
    command: str
    restored: str | None  # the backup that command (a restore) put back


def read_backup(paths: Paths, folder: Path) -> Contents:
    """The contents of a complete backup folder; an error for any other."""
    index = _read_index(paths, folder)
    if index is None:
        raise DotdbgError(
            f"{paths.display(folder)} is not a complete backup (no index with digests, made by "
            "a dotdbg run that died or by an older dotdbg), so dotdbg will not restore from it",
            hint=f"its files are plain copies: compare them yourself (ls -la {folder})",
        )
    return _contents(paths, folder, index)


def _contents(paths: Paths, folder: Path, index: dict[str, Any]) -> Contents:
    saved = {
        original_path(paths, Path(name)): (folder / name, sha)
        for name, sha in sorted(index["files"].items())
    }
    manifest = index.get("manifest") or {}  # null: there was no manifest
    if manifest and manifest.get("version") != MANIFEST_VERSION:
        manifest = None  # records this dotdbg cannot read
    return Contents(
        folder=folder,
        saved=saved,
        absent=tuple(original_path(paths, Path(name)) for name in index.get("absent", [])),
        dirs=tuple(original_path(paths, Path(name)) for name in index.get("dirs", [])),
        manifest=manifest,
        command=str(index.get("command", "")),
        restored=index.get("restored"),
    )


def _read_index(paths: Paths, folder: Path) -> dict[str, Any] | None:
    """A complete folder's index; None for a folder without one (a dead run's, an older
    dotdbg's). An index that cannot be read is an error: skipping its folder would make a
    plain restore pick another one."""
    try:
        raw = paths.fs.read_bytes(folder / INDEX)
    except NotADirectoryError:
        return None
    except OSError as error:
        raise DotdbgError(
            f"cannot read {folder / INDEX}: {error.strerror}, so dotdbg changed nothing",
            hint="check the backup folder and its file system",
        ) from None
    if raw is None:
        return None
    try:
        index = json.loads(raw.decode("utf-8"))
    except ValueError:  # damaged, or not UTF-8
        return None
    complete = isinstance(index, dict) and index.get("complete") is True
    if not complete or index.get("version") != INDEX_VERSION:
        return None
    return index if isinstance(index.get("files"), dict) else None


def is_complete(paths: Paths, folder: Path) -> bool:
    return _read_index(paths, folder) is not None


def verified_copy(paths: Paths, contents: Contents, original: Path) -> str:
    """The saved text of ``original``, only if its copy still has the recorded digest."""
    copy, expected = contents.saved[original]
    try:
        data = paths.fs.read_bytes(copy)
        if data is None:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(copy))
    except OSError as error:
        raise DotdbgError(
            f"cannot read the saved copy of {paths.display(original)} in "
            f"{paths.display(contents.folder)}: {error.strerror}",
            hint="nothing was changed; pick another backup (`dotdbg restore --list`)",
        ) from None
    if digest_bytes(data) != expected:
        raise DotdbgError(
            f"the saved copy of {paths.display(original)} in {paths.display(contents.folder)} "
            "is not the file that was saved (its sha256 differs), so dotdbg restored nothing",
            hint="pick another backup (`dotdbg restore --list`)",
        )
    return data.decode("utf-8", errors="surrogateescape")


# -- the folders -----------------------------------------------------------------------------


def backup_dirs(paths: Paths) -> list[Path]:
    """Backup folders (not the partial ones), oldest first: by UTC timestamp, then -2, -3 …"""
    fs = paths.fs
    if not fs.is_dir(paths.backups_dir):
        return []
    names = [name for name in fs.listdir(paths.backups_dir) if name[0] != "."]
    folders = (paths.backups_dir / name for name in names)
    return sorted((folder for folder in folders if fs.is_dir(folder)), key=_order)


def _order(folder: Path) -> tuple[str, int]:
    match = re.fullmatch(r"(.*)-(\d+)", folder.name)
    return (match[1], int(match[2])) if match else (folder.name, 1)


def complete_backups(paths: Paths, folders: Sequence[Path] | None = None) -> list[Contents]:
    """The backups restore can use among ``folders`` (default: ``backup_dirs``), oldest first
    (each index read once)."""
    listed = backup_dirs(paths) if folders is None else folders
    indexed = ((folder, _read_index(paths, folder)) for folder in listed)
    return [_contents(paths, folder, index) for folder, index in indexed if index is not None]


def step_back(paths: Paths) -> Contents:
    """What a plain `dotdbg restore` puts back: the newest backup, or, when the newest command
    was itself a restore, the backup before the one it restored (one more command back)."""
    backups = complete_backups(paths)
    if not backups:
        raise DotdbgError(
            "there are no backups to restore",
            hint="dotdbg makes one each time a command changes your files",
        )
    newest = backups[-1]
    if not newest.restored:
        return newest
    went_back_to = _order(newest.folder.with_name(newest.restored))
    older = [b for b in backups if _order(b.folder) < went_back_to]
    if not older:
        raise DotdbgError(
            f"the last restore went back to {newest.restored}, the oldest backup: there is "
            "nothing further back",
            hint=f"`dotdbg restore {newest.folder.name}` undoes that restore",
        )
    return older[-1]


def remove_folder(paths: Paths, folder: Path) -> None:
    """Delete a backup folder: renamed first, so that a kill midway leaves no half folder
    under a timestamp name."""
    doomed = folder.with_name(f"{PRUNING}{folder.name}")
    paths.fs.rename(folder, doomed)
    paths.fs.remove_tree(doomed)


def prune(paths: Paths, keep_newest: int = KEEP_NEWEST) -> list[Path]:
    """Delete old backups: kept are the oldest one (the home before dotdbg's first change), the
    first install's, and the newest ``keep_newest``. Folders this dotdbg cannot read are left
    alone. Returns the folders removed."""
    folders = backup_dirs(paths)
    if len(folders) <= keep_newest + 1:
        return []  # the newest and the oldest are all there are: no index to read
    backups = complete_backups(paths, folders)
    keep = {b.folder for b in backups[-keep_newest:]}
    keep |= {b.folder for b in backups[:1]}
    first_install = [b.folder for b in backups if b.command == "install"][:1]
    keep |= set(first_install)
    doomed = [b.folder for b in backups if b.folder not in keep]
    for folder in doomed:
        remove_folder(paths, folder)
    return doomed


def leftover_folders(paths: Paths) -> list[Path]:
    """Partial and half-deleted folders of runs that died."""
    if not paths.fs.is_dir(paths.backups_dir):
        return []
    names = paths.fs.listdir(paths.backups_dir)
    return sorted(paths.backups_dir / n for n in names if n.startswith((PARTIAL, PRUNING)))


def backup_name(paths: Paths, path: Path) -> Path:
    """Where a backup folder keeps ``path``: relative to home, or under ``_abs/`` outside it."""
    try:
        return path.relative_to(paths.home)
    except ValueError:
        return Path("_abs") / path.relative_to(path.anchor)


def original_path(paths: Paths, name: Path) -> Path:
    """The file a backup folder's ``name`` was copied from (the inverse of ``backup_name``)."""
    return Path("/", *name.parts[1:]) if name.parts[0] == "_abs" else paths.home / name
