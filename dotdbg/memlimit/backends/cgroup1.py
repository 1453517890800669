"""cgroup v1 memory controller: a child of our own memory cgroup (root, or a delegated one)."""

from __future__ import annotations

import os

from dotdbg.common.sizes import short_size
from dotdbg.memlimit.backends.base import BackendUnavailable
from dotdbg.memlimit.backends.cgroupdir import V1, CgroupBackend, verify_limit, write_limit
from dotdbg.memlimit.cgroupfs import Mount, swap_active, under_mount
from dotdbg.memlimit.limits import v1_write_order

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.memlimit.limits import Limits

LIMIT = "memory.limit_in_bytes"
MEMSW = "memory.memsw.limit_in_bytes"
HIGH_NOTE = (
    "cgroup v1 has no memory.high; --high {size} became memory.soft_limit_in_bytes, which only "
    "reclaims under system-wide pressure and never throttles"
)


class Cgroup1Backend(CgroupBackend):
    name = "cgroup1"
    kind = V1
    limit_file = LIMIT

    def _works(self, parent: str) -> str:
        if self.fs.exists(os.path.join(parent, MEMSW)):
            swap = "swap accounting on"
        else:
            swap = "swap accounting off, so --swap cannot be enforced"
        return f"memory controller writable at {parent}; {swap}"

    def _parent(self) -> tuple[Mount, str]:
        mount = next((m for m in self.fs.mounts() if self._is_memory(m)), None)
        if mount is None:
            raise BackendUnavailable("no cgroup v1 memory controller is mounted")
        own = self.fs.memberships().get("memory")
        if own is None:
            raise BackendUnavailable("this process is in no cgroup v1 memory cgroup")
        parent = under_mount(mount, own)
        if not self.fs.writable(parent):
            raise BackendUnavailable(f"{parent} is not writable (needs root or a delegated cgroup)")
        return mount, parent

    @staticmethod
    def _is_memory(mount: Mount) -> bool:
        return mount.fstype == "cgroup" and "memory" in mount.options

    def _apply(self, directory: str, limits: Limits) -> list[str]:
        if self.fs.exists(os.path.join(directory, MEMSW)):
            notes = self._write_with_memsw(directory, limits)
        else:
            notes = self._write_without_memsw(directory, limits)
        if limits.high is not None:
            write_limit(self.fs, directory, "memory.soft_limit_in_bytes", limits.high)
            notes.append(HIGH_NOTE.format(size=short_size(limits.high)))
        return notes

    def _write_with_memsw(self, directory: str, limits: Limits) -> list[str]:
        current = (self._read(directory, LIMIT), self._read(directory, MEMSW))
        for name, value in v1_write_order(current, (limits.ram, limits.ram_plus_swap)):
            write_limit(self.fs, directory, name, value)
        verify_limit(self.fs, directory, LIMIT, limits.ram)
        verify_limit(self.fs, directory, MEMSW, limits.ram_plus_swap)
        if limits.swap and not swap_active(self.fs):
            return ["no swap is configured on this machine (/proc/swaps), so --swap adds nothing"]
        return []

    def _write_without_memsw(self, directory: str, limits: Limits) -> list[str]:
        write_limit(self.fs, directory, LIMIT, limits.ram)
        verify_limit(self.fs, directory, LIMIT, limits.ram)
        if not swap_active(self.fs):
            return []
        if limits.swap:
            return ["swap accounting is off (no memory.memsw.*): swap use is not limited"]
        # Unlike global reclaim, cgroup v1 limit reclaim never swaps at swappiness 0.
        write_limit(self.fs, directory, "memory.swappiness", 0)
        return ["swap accounting is off; memory.swappiness=0 keeps the cgroup out of swap"]

    def _read(self, directory: str, name: str) -> int:
        path = os.path.join(directory, name)
        value = self.fs.read_int(path)
        if value is None:
            raise BackendUnavailable(f"cannot read {path}")
        return value
