"""The home filesystem seam: every read and write of a home by plan and apply goes through a
``HomeFS``, so the same pipeline can install into a home on another machine.

A ``HomeFS`` implements the primitives (read, stat, write atomically, rename, chmod, mkdir,
remove, list, lock, and what preflight asks of the machine: its user, whether a directory is
writable, whether a process still runs); the helpers built on them (``missing_dirs``,
``real_target`` …) are shared. Paths are absolute paths on that machine. Failures are
``OSError`` with the errno the local call would give (ENOENT, EACCES, ENOSPC, ELOOP …): the
callers turn them into one-line errors. ``LocalFS`` is this machine; ``Paths.fs`` is the one a
command uses (``paths.on(other_fs)`` for another).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

from dotdbg.common.record import Record
from dotdbg.home import fileops

NOT_PLAIN = "it is not a plain file"


class FileInfo(Record):
    """What ``stat``/``lstat`` tell of a file: its type and mode bits, owner and group."""

    mode: int  # st_mode: type and permission bits
    uid: int
    gid: int
    size: int = 0

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)

    @property
    def is_file(self) -> bool:
        return stat.S_ISREG(self.mode)

    @property
    def is_symlink(self) -> bool:
        return stat.S_ISLNK(self.mode)

    @property
    def permissions(self) -> int:
        return stat.S_IMODE(self.mode)

    def owned_by(self, euid: int) -> bool:
        """Whether ``euid`` owns it (root owns everything)."""
        return euid == 0 or self.uid == euid

    @property
    def others_can_write(self) -> bool:
        return bool(self.permissions & 0o022)

    def private_to(self, euid: int) -> bool:
        """Whether only ``euid`` (or root) can change what is in it: the state folder's rule
        (``statedir``)."""
        return self.owned_by(euid) and not self.others_can_write


class HomeFS(ABC):
    """A home's filesystem, local or on another machine."""

    # -- reading -------------------------------------------------------------------------------
    @abstractmethod
    def read_bytes(self, path: Path, *, follow: bool = True) -> bytes | None:
        """The file's bytes; None when it does not exist. ``follow=False``: a symlink is not
        followed (ELOOP), as for dotdbg's own state files."""

    @abstractmethod
    def stat(self, path: Path) -> FileInfo | None:
        """Following symlinks; None when nothing is there."""

    @abstractmethod
    def lstat(self, path: Path) -> FileInfo | None:
        """The entry itself (a symlink is a symlink); None when nothing is there."""

    @abstractmethod
    def realpath(self, path: Path) -> Path:
        """``path`` with every symlink resolved."""

    @abstractmethod
    def listdir(self, path: Path) -> list[str]:
        """The names in a directory (OSError when it cannot be listed)."""

    # -- writing -------------------------------------------------------------------------------
    @abstractmethod
    def write_atomic(
        self, path: Path, data: bytes, mode: int | None = None, *, follow: bool = True
    ) -> None:
        """Write through a temp file in the same directory (``fileops.TMP_SUFFIX``), fsync,
        rename, fsync the directory. The file keeps its mode, owner and group, or gets
        ``mode`` (a new file: ``new_file_mode``). ``follow``: a symlink's target is
        rewritten; without it the symlink is replaced."""

    @abstractmethod
    def write_new(self, path: Path, data: bytes) -> None:
        """Create ``path`` (mode 0600, it must not exist, never through a symlink), fsync it
        and its directory."""

    @abstractmethod
    def rename(self, source: Path, target: Path) -> None:
        """Rename, then fsync the target's directory."""

    @abstractmethod
    def chmod(self, path: Path, mode: int) -> None: ...

    @abstractmethod
    def mkdir(self, path: Path, mode: int | None = None, *, exist_ok: bool = False) -> None:
        """One directory (mode: ``new_dir_mode`` by default), then fsync its parent."""

    @abstractmethod
    def remove(self, path: Path) -> None:
        """Unlink a file (a symlink itself), then fsync its directory."""

    @abstractmethod
    def rmdir(self, path: Path) -> None:
        """Remove an empty directory (OSError when it is not empty)."""

    @abstractmethod
    def remove_tree(self, path: Path) -> None:
        """Remove a directory and everything in it, as far as it can; never fails."""

    @abstractmethod
    def lock(self, path: Path) -> AbstractContextManager[None]:
        """Hold an exclusive lock on ``path`` (created 0600, never through a symlink, never
        truncated) until the context ends. OSError ELOOP for a symlink, EINVAL with
        ``NOT_PLAIN`` for anything else that is not a plain file."""

    # -- the machine ---------------------------------------------------------------------------
    @abstractmethod
    def euid(self) -> int:
        """The user dotdbg writes as on that machine."""

    @abstractmethod
    def user_name(self, uid: int) -> str:
        """A user's name there (``uid N`` when it has none)."""

    @abstractmethod
    def can_write(self, directory: Path) -> bool:
        """Whether the user may create files in ``directory``."""

    @abstractmethod
    def process_alive(self, pid: int) -> bool:
        """Whether process ``pid`` still runs there (a dead run's temp files carry its pid)."""

    @abstractmethod
    def umask(self) -> int:
        """The umask new files get there."""

    # -- helpers on the primitives -------------------------------------------------------------
    def exists(self, path: Path) -> bool:
        return self.stat(path) is not None

    def lexists(self, path: Path) -> bool:
        return self.lstat(path) is not None

    def is_dir(self, path: Path) -> bool:
        info = self.stat(path)
        return info is not None and info.is_dir

    def real_target(self, path: Path) -> Path:
        """Where writing ``path`` lands: a symlinked ~/.bashrc (stow, chezmoi, yadm) is edited
        at its target, never replaced by a regular file."""
        info = self.lstat(path)
        return self.realpath(path) if info is not None and info.is_symlink else path

    def new_file_mode(self) -> int:
        return fileops.created_mode(0o666, self.umask())

    def new_dir_mode(self) -> int:
        return fileops.created_mode(0o777, self.umask())

    def missing_dirs(self, directory: Path) -> list[Path]:
        """The directories up to ``directory`` that do not exist yet, outermost first."""
        missing = []
        while not self.lexists(directory):
            missing.append(directory)
            directory = directory.parent
        return missing[::-1]

    def make_dirs(
        self, directories: list[Path], mode: int | None = None, exist_ok: bool = False
    ) -> None:
        for directory in directories:
            self.mkdir(directory, mode, exist_ok=exist_ok)

    def blocking_file(self, directory: Path) -> Path | None:
        """The file that stands where ``directory`` or one of its parents must be, if any."""
        while not self.lexists(directory):
            directory = directory.parent
        return None if self.is_dir(directory) else directory

    def remove_empty_dirs(self, directories: list[Path]) -> None:
        """rmdir each directory that is empty, deepest first; others are left as they are."""
        for directory in sorted(directories, key=lambda d: len(d.parts), reverse=True):
            with contextlib.suppress(OSError):
                self.rmdir(directory)

    def leftover_temp_files(self, directory: Path) -> list[Path]:
        """Temp files of dotdbg runs that died before their rename (their process is gone)."""
        try:
            names = self.listdir(directory)
        except OSError:
            return []
        found = []
        for name in names:
            pid = fileops.temp_file_pid(name)
            if pid is not None and not (pid and self.process_alive(pid)):
                found.append(directory / name)
        return found


