"""disk-fill: leave exactly the asked space free on a filesystem, with a file that has no name.

The file is opened with ``O_TMPFILE`` (or created and unlinked at once where that is not
supported), so only this process's descriptor keeps it: the space comes back when the process
ends, even after ``kill -9``. ``fallocate`` reserves the blocks instantly; statvfs is read again
after each move, and where fallocate reserved nothing (ZFS, compressed btrfs) random bytes are
written instead. Sizes come from ``f_bavail``, the space an unprivileged process may use.
"""

from __future__ import annotations

import errno
import os
import time

from dotdbg.common import holding
from dotdbg.common.output import Report, reporter
from dotdbg.common.sizes import format_size, parse_size
from dotdbg.errors import DotdbgError
from dotdbg.fill.noise import Noise

MAX_ADJUSTMENTS = 8
TOLERANCE_BLOCKS = 4  # metadata (extent trees, indirect blocks) moves the last few blocks
RESERVED_SHARE = 0.5  # fallocate "worked" if at least this share of the request left f_bavail


say = reporter("disk-fill")


# Plain classes, not dataclasses: importing dataclasses (and inspect) is a good part of
# disk-fill's fixed cost (issue 27), and these need nothing it gives.
class Space:
    __slots__ = ("available", "block_size")

    def __init__(self, available: int, block_size: int) -> None:
        self.available = available
        self.block_size = block_size


def space_of(path: str) -> Space:
    stats = os.statvfs(path)
    return Space(stats.f_bavail * stats.f_frsize, stats.f_frsize)


def default_path() -> str:
    return os.environ.get("TMPDIR") or "/tmp"


def open_nameless(directory: str) -> tuple[int, str]:
    """A read-write descriptor to a file without a name in ``directory``, and how it was made."""
    try:
        return os.open(directory, os.O_TMPFILE | os.O_RDWR | os.O_CLOEXEC, 0o600), "O_TMPFILE"
    except OSError as error:
        if error.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
            raise
    import tempfile  # only here: it imports shutil and random, a good part of the start-up

    fd, name = tempfile.mkstemp(prefix=".disk-fill-", dir=directory)
    os.unlink(name)
    return fd, "a file unlinked right after creation"


class FillFile:
    __slots__ = ("directory", "fd", "size", "wrote_data")

    def __init__(self, fd: int, directory: str) -> None:
        self.fd = fd
        self.directory = directory
        self.size = 0
        self.wrote_data = False

    def grow(self, amount: int) -> None:
        """Reserve ``amount`` more bytes; write random bytes if fallocate reserved nothing."""
        before = space_of(self.directory).available
        try:
            os.posix_fallocate(self.fd, self.size, amount)
        except OSError as error:  # a partial reservation still counts; no support: write
            if error.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EOPNOTSUPP, errno.EINVAL):
                raise
        self.size = os.fstat(self.fd).st_size
        reserved = before - space_of(self.directory).available
        if reserved < RESERVED_SHARE * amount:
            self._write_noise(amount - max(0, reserved))

    def shrink(self, amount: int) -> None:
        self.size = max(0, self.size - amount)
        os.ftruncate(self.fd, self.size)

    def _write_noise(self, amount: int) -> None:
        self.wrote_data = True
        try:
            for offset, chunk in Noise().chunks(amount, start=self.size):
                os.pwrite(self.fd, chunk, offset)
                self.size = offset + len(chunk)
        except OSError as error:
            if error.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
        os.fsync(self.fd)


def settle(fill_file: FillFile, leave: int) -> int:
    """Grow or shrink until ``leave`` bytes are available (within a few blocks); the final gap."""
    gap = space_of(fill_file.directory).available - leave
    for _ in range(MAX_ADJUSTMENTS):
        tolerance = TOLERANCE_BLOCKS * space_of(fill_file.directory).block_size
        if abs(gap) <= tolerance:
            break
        if gap > 0:
            fill_file.grow(gap)
        else:
            fill_file.shrink(min(-gap, fill_file.size))
        gap = space_of(fill_file.directory).available - leave
    return gap


def check_room(path: str, available: int, leave: int) -> None:
    if available <= leave:
        raise DotdbgError(
            f"{path} has {format_size(available)} available, not more than --leave "
            f"{format_size(leave)}: nothing to fill",
        )


