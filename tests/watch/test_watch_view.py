from __future__ import annotations

import io
import json
import re

import pytest

from dotdbg.gpu.nvml import GpuDevice, GpuProcess, GpuSnapshot
from dotdbg.procs.procfs import EnvFacts
from dotdbg.procs.ranks import Ranks
from dotdbg.watch.rows import Row, totals
from dotdbg.watch.view import (
    Column,
    Snapshot,
    elapsed,
    fit,
    gigabytes,
    plain_text,
    rich_text,
    row_budget,
    snapshot_json,
    table_lines,
)
from tests.infra.spawner import make_row

GB = 2**30
NO_GPU = GpuSnapshot((), "no usable NVIDIA driver (NVML Shared Library Not Found)")
ONE_GPU = GpuSnapshot(
    (GpuDevice(0, "GPU-1234", "Fake A100", 80 * GB, 12 * GB, 68 * GB, (GpuProcess(1, 4 * GB),)),)
)


def snapshot_of(rows: list[Row], gpu: GpuSnapshot = NO_GPU, show_user: bool = False) -> Snapshot:
    return Snapshot(tuple(rows), totals(rows), gpu, show_user=show_user)


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "00:00"), (65.9, "01:05"), (3600, "01:00:00"), (90061, "1-01:01:01")],
)
def test_elapsed_like_ps(seconds: float, text: str) -> None:
    assert elapsed(seconds) == text


def test_gigabytes_has_three_decimals() -> None:
    assert gigabytes(300 * 2**20) == "0.293"
    assert gigabytes(None) == "n/a"


