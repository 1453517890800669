"""Whether this run is the full fault sweep (`pytest --fault-sweep`): the `faults` tests run,
and property tests try many more examples."""

from __future__ import annotations

import os
import random

ENV = "DOTDBG_FAULT_SWEEP"


def sweeping() -> bool:
    return os.environ.get(ENV) == "1"


def examples(default: int, sweep: int) -> int:
    return sweep if sweeping() else default


def kill_moments(span: float, seed: int, default: int, sweep: int) -> list[float]:
    """Moments in [0, span) to kill a run at: one drawn in each of as many equal slices as
    this run tries, so a few tries still reach its start, middle and end."""
    count = examples(default, sweep)
    draw = random.Random(seed)
    return [(slot + draw.random()) * span / count for slot in range(count)]
