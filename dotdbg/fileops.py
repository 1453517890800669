"""The only writers of files in a home directory: backups, atomic writes and the run lock."""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths


def real_target(path: Path) -> Path:
    """Where writing ``path`` must land: a symlinked ~/.bashrc (stow, chezmoi, yadm) is edited
    at its target, never replaced by a regular file."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` through a temp file in the same directory, fsync, rename.

    The file keeps its mode (or gets ``mode``; a new file gets 0666 less the umask, as from any
    editor) and, when ``path`` is a symlink, the symlink stays and its target is rewritten.
    """
    target = real_target(path)
    if mode is None:
        mode = stat.S_IMODE(target.stat().st_mode) if target.exists() else new_file_mode()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=".dotdbg-tmp", dir=target.parent
    )
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fsync(tmp.fileno())
        os.chmod(tmp_name, mode)
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(target.parent)


def new_file_mode() -> int:
    """The mode an editor gives a new file: 0666 less the umask (which can only be read by
    setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def new_backup_dir(paths: Paths) -> Path:
    """A fresh ``backups/<UTC timestamp>`` directory (mode 0700) for this run."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    paths.backups_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    for suffix in ("", *(f"-{n}" for n in range(2, 1000))):
        candidate = paths.backups_dir / f"{stamp}{suffix}"
        with contextlib.suppress(FileExistsError):
            candidate.mkdir(mode=0o700)
            return candidate
    raise DotdbgError(f"too many backups for {stamp} in {paths.backups_dir}")


def backup_name(paths: Paths, path: Path) -> Path:
    """Where a backup folder keeps ``path``: relative to home, or under ``_abs/`` outside it."""
    try:
        return path.relative_to(paths.home)
    except ValueError:
        return Path("_abs") / path.relative_to(path.anchor)


def original_path(paths: Paths, name: Path) -> Path:
    """The file a backup folder's ``name`` was copied from (the inverse of ``backup_name``)."""
    return Path("/", *name.parts[1:]) if name.parts[0] == "_abs" else paths.home / name


def backup_file(paths: Paths, backup_dir: Path, path: Path) -> Path:
    """Copy ``path`` (its content, following symlinks) into ``backup_dir``, mode 0600."""
    copy = backup_dir / backup_name(paths, path)
    copy.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    shutil.copyfile(path, copy)
    os.chmod(copy, 0o600)
    return copy


@contextlib.contextmanager
def run_lock(paths: Paths) -> Iterator[None]:
    """Serialize concurrent dotdbg runs that write into the same home."""
    try:
        paths.state_dir.mkdir(parents=True, exist_ok=True)
        lock = open(paths.lock_file, "w")  # noqa: SIM115 - held across the yield
    except OSError as error:
        raise DotdbgError(
            f"cannot create {paths.lock_file}: {error.strerror}",
            hint=f"dotdbg keeps its lock, manifest and backups in {paths.state_dir}; "
            "make that a writable directory",
        ) from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
