"""Rows of the watch-python table: what each process shows, in which order, and the totals.

Pure functions of scanned processes and samples, so sorting, the tree and the sums are tested
without processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from dotdbg.gpu.nvml import GpuDevice
from dotdbg.procs import ranks
from dotdbg.procs.pyprocs import PyProcess

SORT_KEYS = ("rss", "cpu", "gpu", "pid")


@dataclass(frozen=True)
class Row:
    process: PyProcess
    user: str
    cpu_percent: float
    elapsed_seconds: float
    command: str
    launcher: str | None
    gpu_bytes: int | None  # None: no GPU, or NVML lists the process without its memory
    pss_bytes: int | None = None
    uss_bytes: int | None = None
    tree_prefix: str = ""

    @property
    def ranks(self) -> ranks.Ranks:
        """As ``stacks`` names them: a distributed launcher's own process has none."""
        facts = self.process.environ
        return ranks.of_process(facts.ranks if facts else None, self.launcher)


@dataclass(frozen=True)
class Totals:
    processes: int
    rss_bytes: int
    cpu_percent: float
    threads: int
    gpu_bytes: int


def cpu_percent(
    previous: tuple[float, float] | None, cpu_seconds: float, now: float, elapsed: float
) -> float:
    """Share of one core since the previous sample, or over the whole life like ``ps`` without one.

    ``previous`` is (cpu seconds, clock) from the last refresh.
    """
    if previous is None:
        return 100.0 * cpu_seconds / elapsed if elapsed > 0 else 0.0
    spent, then = previous
    wall = now - then
    return max(0.0, 100.0 * (cpu_seconds - spent) / wall) if wall > 0 else 0.0


def _sort_key(sort: str) -> Callable[[Row], tuple[float, int]]:
    """Largest first for resources, ascending for pid; the pid breaks ties so order is stable."""
    if sort == "pid":
        return lambda row: (0.0, row.process.pid)
    measures: dict[str, Callable[[Row], float]] = {
        "rss": lambda row: row.process.stat.rss_bytes,
        "cpu": lambda row: row.cpu_percent,
        "gpu": lambda row: row.gpu_bytes or 0,
    }
    measure = measures[sort]
    return lambda row: (-measure(row), row.process.pid)


def sort_rows(rows: Sequence[Row], sort: str) -> list[Row]:
    return sorted(rows, key=_sort_key(sort))


def tree_rows(rows: Sequence[Row], sort: str) -> list[Row]:
    """Each process under its parent (launcher → ranks → workers), siblings in ``sort`` order.

    A process whose parent is not listed starts a tree of its own.
    """
    ordered = sort_rows(rows, sort)
    listed = {row.process.pid for row in ordered}
    children: dict[int, list[Row]] = {}
    roots = []
    for row in ordered:
        if row.process.stat.ppid in listed and row.process.stat.ppid != row.process.pid:
            children.setdefault(row.process.stat.ppid, []).append(row)
        else:
            roots.append(row)
    out: list[Row] = []
    for root in roots:
        _walk(root, "", "", children, out)
    return out


def _walk(row: Row, own: str, below: str, children: dict[int, list[Row]], out: list[Row]) -> None:
    out.append(replace(row, tree_prefix=own))
    kids = children.pop(row.process.pid, [])
    for position, child in enumerate(kids):
        last = position == len(kids) - 1
        branch, indent = ("└─ ", "   ") if last else ("├─ ", "│  ")
        _walk(child, below + branch, below + indent, children, out)


def order_rows(rows: Sequence[Row], sort: str, tree: bool) -> list[Row]:
    return tree_rows(rows, sort) if tree else sort_rows(rows, sort)


def totals(rows: Sequence[Row]) -> Totals:
    return Totals(
        processes=len(rows),
        rss_bytes=sum(row.process.stat.rss_bytes for row in rows),
        cpu_percent=sum(row.cpu_percent for row in rows),
        threads=sum(row.process.stat.threads for row in rows),
        gpu_bytes=sum(row.gpu_bytes or 0 for row in rows),
    )


def unattributed_bytes(device: GpuDevice, listed_pids: set[int]) -> int:
    """Memory used on a device that no listed process accounts for.

    That is the driver's own reservation, other users' or non-Python processes, and processes
    whose pids NVML reports from another PID namespace (a container without the host's).
    """
    attributed = sum(
        process.used_bytes or 0 for process in device.processes if process.pid in listed_pids
    )
    return max(0, device.used_bytes - attributed)
