"""watch-python: every Python process of a training job, refreshed in place by one long-lived
process (never a re-spawned ``ps`` pipeline).

A ``Watcher`` keeps what a refresh needs from the one before: CPU times for per-interval %CPU,
the last PSS samples and the GPU sampler. ``--once`` and ``--json`` take a single snapshot.
"""

from __future__ import annotations

import json
import pwd
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from dotdbg.gpu.nvml import GpuReader, GpuSampler, NvmlReader
from dotdbg.procs import procfs, pycmdline, pyprocs
from dotdbg.procs.pyprocs import PyProcess, Scanner
from dotdbg.watch import view as watch_view
from dotdbg.watch.rows import Row, cpu_percent, order_rows, totals
from dotdbg.watch.view import Snapshot

PSS_INTERVAL = 5.0  # seconds; reading smaps_rollup costs ~10 ms per resident GiB


@dataclass(frozen=True)
class WatchOptions:
    pattern: re.Pattern[str] | None = None
    all_users: bool = False
    tree: bool = False
    pss: bool = False
    sort: str = "rss"
    interval: float = 0.5
    in_job: str | None = None  # only this SLURM job's processes on this node


@lru_cache(maxsize=64)
def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


class Watcher:
    def __init__(
        self,
        options: WatchOptions,
        gpu_reader: GpuReader | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.options = options
        self._scanner = Scanner(pyprocs.own_filter(options.pattern, options.all_users))
        self._gpu = GpuSampler(gpu_reader if gpu_reader is not None else NvmlReader(), clock=clock)
        self._clock = clock
        self._cpu: dict[tuple[int, int], tuple[float, float]] = {}
        self._pss: dict[tuple[int, int], tuple[float, tuple[int, int] | None]] = {}

    def refresh(self, height: int | None = None) -> Snapshot:
        """One scan; with a terminal ``height``, PSS is read only for the rows that fit."""
        processes = self._scanner.scan()
        if self.options.in_job is not None:
            job = self.options.in_job
            processes = [p for p in processes if procfs.in_this_job(p.environ, job)]
        now, uptime = self._clock(), procfs.uptime_seconds()
        gpu = self._gpu.snapshot()
        unattributable = gpu.attribution_problem(procfs.pid_exists) if gpu.available else ""
        gpu_by_pid = gpu.bytes_by_pid() if gpu.available and not unattributable else None
        rows = [self._row(process, now, uptime, gpu_by_pid) for process in processes]
        self._cpu = {row.process.identity: (row.process.stat.cpu_seconds, now) for row in rows}
        ordered = order_rows(rows, self.options.sort, self.options.tree)
        if self.options.pss:
            budget = len(ordered)
            if height is not None:
                budget = watch_view.row_budget(height, len(gpu.devices), len(ordered))
            ordered = [
                self._with_pss(row, now) if i < budget else row for i, row in enumerate(ordered)
            ]
        if self.options.pss:
            live = {row.process.identity for row in rows}
            self._pss = {key: sample for key, sample in self._pss.items() if key in live}
        return Snapshot(
            tuple(ordered),
            totals(rows),
            gpu,
            show_user=self.options.all_users,
            show_pss=self.options.pss,
            gpu_unattributable=unattributable,
        )

    def close(self) -> None:
        self._gpu.reader.close()

    def _row(
        self,
        process: PyProcess,
        now: float,
        uptime: float,
        gpu_by_pid: dict[int, int | None] | None,
    ) -> Row:
        age = max(0.0, uptime - process.started_seconds)
        return Row(
            process=process,
            user=user_name(process.uid),
            cpu_percent=cpu_percent(
                self._cpu.get(process.identity), process.stat.cpu_seconds, now, age
            ),
            elapsed_seconds=age,
            command=pycmdline.short_command(process.argv, process.stat.name),
            launcher=pycmdline.launcher_of(process.argv),
            gpu_bytes=None if gpu_by_pid is None else gpu_by_pid.get(process.pid, 0),
        )

    def _with_pss(self, row: Row, now: float) -> Row:
        key = row.process.identity
        cached = self._pss.get(key)
        if cached is None or now - cached[0] >= PSS_INTERVAL:
            cached = (now, procfs.read_pss_uss(row.process.pid))
            self._pss[key] = cached
        sizes = cached[1]
        return replace(row, pss_bytes=sizes and sizes[0], uss_bytes=sizes and sizes[1])


def take_snapshot(
    options: WatchOptions, gpu_reader: GpuReader | None = None, over: float = 0.0
) -> Snapshot:
    """One snapshot; with ``over``, %CPU is each process's over that many seconds, not over its
    life (two scans that far apart)."""
    watcher = Watcher(options, gpu_reader)
    try:
        if over > 0:
            watcher.refresh()
            time.sleep(over)
        return watcher.refresh()
    finally:
        watcher.close()


def print_once(snapshot: Snapshot, as_json: bool) -> None:
    """JSON, plain columns when piped, or the same columns styled on a terminal."""
    if as_json:
        print(json.dumps(watch_view.snapshot_json(snapshot), indent=2))
    elif not sys.stdout.isatty():
        sys.stdout.write(watch_view.plain_text(snapshot))
    else:
        from dotdbg.common.output import rich_console

        console = rich_console(highlight=False)
        console.print(watch_view.styled(watch_view.table_lines(snapshot, width=console.width)))


def title(options: WatchOptions, snapshot: Snapshot) -> str:
    gpu = "" if snapshot.gpu.available else f"   GPU: {snapshot.gpu.reason}"
    if snapshot.gpu_unattributable:
        gpu = f"   GPU per process: n/a, {snapshot.gpu_unattributable}"
    clock = time.strftime("%H:%M:%S")
    return (
        f"watch-python  every {options.interval:g}s  sort {options.sort}  "
        f"{clock}  Ctrl-C quits{gpu}"
    )


def ticks(interval: float) -> Iterator[None]:
    """Yield every ``interval`` seconds, however long each refresh takes up to that; after one
    that overran, rest a whole interval rather than refresh back to back on a loaded machine."""
    deadline = time.monotonic()
    while True:
        yield
        now = time.monotonic()
        deadline += interval
        if deadline <= now:
            deadline = now + interval
        time.sleep(deadline - now)


def run_live(options: WatchOptions, gpu_reader: GpuReader | None = None) -> None:
    """Refresh in place until Ctrl-C; when stdout is not a terminal, log plain snapshots instead."""
    from rich.live import Live

    from dotdbg.common.output import rich_console

    console = rich_console(highlight=False)
    watcher = Watcher(options, gpu_reader)
    try:
        if not console.is_terminal:
            for _ in ticks(options.interval):
                sys.stdout.write(watch_view.plain_text(watcher.refresh()) + "\n")
                sys.stdout.flush()
        with Live(console=console, screen=True, auto_refresh=False, transient=True) as live:
            for _ in ticks(options.interval):
                height, width = console.height, console.width
                snapshot = watcher.refresh(height)
                view = watch_view.rich_text(title(options, snapshot), snapshot, height, width)
                live.update(view, refresh=True)
    finally:
        watcher.close()
