"""The seam between memlimit and the kernel's cgroup files.

Everything memlimit reads or writes under /proc and /sys/fs/cgroup goes through ``CgroupFS``.
Its ``root`` re-roots those absolute paths, so tests lay out a tmp dir like a cgroup tree (and
subclass it to act like a kernel that rejects or silently ignores a write).

Paths are plain strings joined with ``os.path``: pathlib (with fnmatch, urllib.parse and
ipaddress behind it) cost every memlimit run 4-5 ms of imports (issue 27).
"""

from __future__ import annotations

import os
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

PROCS = "cgroup.procs"


class Mount:
    """One cgroup hierarchy: where it is mounted and which part of it the mount shows.

    A plain class, not a NamedTuple or a dataclass: importing typing costs a memlimit run
    about 10 ms (with collections, re and functools behind it; issue 27)."""

    __slots__ = ("fstype", "options", "point", "root")

    def __init__(self, point: str, root: str, fstype: str, options: frozenset[str]) -> None:
        self.point, self.root, self.fstype, self.options = point, root, fstype, options

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mount):
            return NotImplemented
        return (self.point, self.root, self.fstype, self.options) == (
            other.point,
            other.root,
            other.fstype,
            other.options,
        )

    def __hash__(self) -> int:
        return hash((self.point, self.root, self.fstype))

    def __repr__(self) -> str:
        return f"Mount({self.point!r}, {self.root!r}, {self.fstype!r}, {set(self.options)!r})"


def parse_mountinfo(text: str) -> list[Mount]:
    """The cgroup and cgroup2 mounts in /proc/self/mountinfo (see proc(5))."""
    mounts = []
    for line in text.splitlines():
        fields, _, tail = line.partition(" - ")
        before, after = fields.split(), tail.split()
        if len(before) >= 5 and len(after) >= 3 and after[0] in ("cgroup", "cgroup2"):
            options = frozenset(after[2].split(","))
            mounts.append(Mount(before[4], before[3], after[0], options))
    return mounts


def parse_proc_cgroup(text: str) -> dict[str, str]:
    """/proc/PID/cgroup as controller → path; the cgroup v2 entry has the key ``""``."""
    memberships = {}
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            memberships[controller] = path
    return memberships


def is_within(path: str, folder: str) -> bool:
    """``path`` is ``folder`` or below it (both absolute and normalised)."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def under_mount(mount: Mount, cgroup: str) -> str:
    """Directory of ``cgroup`` (a path in the hierarchy) inside ``mount``."""
    relative = cgroup[len(mount.root) :] if is_within(cgroup, mount.root) else cgroup
    relative = relative.strip("/")
    return os.path.join(mount.point, relative) if relative else mount.point


def parents(path: str) -> list[str]:
    """The folders above ``path``, nearest first, ``/`` last (as PurePosixPath.parents)."""
    found = []
    while path != "/":
        path = os.path.dirname(path)
        found.append(path)
    return found


class CgroupFS:
    """Kernel files as seen from ``root`` (``/`` for real; a tmp dir in tests)."""

    def __init__(self, root: str | os.PathLike[str] = "/") -> None:
        self.root = os.fspath(root)
        self._mounts: list[Mount] | None = None

    def at(self, path: str) -> str:
        return os.path.join(self.root, path.lstrip("/"))

    def read(self, path: str) -> str:
        with open(self.at(path)) as handle:
            return handle.read()

    def write(self, path: str, text: str) -> None:
        # One write(2) per value: cgroup files act on each write call, not on the file's content.
        with open(self.at(path), "w") as handle:
            handle.write(text)

    def exists(self, path: str) -> bool:
        return os.path.exists(self.at(path))

    def writable(self, path: str) -> bool:
        return os.access(self.at(path), os.W_OK)

    def mkdir(self, path: str) -> None:
        os.mkdir(self.at(path))

    def rmdir(self, path: str) -> None:
        os.rmdir(self.at(path))

    def children(self, path: str) -> list[str]:
        """Names of the child cgroups of ``path`` (none if it cannot be listed)."""
        # scandir's is_dir() reads the type getdents returns: no stat of each control file
        try:
            with os.scandir(self.at(path)) as entries:
                return sorted(entry.name for entry in entries if entry.is_dir())
        except OSError:
            return []

    def mounts(self) -> list[Mount]:
        """The cgroup hierarchies, read once: each backend's probe and arm ask for them."""
        if self._mounts is None:
            self._mounts = parse_mountinfo(self.read("/proc/self/mountinfo"))
        return self._mounts

    def memberships(self, pid: int | str = "self") -> dict[str, str]:
        return parse_proc_cgroup(self.read(f"/proc/{pid}/cgroup"))

    def pids(self, cgroup_dir: str) -> list[int]:
        try:
            return [int(word) for word in self.read(os.path.join(cgroup_dir, PROCS)).split()]
        except FileNotFoundError:
            return []

    def read_int(self, path: str) -> int | None:
        """An integer control file; ``max`` (cgroup v2's "no limit") and absence give None."""
        try:
            text = self.read(path).strip()
        except FileNotFoundError:
            return None
        return None if text == "max" else int(text)

    def read_keyed(self, path: str) -> dict[str, int]:
        """A flat keyed file such as memory.events or memory.oom_control."""
        try:
            lines = self.read(path).splitlines()
        except OSError:
            return {}
        return {key: int(value) for key, _, value in (line.partition(" ") for line in lines)}


def swap_active(fs: CgroupFS) -> bool:
    """Whether any swap area is on (/proc/swaps lists more than its header)."""
    try:
        return len(fs.read("/proc/swaps").splitlines()) > 1
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
