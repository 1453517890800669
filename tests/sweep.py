"""Whether this run is the full fault sweep (`pytest --fault-sweep`): the `faults` tests run,
and property tests try many more examples."""

from __future__ import annotations

import os

ENV = "DOTDBG_FAULT_SWEEP"


def sweeping() -> bool:
    return os.environ.get(ENV) == "1"


def examples(default: int, sweep: int) -> int:
    return sweep if sweeping() else default
