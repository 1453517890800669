"""What every backend offers: a cheap probe, and arming a limit that a child is then admitted to."""

from __future__ import annotations

from dotdbg.common.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    from dotdbg.memlimit.limits import Limits

# No dataclasses, NamedTuples or typing.Protocol at run time in memlimit: importing dataclasses
# (inspect, ast, dis) cost 11 ms, typing (collections, re, functools) about 10 ms of a command
# whose target is a cgroup written by hand + 15 ms (issue 27). The records are common.record's.


class BackendProbe(Record):
    """Whether a backend can work on this machine, and a one-line why or why not."""

    name: str
    works: bool
    why: str


class OomCounters(Record):
    """What the limit did so far: processes it killed, and the peak usage if known."""

    kills: int = 0
    peak: int | None = None


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
