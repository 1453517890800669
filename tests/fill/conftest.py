"""Real resources for the fill tests: a tmpfs, a cgroup v1 memory cgroup, running fillers."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fill.fill_support import Running
from tests.sysprogs import require_program

CGROUP_V1_MEMORY = Path("/sys/fs/cgroup/memory")


@pytest.fixture
def start() -> Iterator[type[Running]]:
    started: list[Running] = []

    class Tracked(Running):
        def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
            super().__init__(argv, env)
            started.append(self)

    yield Tracked
    for running in started:
        running.stop()


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 MiB tmpfs mounted for this test only."""
    mount_point = tmp_path / "tmpfs"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=True)


@pytest.fixture
def ext4(tmp_path: Path) -> Iterator[Path]:
    """A 64 MiB ext4 image on a loop device (1 KiB blocks, 5% reserved for root)."""
    image, mount_point = tmp_path / "ext4.img", tmp_path / "ext4"
    mount_point.mkdir()
    with image.open("wb") as sparse:
        sparse.truncate(64 * 2**20)
    mkfs = require_program("mkfs.ext4", "e2fsprogs")
    made = subprocess.run([mkfs, "-q", "-F", str(image)], capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot make an ext4 image: {made.stderr.strip()}")
    argv = ["mount", "-o", "loop", str(image), str(mount_point)]
    mounted = subprocess.run(argv, capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot loop-mount an ext4 image here: {mounted.stderr.strip()}")
    yield mount_point
    subprocess.run(["umount", str(mount_point)], check=True)


@pytest.fixture(params=["tmpfs", "ext4"])
def filesystem(request: pytest.FixtureRequest) -> Path:
    path: Path = request.getfixturevalue(request.param)
    return path


@pytest.fixture
def memory_cgroup() -> Iterator[Path]:
    """A fresh cgroup v1 memory cgroup limited to 300 MiB, without swap; always removed."""
    if not os.access(CGROUP_V1_MEMORY, os.W_OK):
        pytest.skip(f"cgroup v1 memory controller not writable at {CGROUP_V1_MEMORY}")
    group = CGROUP_V1_MEMORY / f"dotdbg-test-fill-{uuid.uuid4().hex[:8]}"
    group.mkdir()
    try:
        (group / "memory.limit_in_bytes").write_text(str(300 * 2**20))
        with contextlib.suppress(OSError):  # absent without swap accounting
            (group / "memory.memsw.limit_in_bytes").write_text(str(300 * 2**20))
        (group / "memory.swappiness").write_text("0")
        yield group
    finally:
        _empty_and_remove(group)


def _empty_and_remove(group: Path) -> None:
    deadline = time.monotonic() + 10
    while (pids := (group / "cgroup.procs").read_text().split()) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.05)
    group.rmdir()
