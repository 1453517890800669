"""This machine's file primitives under ``homefs.LocalFS``: atomic writes, private copies,
reads that never follow a symlink, fsync of a directory, the modes of new files."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path

TMP_SUFFIX = ".dotdbg-tmp"
# `.<file name>.<pid>.<random>.dotdbg-tmp`; an older dotdbg wrote no pid.
_TMP_NAME = r"\..+?(?:\.(?P<pid>[0-9]+))?\.[A-Za-z0-9_]+\.dotdbg-tmp"
_NO_FOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


def temp_file_pid(name: str) -> int | None:
    """The pid in a temp file's name (0: an older dotdbg's, without one); None: not one."""
    match = re.fullmatch(_TMP_NAME, name)
    if match is None:
        return None
    return int(match["pid"]) if match["pid"] else 0


def atomic_write(target: Path, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``target`` through a temp file in the same directory, fsync, rename.

    The file keeps its mode, owner and group (or gets ``mode``; a new file gets
    ``new_file_mode()``). A symlink at ``target`` is replaced, never followed (the caller
    resolves one it means to follow: ``HomeFS.real_target``).
    """
    existing = _lstat(target)
    regular = existing is not None and stat.S_ISREG(existing.st_mode)
    if mode is None:
        mode = stat.S_IMODE(existing.st_mode) if existing and regular else new_file_mode()
    fd, tmp_name = _new_temp_file(target)
    try:
        with os.fdopen(fd, "wb") as tmp:
            tmp.write(data)
            tmp.flush()
            os.fchmod(tmp.fileno(), mode)
            if existing is not None and regular:
                _keep_owner(tmp.fileno(), existing)
            os.fsync(tmp.fileno())
        os.replace(tmp_name, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp_name)
        raise
    fsync_dir(target.parent)


def _new_temp_file(target: Path) -> tuple[int, str]:
    """A new file of mode 0600 beside ``target``, opened as ``tempfile.mkstemp`` opens one
    (created, never followed, not inherited), without importing tempfile: it brings shutil,
    bz2, lzma and random, 5-6 ms of every command that writes (issue 27)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | _NO_FOLLOW
    for _ in range(100):
        name = f"{target.parent}/.{target.name}.{os.getpid()}.{os.urandom(6).hex()}{TMP_SUFFIX}"
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", str(target.parent))


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None


def _keep_owner(fd: int, old: os.stat_result) -> None:
    """Give the new file the old one's owner (root can) and group (a member can)."""
    if old.st_uid == os.geteuid() and old.st_gid == os.getegid():
        return
    if os.geteuid() == 0:
        os.fchown(fd, old.st_uid, old.st_gid)
        return
    with contextlib.suppress(PermissionError):  # not in that group: the user's own group
        os.fchown(fd, -1, old.st_gid)


def write_private(path: Path, data: bytes) -> None:
    """Create ``path`` (mode 0600; it must not exist, a symlink is not followed) and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW, 0o600)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def read_state_file(path: Path) -> bytes | None:
    """One of dotdbg's own state files (None when missing), never through a symlink."""
    try:
        fd = os.open(path, os.O_RDONLY | _NO_FOLLOW)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as file:
        return file.read()


def umask() -> int:
    """The process umask, which can only be read by setting it (so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode of a file dotdbg creates on this machine (``created_mode`` of 0666)."""
    return created_mode(0o666, umask())


def created_mode(base: int, mask: int) -> int:
    """``base`` (0666 a file, 0777 a directory) less the umask ``mask``, as from any editor,
    and never writable by others whatever the umask: bash sources these files."""
    return base & ~mask & ~0o022


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno != errno.EINVAL:  # a file system that cannot sync directories
            raise
    finally:
        with contextlib.suppress(OSError):  # a read-only descriptor: its close loses nothing
            os.close(fd)
