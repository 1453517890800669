"""Stack records of this machine's Python processes, dumped with py-spy in parallel."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from dotdbg.procs import procfs
from dotdbg.procs.pyprocs import PyProcess
from dotdbg.pyspy import dump as pyspy
from dotdbg.pyspy.outcome import NO_PY_SPY, RETRIED
from dotdbg.stacks import identity
from dotdbg.stacks.fallback import retried
from dotdbg.stacks.pyspyjson import threads_from_dump
from dotdbg.stacks.record import StackRecord


def record_of(dump: pyspy.Dump) -> StackRecord:
    """The record of a ``--json`` dump; a failed one carries its reason in ``error``."""
    bare = identity.of_scanned(dump.process, "py-spy")
    if dump.status != "ok":
        return bare._replace(error=f"{dump.status}: {dump.text}")
    try:
        threads = threads_from_dump(dump.text)
    except ValueError as error:
        return bare._replace(error=f"failed: py-spy printed no stacks ({error})")
    return bare._replace(threads=threads)


def dump_records(
    py_spy: str | None, targets: Sequence[PyProcess], native: bool, timeout: float
) -> list[StackRecord]:
    """One record per target, in order; ``py_spy`` None: it is not installed here."""
    if py_spy is None:
        records = [identity.of_scanned(t, "py-spy")._replace(error=NO_PY_SPY) for t in targets]
    else:
        records = [record_of(d) for d in pyspy.dump_all(py_spy, targets, native, timeout, True)]
    if native and any((record.error or "").startswith(RETRIED) for record in records):
        return retried(targets, records, timeout)
    return records


def sample_records(
    py_spy: str | None,
    targets: Sequence[PyProcess],
    native: bool,
    timeout: float,
    samples: int,
    interval: float,
) -> list[list[StackRecord]]:
    """``samples`` rounds of dumps of the same processes, ``interval`` seconds apart."""
    if (samples - 1) * interval > 1:
        from dotdbg.common.output import progress

        wait = (samples - 1) * interval
        progress(f"{samples} samples of {len(targets)} processes, {interval:g}s apart ({wait:g}s)…")
    rounds = []
    for number in range(samples):
        started = time.monotonic()
        rounds.append(dump_records(py_spy, targets, native, timeout))
        if number < samples - 1:
            time.sleep(max(0.0, interval - (time.monotonic() - started)))
    return rounds


def select(
    pattern: re.Pattern[str] | None, tree: int | None, all_users: bool, job: str | None = None
) -> list[PyProcess]:
    """The processes to dump; with ``job``, only that SLURM job's on this node."""
    found = pyspy.select_targets(pattern, tree, all_users)
    if job is None:
        return found
    return [process for process in found if procfs.in_this_job(process.environ, job)]
