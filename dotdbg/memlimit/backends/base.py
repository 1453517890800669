"""What every backend offers: a cheap probe, and arming a limit that a child is then admitted to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from dotdbg.memlimit.limits import Limits


@dataclass(frozen=True)
class BackendProbe:
    """Whether a backend can work on this machine, and a one-line why or why not."""

    name: str
    works: bool
    why: str


@dataclass(frozen=True)
class OomCounters:
    """What the limit did so far: processes it killed, and the peak usage if known."""

    kills: int = 0
    peak: int | None = None


class BackendUnavailable(Exception):
    """The backend cannot enforce the limit here (or silently ignored it); the text says why."""


@dataclass
class Placement:
    """A limit that is armed and waiting for a child; the base class limits nothing by itself.

    ``wrap`` may put a launcher in front of the command, ``admit`` moves the (still waiting)
    child under the limit and proves it is in force, ``tick`` runs while the command runs,
    ``close`` removes whatever the backend made.
    """

    label: str
    where: str
    notes: list[str] = field(default_factory=list)
    tick_seconds: float = 0.25
    kill_verb: str = "OOM-killed"
    enclosing_limit: int | None = None  # a lower limit above ours, which acts first

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


class Backend(Protocol):
    @property
    def name(self) -> str: ...

    def probe(self) -> BackendProbe: ...

    def arm(self, limits: Limits) -> Placement: ...
