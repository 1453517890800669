"""Who a process is, in every stack record dotdbg makes (py-spy's, pystack's, gdb's): the node
it runs on, its pid and parent, its ranks, its launcher and its command, built in this one place
so that records of one process from different dumpers merge.

Light: the node-side entry (``dotdbg.stacks.node``) writes ``fields`` as they are, without the
record's dataclasses.
"""

from __future__ import annotations

import os

from dotdbg.procs import pycmdline, ranks

TYPE_CHECKING = False  # typing costs milliseconds of every node's start; mypy knows this name
if TYPE_CHECKING:
    from typing import Any

    from dotdbg.procs.procfs import EnvFacts, Stat
    from dotdbg.procs.pyprocs import PyProcess
    from dotdbg.stacks.record import StackRecord


def host_name() -> str:
    """The node's name as SLURM knows it inside a job step, else the host name."""
    return os.environ.get("SLURMD_NODENAME") or os.uname().nodename  # gethostname, without socket


def fields(
    pid: int, stat: Stat, argv: tuple[str, ...], environ: EnvFacts | None, source: str
) -> dict[str, Any]:
    """A live process's record as its JSON holds it (the fields of ``StackRecord``, in their
    order), with no threads yet."""
    launcher = pycmdline.launcher_of(argv)
    shown = ranks.of_process(environ.ranks if environ else None, launcher)
    return {
        "host": host_name(),
        "pid": pid,
        "ppid": stat.ppid,
        "rank": shown.rank,
        "local_rank": shown.local_rank,
        "launcher": launcher,
        "command": pycmdline.short_command(argv, stat.name),
        "source": source,
        "threads": [],
        "error": None,
        "world_size": shown.world_size,
    }


def of_process(
    pid: int, stat: Stat, argv: tuple[str, ...], environ: EnvFacts | None, source: str
) -> StackRecord:
    """The identity fields of a live process's record (no threads yet)."""
    from dotdbg.stacks.record import StackRecord

    found = fields(pid, stat, argv, environ, source)
    return StackRecord(**{**found, "threads": ()})


def of_scanned(process: PyProcess, source: str) -> StackRecord:
    return of_process(process.pid, process.stat, process.argv, process.environ, source)
