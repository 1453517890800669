"""The backends in the order memlimit tries them: exact and managed first, approximate last."""

from __future__ import annotations

from dotdbg.memlimit.backends.base import (
    Backend,
    BackendProbe,
    BackendUnavailable,
    OomCounters,
    Placement,
)
from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
from dotdbg.memlimit.backends.cgroup2 import Cgroup2Backend
from dotdbg.memlimit.backends.rlimit import RlimitBackend
from dotdbg.memlimit.backends.systemd import SystemdBackend
from dotdbg.memlimit.cgroupfs import CgroupFS

BACKEND_NAMES = ("systemd", "cgroup2", "cgroup1", "rlimit")

__all__ = [
    "BACKEND_NAMES",
    "Backend",
    "BackendProbe",
    "BackendUnavailable",
    "OomCounters",
    "Placement",
    "default_backends",
]


def default_backends(fs: CgroupFS | None = None) -> list[Backend]:
    """All backends, in order, reading the kernel through ``fs`` (the real one by default)."""
    fs = fs or CgroupFS()
    return [SystemdBackend(fs=fs), Cgroup2Backend(fs=fs), Cgroup1Backend(fs=fs), RlimitBackend()]