def test_plain_table_hides_empty_columns_and_ends_with_totals() -> None:
    rows = [make_row(1, rss=GB, cpu=12.34), make_row(22, ppid=1, rss=GB // 2)]
    lines = plain_text(snapshot_of(rows)).splitlines()
    assert lines[0].split() == ["PID", "PPID", "RSS_GB", "%CPU", "THR", "ELAPSED", "COMMAND"]
    assert lines[1].split() == ["1", "1", "1.000", "12.3", "1", "01:05", "train.py"]
    assert lines[-1].split() == ["2", "procs", "1.500", "12.3", "2", "total"]
    assert "\x1b" not in "".join(lines)


def test_numbers_are_right_aligned_under_their_header() -> None:
    rows = [make_row(1, rss=GB), make_row(123456, rss=12 * GB)]
    lines = plain_text(snapshot_of(rows)).splitlines()
    end = lines[0].index("RSS_GB") + len("RSS_GB")
    assert [line[end - 6 : end] for line in lines[1:3]] == [" 1.000", "12.000"]
    assert [line[end] for line in lines[1:3]] == [" ", " "]


def test_env_rank_and_launcher_columns_appear_when_someone_has_them() -> None:
    rows = [
        make_row(1, argv=("python", "/x/bin/torchrun", "t.py"), name="torchrun"),
        make_row(2, environ=EnvFacts("proj/.venv", Ranks(1, 0, None))),
        make_row(3, environ=None),  # another user's: unreadable
    ]
    lines = plain_text(snapshot_of(rows, show_user=True)).splitlines()
    assert lines[0].split()[-5:] == ["USER", "ENV", "RANK", "LAUNCHER", "COMMAND"]
    assert re.search(r"root  +-  +-  +torchrun  +torchrun t\.py$", lines[1])
    assert re.search(r"root  +proj/\.venv  +1/0  +train\.py$", lines[2])
    assert re.search(r"root  +n/a  +n/a  +train\.py$", lines[3])


def test_gpu_column_and_device_line_with_a_fake_device() -> None:
    rows = [make_row(1, gpu=4 * GB), make_row(2, gpu=0)]
    lines = plain_text(snapshot_of(rows, ONE_GPU)).splitlines()
    assert "GPU_GB" in lines[0].split()
    gpu_at = lines[0].split().index("GPU_GB")
    assert lines[1].split()[gpu_at] == "4.000"
    assert lines[-1] == (
        "GPU0 Fake A100: 12.000/80.000 GB used, 8.000 GB not attributed to a listed process"
    )


def test_rows_beyond_the_budget_are_counted_not_rendered() -> None:
    rows = [make_row(pid) for pid in range(1, 31)]
    lines = table_lines(snapshot_of(rows), max_rows=5)
    assert [line.kind for line in lines] == ["header"] + ["row"] * 5 + ["note", "total"]
    assert lines[6].text.startswith("… 25 more")
    assert lines[-1].text.split()[:2] == ["30", "procs"]


def test_row_budget_leaves_room_for_title_header_totals_and_gpus() -> None:
    assert row_budget(height=24, gpu_devices=0, rows=5) == 21
    assert row_budget(height=24, gpu_devices=2, rows=100) == 18
    assert row_budget(height=2, gpu_devices=0, rows=100) == 0


def test_rich_text_fits_the_terminal() -> None:
    rows = [make_row(pid, argv=("python", "x" * 300)) for pid in range(1, 100)]
    text = rich_text("title", snapshot_of(rows), height=20, width=80)
    lines = text.plain.splitlines()
    assert len(lines) == 20
    assert max(len(line) for line in lines) <= 80
    assert lines[0] == "title"


def test_json_has_bytes_and_nulls() -> None:
    rows = [make_row(7, ppid=3, rss=300 * 2**20, cpu=1.25, environ=None)]
    document = snapshot_json(snapshot_of(rows))
    json.dumps(document)
    [process] = document["processes"]
    assert process["pid"] == 7 and process["ppid"] == 3
    assert process["rss_bytes"] == 300 * 2**20
    assert process["cpu_percent"] == round(1.25, 1)
    assert process["command"] == "train.py"
    assert process["env"] is None and process["rank"] is None
    assert process["environ_readable"] is False
    assert process["gpu_memory_bytes"] is None
    assert document["gpus"] == []
    assert document["gpu_status"].startswith("no usable NVIDIA driver")


def test_json_gpus() -> None:
    document = snapshot_json(snapshot_of([make_row(1, gpu=4 * GB)], ONE_GPU))
    assert document["gpu_status"] == "ok"
    assert document["gpus"] == [
        {
            "index": 0,
            "uuid": "GPU-1234",
            "name": "Fake A100",
            "total_bytes": 80 * GB,
            "used_bytes": 12 * GB,
            "free_bytes": 68 * GB,
            "unattributed_bytes": 8 * GB,
        }
    ]
    assert document["processes"][0]["gpu_memory_bytes"] == 4 * GB


LONG = ("python", "train.py", "--config", "configs/a/very/long/experiment/path.yaml", "--lr=3e-4")


def rendered(snapshot: Snapshot, width: int) -> list[str]:
    """The live view as a rich console of that width prints it."""
    from rich.console import Console

    printed = io.StringIO()
    console = Console(width=width, file=printed, color_system=None, legacy_windows=False)
    console.print(rich_text("watch-python", snapshot, height=20, width=width))
    return printed.getvalue().splitlines()


@pytest.mark.parametrize(
    ("width", "header"),
    [
        (80, ["PID", "PPID", "RSS_GB", "%CPU", "THR", "ELAPSED", "ENV", "COMMAND"]),
        (60, ["PID", "RSS_GB", "%CPU", "THR", "ELAPSED", "ENV", "COMMAND"]),
        (40, ["PID", "RSS_GB", "%CPU", "ENV", "COMMAND"]),
    ],
)
def test_a_narrow_terminal_hides_minor_columns_and_cuts_the_command(
    width: int, header: list[str]
) -> None:
    venv = EnvFacts("myproject/.venv")  # as for any user working in a venv
    rows = [make_row(123456, argv=LONG, rss=12 * GB, environ=venv), make_row(7, ppid=123456)]
    lines = rendered(snapshot_of(rows), width)
    assert all(len(line) <= width for line in lines)
    assert lines[1].split() == header
    command_at = lines[1].index("COMMAND")
    assert lines[2][command_at:].startswith("train.py --c")  # cut, never dropped
    assert lines[2].endswith("…") and len(lines[2]) == width
    assert lines[3][command_at:] == "train.py"  # a short one is whole
    assert lines[-1].split()[:2] == ["2", "procs"]


def test_text_columns_are_cut_before_columns_are_hidden() -> None:
    rows = [make_row(1, environ=EnvFacts("projects/bigmodel/.venv", Ranks(1, 0, None)), argv=LONG)]
    lines = table_lines(snapshot_of(rows, show_user=True), width=80)
    assert lines[0].text.split()[-5:] == ["ELAPSED", "USER", "ENV", "RANK", "COMMAND"]
    assert " projects… 1/0 " in lines[1].text
    assert lines[1].text.endswith("…") and len(lines[1].text) == 80


def test_the_fit_works_for_any_column_set() -> None:
    # A column another feature adds (a HOST for a job on many nodes) is treated like the rest.
    specs = [
        Column("HOST", lambda r: "", right=False),
        Column("PID", lambda r: "", keep=99),
        Column("COMMAND", lambda r: "", right=False, keep=99),
    ]
    grid = [["HOST", "PID", "COMMAND"], ["node-0042.cluster.example", "4242", "x" * 100]]
    layout = fit(specs, grid, 40)
    lines = [layout.render(cells, specs) for cells in grid]
    assert lines[1] == "node-0042.cluster.ex… 4242 " + "x" * 12 + "…"
    assert fit(specs, grid, None).render(grid[1], specs).endswith("x" * 100)  # a pipe: whole


def test_one_process_is_one_proc() -> None:
    lines = table_lines(snapshot_of([make_row(1)]))
    assert lines[-1].text.split()[:2] == ["1", "proc"]