def check_directory(path: str) -> None:
    if not os.path.isdir(path):
        raise DotdbgError(f"{path} is not a directory", hint="give a directory on the filesystem")


def run_disk_fill(path: str, leave: int, hold_seconds: float | None, report: Report = say) -> int:
    check_directory(path)
    before = space_of(path).available
    check_room(path, before, leave)
    try:
        fd, how = open_nameless(path)
    except OSError as error:
        raise DotdbgError(
            f"cannot create a file in {path}: {error.strerror}",
            hint="give a directory you can write to on the filesystem to fill",
        ) from error
    try:
        started = time.monotonic()
        fill_file = FillFile(fd, path)
        gap = settle(fill_file, leave)
        report(_result_line(path, before, leave, gap, fill_file, time.monotonic() - started))
        report(_nameless_line(how))
        holding.hold_announced(hold_seconds, f"{format_size(fill_file.size)}", report)
        return 0
    finally:
        os.close(fd)
        report(f"released; {format_size(space_of(path).available)} available on {path}")


def _result_line(
    path: str, before: int, leave: int, gap: int, fill_file: FillFile, seconds: float
) -> str:
    how = "written with random bytes" if fill_file.wrote_data else "reserved with fallocate"
    return (
        f"{path}: {format_size(before)} available before, {format_size(leave + gap)} now "
        f"(asked {format_size(leave)}, off by {gap:+d} bytes); took {format_size(fill_file.size)} "
        f"{how} in {seconds:.2f}s"
    )


def _nameless_line(how: str) -> str:
    pid = os.getpid()
    return (
        f"pid {pid} holds it in {how}: no name, so the space returns when the process ends, "
        f"even after kill -9; see it with: lsof +L1 -p {pid}"
    )


class DiskFillRequest:
    __slots__ = ("command", "hold_seconds", "leave", "path", "tmpfs")

    def __init__(
        self,
        path: str = "",
        leave: int = 0,
        hold_seconds: float | None = None,
        tmpfs: int | None = None,  # the --tmpfs mode: run ``command`` over a private tmpfs this big
        command: tuple[str, ...] = (),
    ) -> None:
        self.path, self.leave, self.hold_seconds = path, leave, hold_seconds
        self.tmpfs, self.command = tmpfs, command

    def _fields(self) -> tuple[object, ...]:
        return (self.path, self.leave, self.hold_seconds, self.tmpfs, self.command)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiskFillRequest) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"DiskFillRequest{self._fields()!r}"


def parse_request(
    leave: str | None, tmpfs: str | None, args: list[str], hold_seconds: float | None
) -> DiskFillRequest:
    """The command line's two modes: fill PATH, or run CMD with a small private /tmp."""
    if tmpfs is not None:
        return _tmpfs_request(tmpfs, args, leave is not None or hold_seconds is not None)
    if leave is None:
        raise DotdbgError("say how much space to leave", hint="disk-fill --leave 1G [PATH]")
    if len(args) > 1:
        raise DotdbgError(
            f"disk-fill fills one PATH, not {len(args)}",
            hint="to run a command with a small /tmp: disk-fill --tmpfs 64M -- CMD ARGS...",
        )
    path = args[0] if args else default_path()
    return DiskFillRequest(path, parse_size(leave, "--leave"), hold_seconds)


def _tmpfs_request(size_text: str, command: list[str], fill_options: bool) -> DiskFillRequest:
    if fill_options:
        raise DotdbgError("--tmpfs runs a command; --leave and --hold fill a filesystem: pick one")
    if not command:
        raise DotdbgError("--tmpfs needs a command", hint="disk-fill --tmpfs 64M -- CMD ARGS...")
    size = parse_size(size_text, "--tmpfs")
    if size == 0:
        raise DotdbgError("--tmpfs 0 would mean an unlimited tmpfs", hint="give a size: 64M")
    return DiskFillRequest(tmpfs=size, command=tuple(command))


def run_request(request: DiskFillRequest, report: Report = say) -> int:
    if request.tmpfs is not None:
        from dotdbg.fill import private_tmp  # ctypes and subprocess: --tmpfs alone needs them

        return private_tmp.run_private_tmp(request.tmpfs, list(request.command), report)
    return run_disk_fill(request.path, request.leave, request.hold_seconds, report)
