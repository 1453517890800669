"""Low-level file operations for everything dotdbg writes: atomic writes, private copies,
directories, the run lock, and the checks that keep its state directory its own."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths

TMP_SUFFIX = ".dotdbg-tmp"
# `.<file name>.<pid>.<random>.dotdbg-tmp`; an older dotdbg wrote no pid.
_TMP_NAME = re.compile(r"\..+?(?:\.(?P<pid>[0-9]+))?\.[A-Za-z0-9_]+\.dotdbg-tmp")
_NO_FOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC


def real_target(path: Path) -> Path:
    """Where writing ``path`` must land: a symlinked ~/.bashrc (stow, chezmoi, yadm) is edited
    at its target, never replaced by a regular file."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def atomic_write(path: Path, data: bytes, mode: int | None = None, *, follow: bool = True) -> None:
    """Write ``data`` to ``path`` through a temp file in the same directory, fsync, rename.

    The file keeps its mode, owner and group (or gets ``mode``; a new file gets
    ``new_file_mode()``). ``follow``: a symlink stays and its target is rewritten; without it
    (dotdbg's own state files) a symlink is replaced, never followed.
    """
    target = real_target(path) if follow else path
    existing = _lstat(target)
    regular = existing is not None and stat.S_ISREG(existing.st_mode)
    if mode is None:
        mode = stat.S_IMODE(existing.st_mode) if existing and regular else new_file_mode()
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{target.name}.{os.getpid()}.", suffix=TMP_SUFFIX, dir=target.parent
    )
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
    """The mode of a file dotdbg creates: 0666 less the umask, as from any editor, and never
    writable by others whatever the umask: bash sources these files."""
    return 0o666 & ~umask() & ~0o022


def new_dir_mode() -> int:
    return 0o777 & ~umask() & ~0o022


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as error:
        if error.errno != errno.EINVAL:  # a file system that cannot sync directories
            raise
    finally:
        os.close(fd)


def missing_dirs(directory: Path) -> list[Path]:
    """The directories up to ``directory`` that do not exist yet, outermost first."""
    missing = []
    while not os.path.lexists(directory):
        missing.append(directory)
        directory = directory.parent
    return missing[::-1]


def make_dirs(directories: list[Path], mode: int | None = None, exist_ok: bool = False) -> None:
    for directory in directories:
        directory.mkdir(mode=new_dir_mode() if mode is None else mode, exist_ok=exist_ok)
        fsync_dir(directory.parent)


def blocking_file(directory: Path) -> Path | None:
    """The file that stands where ``directory`` or one of its parents must be, if any."""
    while not os.path.lexists(directory):
        directory = directory.parent
    return None if directory.is_dir() else directory


def remove_empty_dirs(directories: list[Path]) -> None:
    """rmdir each directory that is empty, deepest first; others are left as they are."""
    for directory in sorted(directories, key=lambda d: len(d.parts), reverse=True):
        with contextlib.suppress(OSError):
            directory.rmdir()


def leftover_temp_files(directory: Path) -> list[Path]:
    """Temp files of dotdbg runs that died before their rename (their process is gone)."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    found = []
    for name in names:
        match = _TMP_NAME.fullmatch(name)
        if match and not (match["pid"] and _alive(int(match["pid"]))):
            found.append(directory / name)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def backup_name(paths: Paths, path: Path) -> Path:
    """Where a backup folder keeps ``path``: relative to home, or under ``_abs/`` outside it."""
    try:
        return path.relative_to(paths.home)
    except ValueError:
        return Path("_abs") / path.relative_to(path.anchor)


def original_path(paths: Paths, name: Path) -> Path:
    """The file a backup folder's ``name`` was copied from (the inverse of ``backup_name``)."""
    return Path("/", *name.parts[1:]) if name.parts[0] == "_abs" else paths.home / name


# -- dotdbg's state directory and the run lock -----------------------------------------------


def ensure_state_dir(paths: Paths) -> None:
    """Create the state directory (0700) if needed, and refuse one other users can write: it
    holds the backups that restore writes back into the home."""
    directory = paths.state_dir
    shown = paths.display(directory)
    blocker = blocking_file(directory)
    if blocker is not None:
        raise DotdbgError(
            f"{blocker} is a file where dotdbg needs a directory, so dotdbg changed nothing",
            hint=f"move it away (mv {blocker} {blocker}.old), then run it again",
        )
    try:  # concurrent runs may create them at the same time: before the lock
        make_dirs(missing_dirs(directory.parent), exist_ok=True)
        make_dirs(missing_dirs(directory), mode=0o700, exist_ok=True)
        info = os.stat(directory)
    except OSError as error:
        raise DotdbgError(
            f"cannot create {shown}: {error.strerror}",
            hint=f"dotdbg keeps its lock, records and backups in {shown}; "
            "make that a writable directory",
        ) from None
    if not stat.S_ISDIR(info.st_mode):
        raise DotdbgError(
            f"{shown} is not a directory",
            hint=f"move it away (mv {shown} {shown}.old), then run it again",
        )
    if os.geteuid() != 0 and info.st_uid != os.geteuid():
        raise DotdbgError(
            f"{shown} belongs to another user (uid {info.st_uid}), so dotdbg will not keep its "
            "backups there",
            hint="it must be your own directory: move it away and run the command again",
        )
    if info.st_mode & 0o022:
        raise DotdbgError(
            f"{shown} can be written by other users (mode {stat.S_IMODE(info.st_mode):04o}), so "
            "dotdbg will not keep its backups there",
            hint=f"chmod go-w {shown}",
        )


@contextlib.contextmanager
def run_lock(paths: Paths) -> Iterator[None]:
    """Serialize concurrent dotdbg runs that write into the same home.

    The lock file is opened without following a symlink and without truncating it: whatever
    it is, opening it changes nothing.
    """
    ensure_state_dir(paths)
    shown = paths.display(paths.lock_file)
    try:
        fd = os.open(paths.lock_file, os.O_RDWR | os.O_CREAT | _NO_FOLLOW, 0o600)
    except OSError as error:
        why = "it is a symlink" if error.errno == errno.ELOOP else error.strerror
        raise DotdbgError(
            f"cannot open the lock file {shown}: {why}",
            hint=f"it must be a plain file of dotdbg's: remove it (rm {shown}) and run it again",
        ) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise DotdbgError(
                f"the lock file {shown} is not a plain file",
                hint=f"remove it (rm {shown}) and run it again",
            )
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
