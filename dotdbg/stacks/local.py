"""Stack records of this machine's Python processes, dumped with py-spy in parallel."""

from __future__ import annotations

import os
import re
import socket
import time
from collections.abc import Sequence
from dataclasses import replace

from dotdbg.procs import procfs, pycmdline
from dotdbg.procs.pyprocs import PyProcess
from dotdbg.pyspy import dump as pyspy
from dotdbg.stackrecord import StackRecord
from dotdbg.stacks.pyspyjson import threads_from_dump


def host_name() -> str:
    """The node's name as SLURM knows it inside a job step, else the host name."""
    return os.environ.get("SLURMD_NODENAME") or socket.gethostname()


def _int_or_none(text: str | None) -> int | None:
    return int(text) if text is not None and text.strip().isdigit() else None


def bare_record(process: PyProcess, host: str, error: str | None = None) -> StackRecord:
    facts = process.environ
    return StackRecord(
        host=host,
        pid=process.pid,
        ppid=process.stat.ppid,
        rank=_int_or_none(facts.rank) if facts else None,
        local_rank=_int_or_none(facts.local_rank) if facts else None,
        launcher=pycmdline.launcher_of(process.argv),
        command=pycmdline.short_command(process.argv, process.stat.name),
        source="py-spy",
        error=error,
    )


def record_of(dump: pyspy.Dump, host: str) -> StackRecord:
    """The record of a ``--json`` dump; a failed one carries its reason in ``error``."""
    if dump.status != "ok":
        return bare_record(dump.process, host, f"{dump.status}: {dump.text}")
    try:
        threads = threads_from_dump(dump.text)
    except ValueError as error:
        return bare_record(dump.process, host, f"failed: py-spy printed no stacks ({error})")
    return replace(bare_record(dump.process, host), threads=threads)


def dump_records(
    py_spy: str, targets: Sequence[PyProcess], native: bool, timeout: float
) -> list[StackRecord]:
    host = host_name()
    return [record_of(d, host) for d in pyspy.dump_all(py_spy, targets, native, timeout, True)]


def sample_records(
    py_spy: str,
    targets: Sequence[PyProcess],
    native: bool,
    timeout: float,
    samples: int,
    interval: float,
) -> list[list[StackRecord]]:
    """``samples`` rounds of dumps of the same processes, ``interval`` seconds apart."""
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
    return [process for process in found if procfs.in_this_job(process.pid, job)]
