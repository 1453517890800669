"""The Watcher's refreshes over real processes; the GPU through a fake reader (the NVML seam)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

from dotdbg.gpu.nvml import GpuDevice, GpuProcess, GpuSnapshot
from dotdbg.procs import procfs
from dotdbg.watch import watcher as watch_python
from dotdbg.watch.view import plain_text, snapshot_json
from dotdbg.watch.watcher import PSS_INTERVAL, Watcher, WatchOptions, title
from tests.infra.spawner import GROWS, HOLDS_300MB, IDLE, Spawner, wait_until

GB = 2**30
BUSY = "import sys; print('ready', flush=True)\nwhile True: pass"
BUSY_THEN_IDLE = (
    "import time\nstart = time.process_time()\n"
    "while time.process_time() - start < 0.3: pass\n"
    "print('ready', flush=True)\ntime.sleep(600)"
)


class FakeGpu:
    """A reader that reports fixed devices, as NVML would, and counts its reads."""

    def __init__(self, snapshot: GpuSnapshot) -> None:
        self.snapshot = snapshot
        self.reads = 0
        self.closed = False

    def read(self) -> GpuSnapshot:
        self.reads += 1
        return self.snapshot

    def close(self) -> None:
        self.closed = True


NO_GPU = FakeGpu(GpuSnapshot((), "no usable NVIDIA driver (test)"))


def options(token: str, **changes: object) -> WatchOptions:
    return WatchOptions(pattern=re.compile(re.escape(token)), **changes)  # type: ignore[arg-type]


def test_gpu_memory_is_joined_by_pid(spawn: Spawner) -> None:
    on_gpu, unknown, off_gpu = spawn.python(IDLE), spawn.python(IDLE), spawn.python(IDLE)
    listed = (GpuProcess(on_gpu.pid, 6 * GB), GpuProcess(unknown.pid, None))
    devices = (GpuDevice(0, "GPU-a", "Fake", 80 * GB, 9 * GB, 71 * GB, listed),)
    gpu = FakeGpu(GpuSnapshot(devices))
    watcher = Watcher(options(spawn.token, sort="gpu"), gpu)
    snapshot = watcher.refresh()
    watcher.close()
    assert gpu.closed
    # the two without a known amount sort as 0, in pid order (not always spawn order: pids wrap)
    expected = [on_gpu.pid, *sorted([unknown.pid, off_gpu.pid])]
    assert [row.process.pid for row in snapshot.rows] == expected
    shown = {row.process.pid: row.gpu_bytes for row in snapshot.rows}
    assert shown == {on_gpu.pid: 6 * GB, unknown.pid: None, off_gpu.pid: 0}
    text = plain_text(snapshot)
    header, *lines = text.splitlines()[:4]
    gpu_at = header.split().index("GPU_GB")
    cells = {int(line.split()[0]): line.split()[gpu_at] for line in lines}
    assert cells == {on_gpu.pid: "6.000", unknown.pid: "n/a", off_gpu.pid: "0.000"}
    assert "GPU0 Fake: 9.000/80.000 GB used, 3.000 GB not attributed" in text
    document = snapshot_json(snapshot)
    assert document["processes"][0]["gpu_memory_bytes"] == 6 * GB
    assert document["gpu_per_process"] == "ok"


def test_gpu_pids_from_another_pid_namespace_leave_only_device_totals(spawn: Spawner) -> None:
    """In a container without the host's PID namespace NVML reports pids that are not ours."""
    proc = spawn.python(IDLE)
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer exists, as a host pid seen from a container
    listed = (GpuProcess(gone.pid, 6 * GB),)
    devices = (GpuDevice(0, "GPU-a", "Fake", 80 * GB, 9 * GB, 71 * GB, listed),)
    chosen = options(spawn.token)
    snapshot = Watcher(chosen, FakeGpu(GpuSnapshot(devices))).refresh()
    assert title(chosen, snapshot).endswith(
        "GPU per process: n/a, NVML's pids are not in this PID namespace (a container?)"
    )
    [row] = snapshot.rows
    assert row.process.pid == proc.pid and row.gpu_bytes is None
    text = plain_text(snapshot)
    assert "GPU_GB" not in text.splitlines()[0]
    assert text.splitlines()[-1] == (
        "GPU0 Fake: 9.000/80.000 GB used, 9.000 GB not attributed to a listed process "
        "(NVML's pids are not in this PID namespace (a container?))"
    )
    document = snapshot_json(snapshot)
    assert document["gpu_status"] == "ok"
    assert document["gpu_per_process"].startswith("NVML's pids are not in this PID namespace")
    assert document["gpus"][0]["unattributed_bytes"] == 9 * GB
    assert document["processes"][0]["gpu_memory_bytes"] is None


def test_no_gpu_hides_the_column(spawn: Spawner) -> None:
    spawn.python(IDLE)
    snapshot = Watcher(options(spawn.token), NO_GPU).refresh()
    assert "GPU" not in plain_text(snapshot)
    assert snapshot.rows[0].gpu_bytes is None


def test_nvml_is_read_at_most_once_a_second(spawn: Spawner) -> None:
    spawn.python(IDLE)
    gpu = FakeGpu(GpuSnapshot((), "none"))
    now = [100.0]
    watcher = Watcher(options(spawn.token), gpu, clock=lambda: now[0])
    for step in range(6):
        now[0] = 100.0 + step * 0.5
        watcher.refresh()
    assert gpu.reads == 3


