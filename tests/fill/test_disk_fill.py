"""disk-fill on a real 64 MiB tmpfs mounted for each test: the space left, the nameless file,
the space coming back after kill -9, and the fallbacks (no O_TMPFILE, fallocate reserving nothing).
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dotdbg.common.sizes import format_size
from dotdbg.errors import DotdbgError
from dotdbg.fill import disk as disk_fill
from tests.fill.fill_support import Running, script

MiB = 2**20
SIZE = 64 * MiB


def available(path: Path) -> int:
    return disk_fill.space_of(str(path)).available


def tolerance(path: Path) -> int:
    return disk_fill.TOLERANCE_BLOCKS * disk_fill.space_of(str(path)).block_size


def test_leaves_what_was_asked_and_gives_it_back(filesystem: Path, start: type[Running]) -> None:
    before = available(filesystem)
    filler = start([script("disk-fill"), "--leave", "8M", str(filesystem)])
    filler.wait_for("holding")
    left = available(filesystem)
    print(f"disk-fill --leave 8M on {filesystem.name}: {left} bytes left ({left - 8 * MiB:+d})")
    assert abs(left - 8 * MiB) <= tolerance(filesystem)
    assert [path.name for path in filesystem.iterdir()] in ([], ["lost+found"])  # no name
    filler.process.send_signal(signal.SIGTERM)
    assert filler.finish() == 143
    assert available(filesystem) == before
    assert filler.lines[-1].startswith(f"disk-fill: released; {format_size(before)} available")


def test_the_space_returns_after_kill_9(filesystem: Path, start: type[Running]) -> None:
    before = available(filesystem)
    filler = start([script("disk-fill"), "--leave", "1M", str(filesystem)])
    filler.wait_for("holding")
    assert available(filesystem) <= 1 * MiB + tolerance(filesystem)
    filler.process.kill()
    filler.process.wait()
    assert available(filesystem) == before


def test_sizes_come_from_f_bavail_not_f_bfree(ext4: Path) -> None:
    """ext4 keeps 5% for root, which an unprivileged target cannot use: it is not 'available'."""
    stats = os.statvfs(ext4)
    bavail, bfree = stats.f_bavail * stats.f_frsize, stats.f_bfree * stats.f_frsize
    assert bfree - bavail > 2 * MiB
    argv = [script("disk-fill"), "--leave", "4M", str(ext4), "--hold", "0"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"{ext4}: {format_size(bavail)} available before, 4.00M now" in done.stderr


@pytest.mark.skipif(shutil.which("lsof") is None, reason="lsof is not installed")
def test_lsof_shows_the_invisible_file_as_the_message_says(
    tmpfs: Path, start: type[Running]
) -> None:
    filler = start([script("disk-fill"), "--leave", "16M", str(tmpfs), "--hold", "60"])
    command = filler.wait_for(r"see it with: (lsof \+L1 -p \d+)")[1]
    listing = subprocess.run(command.split(), capture_output=True, text=True).stdout
    assert str(tmpfs) in listing
    assert "deleted" in listing


def test_holds_for_the_given_seconds_then_releases(tmpfs: Path) -> None:
    argv = [script("disk-fill"), "--leave", "32M", str(tmpfs), "--hold", "0.2"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "32.00M now (asked 32.00M, off by +0 bytes)" in done.stderr
    assert available(tmpfs) == SIZE


def test_tmpdir_is_the_default_path(tmpfs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmpfs))
    done = subprocess.run(
        [script("disk-fill"), "--leave", "60M", "--hold", "0"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert f"{tmpfs}: 64.00M available before, 60.00M now" in done.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--leave", "100M", "{tmpfs}"], "has 64.00M available, not more than --leave 100.00M"),
        (["--leave", "1G", "{tmpfs}/absent"], "is not a directory"),
        (["--leave", "1X", "{tmpfs}"], "--leave '1X' is not a size"),
        (["{tmpfs}"], "say how much space to leave"),
        (["--leave", "1M", "{tmpfs}", "{tmpfs}"], "disk-fill fills one PATH, not 2"),
        (["--tmpfs", "8M"], "--tmpfs needs a command"),
        (["--tmpfs", "0", "--", "true"], "--tmpfs 0 would mean an unlimited tmpfs"),
        (["--tmpfs", "8M", "--leave", "1M", "--", "true"], "--tmpfs runs a command"),
    ],
)
def test_bad_requests_fail_in_one_line_and_fill_nothing(
    tmpfs: Path, argv: list[str], message: str
) -> None:
    args = [arg.format(tmpfs=tmpfs) for arg in argv]
    done = subprocess.run([script("disk-fill"), *args], capture_output=True, text=True)
    assert done.returncode == 2
    first_line = done.stderr.splitlines()[0]
    assert first_line.startswith("disk-fill: error: ")
    assert message in first_line
    assert "Traceback" not in done.stderr
    assert available(tmpfs) == SIZE


def test_a_filesystem_it_cannot_write_to_is_one_error_line(tmpfs: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(tmpfs)], check=True)
    done = subprocess.run(
        [script("disk-fill"), "--leave", "1M", str(tmpfs)], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"disk-fill: error: cannot create a file in {tmpfs}: Read-only file system",
        "hint: give a directory you can write to on the filesystem to fill",
    ]


def test_without_o_tmpfile_the_file_is_unlinked_at_once(
    tmpfs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_open = os.open

    def open_without_o_tmpfile(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & os.O_TMPFILE == os.O_TMPFILE:
            raise OSError(errno.EOPNOTSUPP, "Operation not supported")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_without_o_tmpfile)
    fd, how = disk_fill.open_nameless(str(tmpfs))
    try:
        assert how == "a file unlinked right after creation"
        assert list(tmpfs.iterdir()) == []
        fill_file = disk_fill.FillFile(fd, str(tmpfs))
        assert abs(disk_fill.settle(fill_file, 10 * MiB)) <= tolerance(tmpfs)
        assert not fill_file.wrote_data
    finally:
        os.close(fd)
    assert available(tmpfs) == SIZE


def test_where_fallocate_reserves_nothing_random_bytes_are_written(
    tmpfs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on ZFS or compressed btrfs: fallocate 'succeeds' and f_bavail does not move."""
    monkeypatch.setattr(os, "posix_fallocate", lambda fd, offset, length: None)
    fd, _ = disk_fill.open_nameless(str(tmpfs))
    try:
        fill_file = disk_fill.FillFile(fd, str(tmpfs))
        gap = disk_fill.settle(fill_file, 20 * MiB)
        assert fill_file.wrote_data
        assert abs(gap) <= tolerance(tmpfs)
        assert abs(available(tmpfs) - 20 * MiB) <= tolerance(tmpfs)
        assert os.pread(fd, 4096, 0) != os.pread(fd, 4096, MiB)
    finally:
        os.close(fd)


def test_a_file_that_took_too_much_is_shrunk_back(tmpfs: Path) -> None:
    fd, _ = disk_fill.open_nameless(str(tmpfs))
    try:
        fill_file = disk_fill.FillFile(fd, str(tmpfs))
        fill_file.grow(60 * MiB)
        assert available(tmpfs) == 4 * MiB
        assert disk_fill.settle(fill_file, 16 * MiB) == 0
        assert available(tmpfs) == 16 * MiB
    finally:
        os.close(fd)


def test_request_parsing_keeps_the_two_modes_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", "/scratch")
    assert disk_fill.parse_request("1G", None, [], 5.0) == disk_fill.DiskFillRequest(
        "/scratch", 2**30, 5.0
    )
    monkeypatch.delenv("TMPDIR")
    assert disk_fill.parse_request("1G", None, [], None).path == "/tmp"
    tmpfs_mode = disk_fill.parse_request(None, "8M", ["df", "-h", "/tmp"], None)
    assert (tmpfs_mode.tmpfs, tmpfs_mode.command) == (8 * MiB, ("df", "-h", "/tmp"))
    with pytest.raises(DotdbgError, match="pick one"):
        disk_fill.parse_request(None, "8M", ["true"], 1.0)
