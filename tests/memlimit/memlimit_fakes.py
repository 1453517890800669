"""memlimit test helpers: the installed console script, the real cgroup, a fake cgroup tree."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from dotdbg.memlimit.backends.cgroupdir import PREFIX
from dotdbg.memlimit.cgroupfs import CgroupFS, under_mount

MEMLIMIT = Path(sys.executable).with_name("memlimit")
DOTDBG = Path(sys.executable).with_name("dotdbg")
UNLIMITED_V1 = str(2**63 - 4096)
# What a limited run does without (issue 27: its target is a cgroup written by hand + 15 ms):
# shutil imports bz2 and lzma; typing (its NamedTuple and Protocol), pathlib, re, the enums of
# the signal module, contextlib and dataclasses bring collections and functools, 1-6 ms each.
NOT_IMPORTED_BY_A_LIMITED_RUN = frozenset(
    {"shutil", "bz2", "lzma", "tempfile", "typing", "pathlib", "re", "enum", "signal"}
    | {"collections", "contextlib", "functools", "dataclasses", "importlib", "math", "shlex"}
    | {"dotdbg.procs.procfs", "dotdbg.common.child"}
)


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """The installed ``memlimit`` console script, as a user runs it."""
    return subprocess.run([str(MEMLIMIT), *args], capture_output=True, text=True, timeout=60)


def own_v1_dir() -> str:
    """This process's cgroup v1 memory directory (memlimit makes its cgroups in there)."""
    fs = CgroupFS()
    mount = next(m for m in fs.mounts() if m.fstype == "cgroup" and "memory" in m.options)
    return under_mount(mount, fs.memberships()["memory"])


def memlimit_cgroups() -> list[str]:
    """The memlimit cgroups that exist below this process's memory cgroup."""
    return sorted(p.name for p in Path(own_v1_dir()).iterdir() if p.name.startswith(PREFIX))


# A fake kernel: a tmp dir laid out like /proc and /sys/fs/cgroup.

V1_FILES = {
    "memory.limit_in_bytes": UNLIMITED_V1,
    "memory.memsw.limit_in_bytes": UNLIMITED_V1,
    "memory.soft_limit_in_bytes": UNLIMITED_V1,
    "memory.swappiness": "60",
    "memory.max_usage_in_bytes": "0",
    "memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n",
    "cgroup.procs": "",
}
V2_FILES = {
    "memory.max": "max",
    "memory.swap.max": "max",
    "memory.high": "max",
    "memory.peak": "0",
    "memory.events": "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n",
    "cgroup.procs": "",
    "cgroup.controllers": "memory",
    "cgroup.subtree_control": "",
}
V1_MOUNT = "/sys/fs/cgroup/memory"
V2_MOUNT = "/sys/fs/cgroup/unified"


class FakeKernelFS(CgroupFS):
    """Control files appear on mkdir, v1 refuses memsw < limit, and ``ignore`` names files
    whose writes are accepted and then dropped, like a manager that silently ignores a limit."""

    def __init__(self, root: Path, ignore: frozenset[str] = frozenset()) -> None:
        super().__init__(root)
        self.ignore = ignore
        self.written: list[tuple[str, str]] = []

    def mkdir(self, path: str) -> None:
        super().mkdir(path)
        files = V2_FILES if path.startswith(V2_MOUNT) else V1_FILES
        memsw = os.path.join(os.path.dirname(path), "memory.memsw.limit_in_bytes")
        if files is V1_FILES and not self.exists(memsw):
            files = {k: v for k, v in files.items() if "memsw" not in k}
        for name, text in files.items():
            Path(self.at(path), name).write_text(text)

    def rmdir(self, path: str) -> None:
        if self.pids(path):
            raise OSError(errno.EBUSY, "Device or resource busy")
        for control in Path(self.at(path)).iterdir():
            control.unlink()  # a real cgroup's control files go with it
        super().rmdir(path)

    def write(self, path: str, text: str) -> None:
        name = os.path.basename(path)
        self.written.append((name, text))
        if name in self.ignore:
            return
        if name in ("memory.limit_in_bytes", "memory.memsw.limit_in_bytes"):
            self._check_v1_order(path, int(text))
        super().write(path, text)

    def _check_v1_order(self, path: str, value: int) -> None:
        directory, name = os.path.split(path)
        limit = self.read_int(os.path.join(directory, "memory.limit_in_bytes")) or 0
        memsw = self.read_int(os.path.join(directory, "memory.memsw.limit_in_bytes"))
        if memsw is None:
            return
        if name == "memory.limit_in_bytes" and value > memsw:
            raise OSError(errno.EINVAL, "Invalid argument")
        if name == "memory.memsw.limit_in_bytes" and value < limit:
            raise OSError(errno.EINVAL, "Invalid argument")

    def made(self) -> list[str]:
        """memlimit cgroups that exist anywhere in the fake tree."""
        return sorted(str(p) for p in Path(self.root).rglob(f"{PREFIX}*"))


@dataclass
class FakeTree:
    """Builds a fake machine under ``root``; each part can be switched off or changed."""

    root: Path
    own: str = "/user/me"

    def write(self, path: str, text: str) -> None:
        target = self.root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def proc(self, v1: bool = True, v2: bool = True, swap: bool = False) -> None:
        mounts = ["31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755"]
        memberships = []
        if v1:
            mounts.append(f"35 31 0:32 / {V1_MOUNT} rw,relatime - cgroup cgroup rw,memory")
            memberships.append(f"4:memory:{self.own}")
        if v2:
            mounts.append(f"41 31 0:38 / {V2_MOUNT} rw,relatime - cgroup2 cgroup2 rw")
            memberships.append(f"0::{self.own}")
        self.write("/proc/self/mountinfo", "\n".join(mounts) + "\n")
        self.write("/proc/self/cgroup", "\n".join(memberships) + "\n")
        header = "Filename\tType\tSize\tUsed\tPriority\n"
        self.write("/proc/swaps", header + ("/swapfile file 1024 0 -2\n" if swap else ""))

    def v1(self, memsw: bool = True) -> None:
        for name, text in V1_FILES.items():
            if memsw or "memsw" not in name:
                self.write(f"{V1_MOUNT}{self.own}/{name}", text)

    def v2(
        self, own_subtree: str = "", parent_subtree: str = "memory", controllers: str = "memory"
    ) -> None:
        parent = os.path.dirname(self.own)
        self.write(f"{V2_MOUNT}{parent}/cgroup.subtree_control", parent_subtree)
        self.write(f"{V2_MOUNT}{parent}/cgroup.controllers", controllers)
        self.write(f"{V2_MOUNT}{self.own}/cgroup.subtree_control", own_subtree)
        self.write(f"{V2_MOUNT}{self.own}/cgroup.controllers", controllers)
        self.write(f"{V2_MOUNT}{self.own}/cgroup.procs", f"{os.getpid()}\n")

    def fs(self, ignore: frozenset[str] = frozenset()) -> FakeKernelFS:
        return FakeKernelFS(root=self.root, ignore=ignore)
