"""dotdbg's state directory (records, journal, backups) and the run lock, in the home's
filesystem (``paths.fs``)."""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator
from pathlib import Path

from dotdbg.errors import DotdbgError
from dotdbg.home.homefs import NOT_PLAIN, FileInfo
from dotdbg.paths import Paths


def ensure_state_dir(paths: Paths) -> None:
    """Create the state directory (0700) if needed, and refuse one other users can write: it
    holds the backups that restore writes back into the home."""
    fs, directory = paths.fs, paths.state_dir
    shown = paths.display(directory)
    refuse_blocked(paths, directory)
    try:  # concurrent runs may create them at the same time: before the lock
        fs.make_dirs(fs.missing_dirs(directory.parent), exist_ok=True)
        fs.make_dirs(fs.missing_dirs(directory), mode=0o700, exist_ok=True)
        info = fs.stat(directory)
    except OSError as error:
        raise DotdbgError(
            f"cannot create {shown}: {error.strerror}",
            hint=f"dotdbg keeps its lock, records and backups in {shown}; "
            "make that a writable directory",
        ) from None
    if info is None or not info.is_dir:
        raise DotdbgError(
            f"{shown} is not a directory",
            hint=f"move it away (mv {shown} {shown}.old), then run it again",
        )
    _check_private(paths, info)


def refuse_blocked(paths: Paths, directory: Path) -> None:
    """An error when a file stands where ``directory`` or one of its parents must be."""
    blocker = paths.fs.blocking_file(directory)
    if blocker is not None:
        raise DotdbgError(
            f"{blocker} is a file where dotdbg needs a directory, so dotdbg changed nothing",
            hint=f"move it away (mv {blocker} {blocker}.old), then run it again",
        )


def _check_private(paths: Paths, info: FileInfo) -> None:
    shown = paths.display(paths.state_dir)
    if not info.owned_by(paths.fs.euid()):
        raise DotdbgError(
            f"{shown} belongs to another user (uid {info.uid}), so dotdbg will not keep its "
            "backups there",
            hint="it must be your own directory: move it away and run the command again",
        )
    if info.others_can_write:
        raise DotdbgError(
            f"{shown} can be written by other users (mode {info.permissions:04o}), so "
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
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(paths.fs.lock(paths.lock_file))
        except OSError as error:
            raise _lock_error(paths, error) from None
        yield


def _lock_error(paths: Paths, error: OSError) -> DotdbgError:
    shown = paths.display(paths.lock_file)
    if error.strerror == NOT_PLAIN:
        return DotdbgError(
            f"the lock file {shown} is not a plain file",
            hint=f"remove it (rm {shown}) and run it again",
        )
    why = "it is a symlink" if error.errno == errno.ELOOP else error.strerror
    return DotdbgError(
        f"cannot open the lock file {shown}: {why}",
        hint=f"it must be a plain file of dotdbg's: remove it (rm {shown}) and run it again",
    )
