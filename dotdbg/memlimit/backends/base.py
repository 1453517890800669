"""What every backend offers: a cheap probe, and arming a limit that a child is then admitted to."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from dotdbg.memlimit.limits import Limits

# No dataclasses, NamedTuples or typing.Protocol at run time in memlimit: importing dataclasses
# (inspect, ast, dis) cost 11 ms, typing (collections, re, functools) about 10 ms of a command
# whose target is a cgroup written by hand + 15 ms (issue 27). The records are plain classes.


class BackendProbe:
    """Whether a backend can work on this machine, and a one-line why or why not."""

    __slots__ = ("name", "why", "works")

    def __init__(self, name: str, works: bool, why: str) -> None:
        self.name, self.works, self.why = name, works, why

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BackendProbe):
            return NotImplemented
        return (self.name, self.works, self.why) == (other.name, other.works, other.why)

    def __hash__(self) -> int:
        return hash((self.name, self.works, self.why))

    def __repr__(self) -> str:
        return f"BackendProbe({self.name!r}, {self.works!r}, {self.why!r})"


class OomCounters:
    """What the limit did so far: processes it killed, and the peak usage if known."""

    __slots__ = ("kills", "peak")

    def __init__(self, kills: int = 0, peak: int | None = None) -> None:
        self.kills, self.peak = kills, peak

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OomCounters):
            return NotImplemented
        return (self.kills, self.peak) == (other.kills, other.peak)

    def __hash__(self) -> int:
        return hash((self.kills, self.peak))

    def __repr__(self) -> str:
        return f"OomCounters(kills={self.kills!r}, peak={self.peak!r})"


class BackendUnavailable(Exception):
    """The backend cannot enforce the limit here (or silently ignored it); the text says why."""


class Placement:
    """A limit that is armed and waiting for a child; the base class limits nothing by itself.

    ``wrap`` may put a launcher in front of the command, ``admit`` moves the (still waiting)
    child under the limit and proves it is in force, ``tick`` runs while the command runs,
    ``close`` removes whatever the backend made.
    """

    tick_seconds = 0.25
    kill_verb = "OOM-killed"

    def __init__(self, label: str, where: str) -> None:
        self.label = label
        self.where = where
        self.notes: list[str] = []
        self.enclosing_limit: int | None = None  # a lower limit above ours, which acts first

    def wrap(self, argv: list[str]) -> list[str]:
        return argv

    def admit(self, pid: int) -> None:
        raise NotImplementedError

    def tick(self, pid: int) -> None:
        """Periodic work while the command runs (the rlimit watchdog)."""

    def counters(self) -> OomCounters:
        return OomCounters()

    def close(self) -> list[str]:
        """Undo what arming made; returns messages about what had to be done to get there."""
        return []


if TYPE_CHECKING:

    class Backend(Protocol):
        """What run.py asks of a backend (a name for annotations only: no typing at run time)."""

        @property
        def name(self) -> str: ...

        def probe(self) -> BackendProbe: ...

        def arm(self, limits: Limits) -> Placement: ...