class LocalFS(HomeFS):
    """This machine's filesystem."""

    def read_bytes(self, path: Path, *, follow: bool = True) -> bytes | None:
        if not follow:
            return fileops.read_state_file(path)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None

    def stat(self, path: Path) -> FileInfo | None:
        return _info(os.stat, path)

    def lstat(self, path: Path) -> FileInfo | None:
        return _info(os.lstat, path)

    def realpath(self, path: Path) -> Path:
        # strict: the lenient form takes a link it cannot lstat (EIO) for a file, and a write
        # would then replace the user's symlink; only a missing target is left to it
        try:
            return Path(os.path.realpath(path, strict=True))
        except FileNotFoundError:
            return Path(os.path.realpath(path))

    def listdir(self, path: Path) -> list[str]:
        return os.listdir(path)

    def write_atomic(
        self, path: Path, data: bytes, mode: int | None = None, *, follow: bool = True
    ) -> None:
        fileops.atomic_write(self.real_target(path) if follow else path, data, mode)

    def write_new(self, path: Path, data: bytes) -> None:
        fileops.write_private(path, data)
        fileops.fsync_dir(path.parent)

    def rename(self, source: Path, target: Path) -> None:
        os.rename(source, target)
        fileops.fsync_dir(target.parent)

    def chmod(self, path: Path, mode: int) -> None:
        os.chmod(path, mode)

    def mkdir(self, path: Path, mode: int | None = None, *, exist_ok: bool = False) -> None:
        path.mkdir(mode=self.new_dir_mode() if mode is None else mode, exist_ok=exist_ok)
        fileops.fsync_dir(path.parent)

    def remove(self, path: Path) -> None:
        path.unlink()
        fileops.fsync_dir(path.parent)

    def rmdir(self, path: Path) -> None:
        path.rmdir()

    def remove_tree(self, path: Path) -> None:
        import shutil

        shutil.rmtree(path, ignore_errors=True)

    def lock(self, path: Path) -> AbstractContextManager[None]:
        return _flock(path)

    def euid(self) -> int:
        return os.geteuid()

    def user_name(self, uid: int) -> str:
        import pwd

        try:
            return pwd.getpwuid(uid).pw_name
        except KeyError:
            return f"uid {uid}"

    def can_write(self, directory: Path) -> bool:
        return os.access(directory, os.W_OK)

    def process_alive(self, pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def umask(self) -> int:
        return fileops.umask()


def _info(call: Callable[[Path], os.stat_result], path: Path) -> FileInfo | None:
    try:
        result = call(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    return FileInfo(result.st_mode, result.st_uid, result.st_gid, result.st_size)


@contextlib.contextmanager
def _flock(path: Path) -> Iterator[None]:
    import fcntl

    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, NOT_PLAIN, str(path))
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        # Closing releases the lock and frees the descriptor even when close reports an error
        # (Linux close(2)); nothing was written through it, so an error here changes nothing.
        with contextlib.suppress(OSError):
            os.close(fd)


LOCAL = LocalFS()
