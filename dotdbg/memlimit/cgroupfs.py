"""The seam between memlimit and the kernel's cgroup files.

Everything memlimit reads or writes under /proc and /sys/fs/cgroup goes through ``CgroupFS``.
Its ``root`` re-roots those absolute paths, so tests lay out a tmp dir like a cgroup tree (and
subclass it to act like a kernel that rejects or silently ignores a write).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import NamedTuple

PROCS = "cgroup.procs"


class Mount(NamedTuple):
    """One cgroup hierarchy: where it is mounted and which part of it the mount shows."""

    point: PurePosixPath
    root: PurePosixPath
    fstype: str
    options: frozenset[str]


def parse_mountinfo(text: str) -> list[Mount]:
    """The cgroup and cgroup2 mounts in /proc/self/mountinfo (see proc(5))."""
    mounts = []
    for line in text.splitlines():
        fields, _, tail = line.partition(" - ")
        before, after = fields.split(), tail.split()
        if len(before) >= 5 and len(after) >= 3 and after[0] in ("cgroup", "cgroup2"):
            options = frozenset(after[2].split(","))
            mounts.append(
                Mount(PurePosixPath(before[4]), PurePosixPath(before[3]), after[0], options)
            )
    return mounts


def parse_proc_cgroup(text: str) -> dict[str, PurePosixPath]:
    """/proc/PID/cgroup as controller → path; the cgroup v2 entry has the key ``""``."""
    memberships = {}
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            memberships[controller] = PurePosixPath(path)
    return memberships


def under_mount(mount: Mount, cgroup: PurePosixPath) -> PurePosixPath:
    """Directory of ``cgroup`` (a path in the hierarchy) inside ``mount``."""
    relative = cgroup.relative_to(mount.root) if cgroup.is_relative_to(mount.root) else cgroup
    return mount.point / str(relative).lstrip("/")


class CgroupFS:
    """Kernel files as seen from ``root`` (``/`` for real; a tmp dir in tests)."""

    def __init__(self, root: Path = Path("/")) -> None:
        self.root = root

    def at(self, path: PurePosixPath) -> Path:
        return self.root / str(path).lstrip("/")

    def read(self, path: PurePosixPath) -> str:
        return self.at(path).read_text()

    def write(self, path: PurePosixPath, text: str) -> None:
        # One write(2) per value: cgroup files act on each write call, not on the file's content.
        with open(self.at(path), "w") as handle:
            handle.write(text)

    def exists(self, path: PurePosixPath) -> bool:
        return self.at(path).exists()

    def writable(self, path: PurePosixPath) -> bool:
        return os.access(self.at(path), os.W_OK)

    def mkdir(self, path: PurePosixPath) -> None:
        self.at(path).mkdir()

    def rmdir(self, path: PurePosixPath) -> None:
        self.at(path).rmdir()

    def children(self, path: PurePosixPath) -> list[str]:
        """Names of the child cgroups of ``path`` (none if it cannot be listed)."""
        try:
            return sorted(entry.name for entry in self.at(path).iterdir() if entry.is_dir())
        except OSError:
            return []

    def mounts(self) -> list[Mount]:
        return parse_mountinfo(self.read(PurePosixPath("/proc/self/mountinfo")))

    def memberships(self, pid: int | str = "self") -> dict[str, PurePosixPath]:
        return parse_proc_cgroup(self.read(PurePosixPath(f"/proc/{pid}/cgroup")))

    def pids(self, cgroup_dir: PurePosixPath) -> list[int]:
        try:
            return [int(word) for word in self.read(cgroup_dir / PROCS).split()]
        except FileNotFoundError:
            return []

    def read_int(self, path: PurePosixPath) -> int | None:
        """An integer control file; ``max`` (cgroup v2's "no limit") and absence give None."""
        try:
            text = self.read(path).strip()
        except FileNotFoundError:
            return None
        return None if text == "max" else int(text)

    def read_keyed(self, path: PurePosixPath) -> dict[str, int]:
        """A flat keyed file such as memory.events or memory.oom_control."""
        try:
            lines = self.read(path).splitlines()
        except OSError:
            return {}
        return {key: int(value) for key, _, value in (line.partition(" ") for line in lines)}


def swap_active(fs: CgroupFS) -> bool:
    """Whether any swap area is on (/proc/swaps lists more than its header)."""
    try:
        return len(fs.read(PurePosixPath("/proc/swaps")).splitlines()) > 1
    except FileNotFoundError:
        return False


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.01) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)
    return True
