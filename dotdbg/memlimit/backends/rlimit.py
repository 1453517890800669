"""Last resort without cgroups: RLIMIT_DATA on the command plus a watchdog on the tree's RSS.

RLIMIT_DATA makes each process's own heap and anonymous mappings fail past the limit (malloc
returns NULL, Python raises MemoryError) but counts every process separately; the watchdog adds
up the RSS of the whole tree a few times a second and SIGKILLs the largest process when the
sum is over. Both are approximate, which is why this backend comes last and says so.
"""

from __future__ import annotations

import os
import resource

from dotdbg.common.rawsignal import signal
from dotdbg.memlimit.backends.base import (
    BackendProbe,
    BackendUnavailable,
    OomCounters,
    Placement,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.memlimit.limits import Limits

WARNING = (
    "rlimit is per process and approximate: RLIMIT_DATA limits each process on its own, and "
    "the watchdog sums the tree's RSS every {interval}s"
)
INTERVAL = 0.1


def tree_rss(pid: int) -> dict[int, int]:
    """RSS of ``pid`` and all its descendants that still exist."""
    import psutil

    try:
        root = psutil.Process(pid)
        processes = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return {}
    sizes = {}
    for process in processes:
        try:
            sizes[process.pid] = process.memory_info().rss
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return sizes


def pick_victim(sizes: dict[int, int], limit: int) -> int | None:
    """The largest process when the tree is over ``limit`` (what the kernel's OOM killer picks)."""
    if not sizes or sum(sizes.values()) <= limit:
        return None
    return max(sizes, key=lambda pid: sizes[pid])


class RlimitPlacement(Placement):
    tick_seconds = INTERVAL
    kill_verb = "killed by the watchdog"

    def __init__(self, limit: int, notes: list[str]) -> None:
        super().__init__("rlimit", "RLIMIT_DATA + RSS watchdog")
        self.limit = limit
        self.notes = notes
        self.killed: set[int] = set()
        self.peak = 0

    def admit(self, pid: int) -> None:
        resource.prlimit(pid, resource.RLIMIT_DATA, (self.limit, self.limit))
        if resource.prlimit(pid, resource.RLIMIT_DATA) != (self.limit, self.limit):
            raise BackendUnavailable(f"RLIMIT_DATA of pid {pid} did not take the limit")

    def tick(self, pid: int) -> None:
        # Processes already killed are still freeing memory; counting them again would kill twice.
        sizes = {p: rss for p, rss in tree_rss(pid).items() if p not in self.killed}
        self.peak = max(self.peak, sum(sizes.values()))
        victim = pick_victim(sizes, self.limit)
        if victim is not None:
            try:
                os.kill(victim, signal.SIGKILL)
            except ProcessLookupError:
                return
            self.killed.add(victim)

    def counters(self) -> OomCounters:
        return OomCounters(kills=len(self.killed), peak=self.peak or None)


class RlimitBackend:
    name = "rlimit"

    def probe(self) -> BackendProbe:
        why = "always available: RLIMIT_DATA per process plus a watchdog on the tree's RSS"
        return BackendProbe(self.name, True, why)

    def arm(self, limits: Limits) -> RlimitPlacement:
        notes = [WARNING.format(interval=INTERVAL)]
        if limits.swap:
            notes.append("--swap cannot be enforced without cgroups; swap use is not limited")
        if limits.high is not None:
            notes.append("--high needs cgroups; ignored")
        return RlimitPlacement(limits.ram, notes)
