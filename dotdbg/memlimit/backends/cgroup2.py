"""cgroup v2: a leaf cgroup in a subtree where the memory controller is enabled for children.

The no-internal-process rule: a non-root cgroup with controllers enabled for its children may
hold no processes itself. memlimit never enables a controller (that would need moving other
people's processes out first); it only creates a leaf where memory is already enabled: below
its own cgroup (possible only at the root) or beside it, in a writable (delegated) parent.
"""

from __future__ import annotations

import os

from dotdbg.memlimit.backends.base import BackendUnavailable
from dotdbg.memlimit.backends.cgroupdir import V2, CgroupBackend, verify_limit, write_limit
from dotdbg.memlimit.cgroupfs import Mount, swap_active, under_mount

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.memlimit.limits import Limits


class Cgroup2Backend(CgroupBackend):
    name = "cgroup2"
    kind = V2
    limit_file = "memory.max"

    def _works(self, parent: str) -> str:
        return f"memory controller enabled below {parent}"

    def _parent(self) -> tuple[Mount, str]:
        mount = next((m for m in self.fs.mounts() if m.fstype == "cgroup2"), None)
        if mount is None:
            raise BackendUnavailable("no cgroup v2 hierarchy is mounted")
        own = self.fs.memberships().get("")
        if own is None:
            raise BackendUnavailable("this process has no cgroup v2 membership")
        own_dir = under_mount(mount, own)
        if "memory" in self._words(os.path.join(own_dir, "cgroup.subtree_control")):
            return mount, own_dir
        beside = os.path.dirname(own_dir)
        beside_enabled = "memory" in self._words(os.path.join(beside, "cgroup.subtree_control"))
        if own_dir != mount.point and beside_enabled and self.fs.writable(beside):
            return mount, beside
        raise BackendUnavailable(self._why_not(own_dir))

    def _why_not(self, own_dir: str) -> str:
        available = self._words(os.path.join(own_dir, "cgroup.controllers"))
        if "memory" not in available:
            shown = " ".join(sorted(available)) or "none"
            return f"no memory controller in cgroup v2 at {own_dir} (available: {shown})"
        return (
            f"memory is not enabled below {own_dir}, and it holds processes "
            "(no-internal-process rule); run memlimit from a delegated cgroup"
        )

    def _words(self, path: str) -> set[str]:
        try:
            return set(self.fs.read(path).split())
        except OSError:
            return set()

    def _apply(self, directory: str, limits: Limits) -> list[str]:
        notes = []
        write_limit(self.fs, directory, "memory.max", limits.ram)
        verify_limit(self.fs, directory, "memory.max", limits.ram)
        if self.fs.exists(os.path.join(directory, "memory.swap.max")):
            write_limit(self.fs, directory, "memory.swap.max", limits.swap)
            verify_limit(self.fs, directory, "memory.swap.max", limits.swap)
        elif swap_active(self.fs):
            notes.append("no memory.swap.max (swap accounting off): swap use is not limited")
        if limits.high is not None:
            write_limit(self.fs, directory, "memory.high", limits.high)
            verify_limit(self.fs, directory, "memory.high", limits.high)
        return notes
