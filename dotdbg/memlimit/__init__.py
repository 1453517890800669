"""memlimit: run a command under a memory limit that is verifiably in force.

``run_memlimit`` does a run; ``probe_backends`` says which backends work here and why (for
``dotdbg doctor``). Backends live in ``backends/``; the kernel's files are reached through
``cgroupfs.CgroupFS`` so tests can hand in a fake cgroup tree.
"""

from __future__ import annotations

from dotdbg.memlimit.backends import (
    BACKEND_NAMES,
    BackendProbe,
    default_backends,
)
from dotdbg.memlimit.cgroupfs import CgroupFS
from dotdbg.memlimit.limits import Limits, build_limits
from dotdbg.memlimit.run import run_memlimit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.memlimit.backends.cgroupdir import Leftover

__all__ = [
    "BACKEND_NAMES",
    "BackendProbe",
    "Limits",
    "build_limits",
    "find_leftovers",
    "probe_backends",
    "run_memlimit",
]


def find_leftovers(fs: CgroupFS | None = None) -> list[Leftover]:
    """Commands still running in the cgroups of memlimit runs that were killed -9."""
    from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
    from dotdbg.memlimit.backends.cgroup2 import Cgroup2Backend

    fs = fs or CgroupFS()
    found = [*Cgroup2Backend(fs=fs).leftovers(), *Cgroup1Backend(fs=fs).leftovers()]
    return list({leftover.directory: leftover for leftover in found}.values())


def probe_backends(fs: CgroupFS | None = None) -> list[BackendProbe]:
    """Each backend in the order memlimit tries it: does it work here, and why (not)."""
    return [backend.probe() for backend in default_backends(fs)]
