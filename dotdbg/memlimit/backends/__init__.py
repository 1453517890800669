"""The backends in the order memlimit tries them: exact and managed first, approximate last."""

from __future__ import annotations

from dotdbg.memlimit.backends.base import (
    BackendProbe,
    BackendUnavailable,
    OomCounters,
    Placement,
)
from dotdbg.memlimit.cgroupfs import CgroupFS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

    from dotdbg.memlimit.backends.base import Backend

BACKEND_NAMES = ("systemd", "cgroup2", "cgroup1", "rlimit")

__all__ = [
    "BACKEND_NAMES",
    "BackendProbe",
    "BackendUnavailable",
    "OomCounters",
    "Placement",
    "backend_named",
    "default_backends",
    "each_backend",
]


def backend_named(name: str, fs: CgroupFS | None = None) -> Backend:
    """One backend (of BACKEND_NAMES), importing only its own module: a run uses the first that
    works, and importing all four costs a run several milliseconds (benchmarks/startup)."""
    fs = fs or CgroupFS()
    if name == "systemd":
        from dotdbg.memlimit.backends.systemd import SystemdBackend

        return SystemdBackend(fs=fs)
    if name == "cgroup2":
        from dotdbg.memlimit.backends.cgroup2 import Cgroup2Backend

        return Cgroup2Backend(fs=fs)
    if name == "cgroup1":
        from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend

        return Cgroup1Backend(fs=fs)
    from dotdbg.memlimit.backends.rlimit import RlimitBackend

    return RlimitBackend()


def each_backend(fs: CgroupFS | None = None) -> Iterator[Backend]:
    """Every backend in order, each made only when the one before it has been tried."""
    fs = fs or CgroupFS()
    return (backend_named(name, fs) for name in BACKEND_NAMES)


def default_backends(fs: CgroupFS | None = None) -> list[Backend]:
    """All backends, in order, reading the kernel through ``fs`` (the real one by default)."""
    return list(each_backend(fs))
