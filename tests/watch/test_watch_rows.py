from __future__ import annotations

import pytest

from dotdbg.gpu.nvml import GpuDevice, GpuProcess
from dotdbg.watch.rows import (
    cpu_percent,
    order_rows,
    sort_rows,
    totals,
    tree_rows,
    unattributed_bytes,
)
from tests.infra.spawner import make_row

GB = 2**30


def test_cpu_percent_first_sample_is_the_lifetime_average_like_ps() -> None:
    assert cpu_percent(None, cpu_seconds=5.0, now=100.0, elapsed=10.0) == 50.0
    assert cpu_percent(None, cpu_seconds=5.0, now=100.0, elapsed=0.0) == 0.0


def test_cpu_percent_later_samples_cover_the_interval() -> None:
    assert cpu_percent((10.0, 99.5), cpu_seconds=10.5, now=100.0, elapsed=50.0) == 100.0
    assert cpu_percent((10.0, 100.0), cpu_seconds=10.5, now=100.0, elapsed=50.0) == 0.0


@pytest.mark.parametrize(
    ("sort", "expected"),
    [("rss", [2, 3, 1]), ("cpu", [3, 1, 2]), ("gpu", [1, 3, 2]), ("pid", [1, 2, 3])],
)
def test_sort_orders(sort: str, expected: list[int]) -> None:
    rows = [
        make_row(1, rss=1 * GB, cpu=50.0, gpu=9 * GB),
        make_row(2, rss=5 * GB, cpu=1.0, gpu=None),
        make_row(3, rss=2 * GB, cpu=99.0, gpu=3 * GB),
    ]
    assert [row.process.pid for row in sort_rows(rows, sort)] == expected


def test_ties_keep_pid_order() -> None:
    rows = [make_row(9), make_row(4), make_row(7)]
    assert [row.process.pid for row in sort_rows(rows, "rss")] == [4, 7, 9]


def test_tree_puts_ranks_under_the_launcher_and_workers_under_ranks() -> None:
    launcher = make_row(10, ppid=1, argv=("python", "/bin/torchrun", "t.py"), name="torchrun")
    rank0 = make_row(11, ppid=10, rss=3 * GB)
    rank1 = make_row(12, ppid=10, rss=4 * GB)
    worker0 = make_row(13, ppid=11, name="pt_data_worker")
    worker1 = make_row(14, ppid=12, name="pt_data_worker")
    lone = make_row(20, ppid=1, rss=1)
    ordered = tree_rows([worker0, rank0, lone, worker1, launcher, rank1], "rss")
    assert [(row.process.pid, row.tree_prefix) for row in ordered] == [
        (20, ""),
        (10, ""),
        (12, "├─ "),
        (14, "│  └─ "),
        (11, "└─ "),
        (13, "   └─ "),
    ]


def test_order_rows_without_tree_is_flat() -> None:
    rows = [make_row(2, ppid=1), make_row(1)]
    assert all(row.tree_prefix == "" for row in order_rows(rows, "pid", tree=False))


def test_totals() -> None:
    rows = [make_row(1, rss=GB, cpu=10.0, gpu=GB, threads=3), make_row(2, rss=GB, cpu=5.5)]
    total = totals(rows)
    assert (total.processes, total.rss_bytes, total.cpu_percent) == (2, 2 * GB, 15.5)
    assert (total.threads, total.gpu_bytes) == (4, GB)


def test_unattributed_gpu_memory() -> None:
    device = GpuDevice(
        0, "GPU-x", "Fake", 80 * GB, 30 * GB, 50 * GB,
        (GpuProcess(1, 10 * GB), GpuProcess(2, None), GpuProcess(3, 5 * GB)),
    )  # fmt: skip
    assert unattributed_bytes(device, {1, 2}) == 20 * GB
    assert unattributed_bytes(device, set()) == 30 * GB
