"""mem-fill's pure parts: meminfo, cgroup headroom, budget, steps, zram/zswap detection, noise."""

from __future__ import annotations

import errno
import mmap
import zlib
from pathlib import Path

import pytest

from dotdbg.errors import DotdbgError
from dotdbg.fill import mem as mem_fill
from dotdbg.fill import mem_budget
from dotdbg.fill.noise import Noise

MiB = 2**20


def test_meminfo_is_read_in_bytes() -> None:
    text = "MemTotal:       24683520 kB\nMemAvailable:   1024 kB\nHugePages_Total:       0\n"
    fields = mem_budget.parse_meminfo(text)
    assert fields == {
        "MemTotal": 24683520 * 1024,
        "MemAvailable": 1024 * 1024,
        "HugePages_Total": 0,
    }


def _group(root: Path, relative: str, files: dict[str, str]) -> None:
    directory = root / relative
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text)


def test_cgroup_v1_headroom_is_the_tightest_ancestor(tmp_path: Path) -> None:
    v1 = {"memory.limit_in_bytes": "9223372036854771712", "memory.usage_in_bytes": "5"}
    _group(tmp_path, "memory", v1)
    _group(
        tmp_path,
        "memory/outer",
        {"memory.limit_in_bytes": str(500 * MiB), "memory.usage_in_bytes": str(450 * MiB)},
    )
    _group(
        tmp_path,
        "memory/outer/inner",
        {"memory.limit_in_bytes": str(300 * MiB), "memory.usage_in_bytes": str(100 * MiB)},
    )
    proc = "12:memory:/outer/inner\n11:cpu,cpuacct:/outer\n"
    assert mem_budget.cgroup_headroom(proc, tmp_path) == 50 * MiB


def test_cgroup_v2_headroom_and_no_limit(tmp_path: Path) -> None:
    _group(tmp_path, "user.slice", {"memory.max": "max", "memory.current": "1"})
    _group(tmp_path, "user.slice/job", {"memory.max": str(2 * 2**30), "memory.current": str(2**30)})
    assert mem_budget.cgroup_headroom("0::/user.slice/job\n", tmp_path) == 2**30
    assert mem_budget.cgroup_headroom("0::/user.slice\n", tmp_path) is None


def test_unreadable_cgroup_means_no_limit(tmp_path: Path) -> None:
    assert mem_budget.cgroup_headroom("0::/not/there\n", tmp_path) is None


def test_budget_takes_the_tighter_room_minus_the_margin() -> None:
    margin = mem_budget.SAFETY_MARGIN
    assert mem_budget.fill_budget(10 * 2**30, None) == 10 * 2**30 - margin
    assert mem_budget.fill_budget(10 * 2**30, 2**30) == 2**30 - margin
    assert mem_budget.fill_budget(MiB, None) == 0


def test_target_past_the_budget_needs_force() -> None:
    with pytest.raises(DotdbgError, match=r"more than the 1\.00G") as caught:
        mem_budget.check_target(2 * 2**30, 2**30, force=False)
    assert "--force" in caught.value.hint
    mem_budget.check_target(2 * 2**30, 2**30, force=True)
    mem_budget.check_target(2**30, 2**30, force=False)


def test_a_zero_target_is_refused_even_with_force() -> None:
    with pytest.raises(DotdbgError, match="would commit nothing"):
        mem_budget.check_target(0, 2**30, force=True)


@pytest.mark.parametrize(
    ("target", "step", "steps"),
    [
        (10 * MiB, 4 * MiB, [4 * MiB, 4 * MiB, 2 * MiB]),
        (4 * MiB, 4 * MiB, [4 * MiB]),
        (1, MiB, [4096]),  # whole pages
        (3 * 4096, 1000, [4096] * 3),  # a step is whole pages too, or more would be committed
        (0, MiB, []),
    ],
)
def test_steps_add_up_to_the_target(target: int, step: int, steps: list[int]) -> None:
    assert mem_fill.plan_steps(target, step) == steps


def test_a_mapping_the_kernel_refuses_is_a_user_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> mmap.mmap:
        raise OSError(errno.ENOMEM, "Cannot allocate memory")

    filler = mem_fill.MemoryFiller(incompressible=False, method="populate-write")
    monkeypatch.setattr(mmap, "mmap", refuse)
    with pytest.raises(DotdbgError, match=r"refused to commit more memory after 0B \(Cannot"):
        filler.commit(MiB)
    assert filler.blocks == []


def test_zero_step_is_refused() -> None:
    with pytest.raises(DotdbgError, match="--step"):
        mem_fill.plan_steps(MiB, 0)


SWAPS_HEADER = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"


@pytest.mark.parametrize(
    ("zswap", "zram_devices", "swaps", "reason"),
    [
        ("Y", [], "", "zswap is enabled"),
        ("N", ["zram0"], "/dev/zram0  partition  4G  0  100\n", "/dev/zram0 is in use as swap"),
        ("N", ["zram0"], "", None),  # a zram device that is not swap compresses nothing of ours
        ("N", [], "/swapfile  file  4G  0  -2\n", None),
        (None, [], "", None),  # no zswap module at all
    ],
)
def test_compressed_swap_detection(
    tmp_path: Path, zswap: str | None, zram_devices: list[str], swaps: str, reason: str | None
) -> None:
    if zswap is not None:
        _group(tmp_path, "module/zswap/parameters", {"enabled": f"{zswap}\n"})
    for device in zram_devices:
        (tmp_path / "block" / device).mkdir(parents=True)
    assert mem_fill.compressed_swap(tmp_path, SWAPS_HEADER + swaps) == reason


def test_noise_pages_do_not_compress_and_never_repeat() -> None:
    noise = Noise(block_size=64 * 1024)
    data = b"".join(chunk for _, chunk in noise.chunks(1024 * 1024 + 100))
    assert len(data) == 1024 * 1024 + 100
    assert len(zlib.compress(data, 9)) > 0.99 * len(data)
    pages = {data[offset : offset + 4096] for offset in range(0, len(data) - 4096, 4096)}
    assert len(pages) == len(range(0, len(data) - 4096, 4096))
