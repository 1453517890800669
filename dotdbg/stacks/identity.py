"""Who a process is, in every stack record dotdbg makes (py-spy's, pystack's, gdb's): the node
it runs on, its pid and parent, its ranks, its launcher and its command, built in this one place
so that records of one process from different dumpers merge.
"""

from __future__ import annotations

import os

from dotdbg.procs import pycmdline, ranks
from dotdbg.procs.procfs import EnvFacts, Stat
from dotdbg.procs.pyprocs import PyProcess
from dotdbg.stacks.record import StackRecord


def host_name() -> str:
    """The node's name as SLURM knows it inside a job step, else the host name."""
    return os.environ.get("SLURMD_NODENAME") or os.uname().nodename  # gethostname, without socket


def of_process(
    pid: int, stat: Stat, argv: tuple[str, ...], environ: EnvFacts | None, source: str
) -> StackRecord:
    """The identity fields of a live process's record (no threads yet)."""
    launcher = pycmdline.launcher_of(argv)
    shown = ranks.of_process(environ.ranks if environ else None, launcher)
    return StackRecord(
        host=host_name(),
        pid=pid,
        ppid=stat.ppid,
        rank=shown.rank,
        local_rank=shown.local_rank,
        launcher=launcher,
        command=pycmdline.short_command(argv, stat.name),
        source=source,
        world_size=shown.world_size,
    )


def of_scanned(process: PyProcess, source: str) -> StackRecord:
    return of_process(process.pid, process.stat, process.argv, process.environ, source)