def test_rss_of_a_process_holding_300mb(spawn: Spawner) -> None:
    proc = spawn.python(HOLDS_300MB)
    [row] = Watcher(options(spawn.token), NO_GPU).refresh().rows
    ps_kib = int(subprocess.check_output(["ps", "-o", "rss=", "-p", str(proc.pid)]))
    assert row.process.stat.rss_bytes >= 300 * 2**20
    assert abs(row.process.stat.rss_bytes - ps_kib * 1024) <= 0.02 * ps_kib * 1024


def test_cpu_percent_is_measured_over_the_interval(spawn: Spawner) -> None:
    started = time.monotonic()
    busy, spent = spawn.python(BUSY), spawn.python(BUSY_THEN_IDLE)
    watcher = Watcher(options(spawn.token), NO_GPU)
    before = time.monotonic()
    first = {row.process.pid: row.cpu_percent for row in watcher.refresh().rows}
    age = time.monotonic() - started  # at least the age of `spent` at the first refresh
    start = procfs.read_stat(busy.pid).cpu_seconds
    wait_until(lambda: procfs.read_stat(busy.pid).cpu_seconds - start >= 0.3)
    second = {row.process.pid: row.cpu_percent for row in watcher.refresh().rows}
    wall = time.monotonic() - before
    # 0.3 s of CPU or more between two refreshes at most `wall` apart, however loaded the machine
    assert second[busy.pid] >= 100 * 0.3 / wall
    # no interval before the first refresh: the lifetime average, as ps shows it
    assert first[spent.pid] >= 100 * 0.3 / (age + 0.1)  # 0.1: start times are in clock ticks
    assert second[spent.pid] < 1.0  # asleep since


def test_pss_is_read_again_only_after_the_sampling_interval(spawn: Spawner) -> None:
    grows = spawn.stepped([sys.executable, "-c", GROWS, spawn.token])
    now = [1000.0]
    watcher = Watcher(options(spawn.token, pss=True), NO_GPU, clock=lambda: now[0])
    [first] = watcher.refresh().rows
    grows.step()  # 100 MB more
    now[0] += PSS_INTERVAL - 0.5
    [cached] = watcher.refresh().rows
    now[0] += 0.5
    [fresh] = watcher.refresh().rows
    assert first.pss_bytes is not None and fresh.pss_bytes is not None
    assert cached.process.stat.rss_bytes >= first.process.stat.rss_bytes + 95 * 2**20
    assert cached.pss_bytes == first.pss_bytes  # not read again within the interval
    assert fresh.pss_bytes >= first.pss_bytes + 95 * 2**20


def test_pss_is_sampled_for_shown_rows_only(spawn: Spawner) -> None:
    big = spawn.python(HOLDS_300MB)
    spawn.python(IDLE)
    spawn.python(IDLE)
    watcher = Watcher(options(spawn.token, pss=True), NO_GPU)
    # 5 lines: title, header, one row, "… 2 more", totals
    snapshot = watcher.refresh(height=5)
    first, second, _ = snapshot.rows
    assert first.process.pid == big.pid
    assert first.uss_bytes is not None and first.uss_bytes >= 300 * 2**20
    assert first.pss_bytes is not None and first.pss_bytes >= first.uss_bytes
    assert second.pss_bytes is None
    assert "PSS_GB" in plain_text(snapshot)


def test_tree_of_a_fake_torchrun(spawn: Spawner) -> None:
    launcher = spawn.torchrun()
    snapshot = Watcher(options(spawn.token, tree=True, sort="pid"), NO_GPU).refresh()
    lines = plain_text(snapshot).splitlines()
    assert len(snapshot.rows) == 5, lines
    root, *below = snapshot.rows
    assert root.process.pid == launcher.pid
    assert root.launcher == "torchrun" and root.process.stat.name == "torchrun"
    ranks = [row for row in below if row.process.stat.ppid == launcher.pid]
    workers = [row for row in below if row.process.stat.name == "pt_data_worker"]
    assert len(ranks) == 2 and len(workers) == 2
    assert {row.ranks.rank for row in ranks} == {0, 1}  # two ranks, asserted above
    assert {row.process.stat.ppid for row in workers} == {row.process.pid for row in ranks}
    assert [row.tree_prefix for row in snapshot.rows] == ["", "├─ ", "│  └─ ", "└─ ", "   └─ "]
    assert re.search(r"torchrun  +torchrun \S+train\.py", lines[1])
    assert re.search(r"0/0 .*└─ \[pt_data_worker\] train\.py --token", "\n".join(lines))


def test_this_process_is_never_listed() -> None:
    """The test runner is a Python process of this user, and still left out."""
    snapshot = Watcher(WatchOptions(all_users=True), NO_GPU).refresh()
    assert os.getpid() not in {row.process.pid for row in snapshot.rows}


class FakeTime:
    """Stands in for the ``time`` module in ``ticks``: sleeping moves the clock on."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.now += seconds


def test_refreshes_keep_the_interval_and_rest_after_an_overrun(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = FakeTime()
    monkeypatch.setattr(watch_python, "time", clock)
    beats = []
    refresh_takes = [0.0, 0.2, 2.0, 0.0, 0.0]
    for _, spent in zip(watch_python.ticks(0.5), refresh_takes, strict=False):
        beats.append(clock.now)
        clock.now += spent
    assert beats == [0.0, 0.5, 1.0, 3.5, 4.0]
