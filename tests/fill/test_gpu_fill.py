"""gpu-fill against fakes of the CUDA driver and NVML (this machine has no GPU): sizing, chunking
and back-off, several devices, release on every way out, and the no-driver path for real."""

from __future__ import annotations

import ctypes
import signal
import subprocess

import pytest

from dotdbg.common import holding
from dotdbg.errors import DotdbgError
from dotdbg.fill import gpu as gpu_fill
from dotdbg.fill.gpu import GRANULARITY, GpuFillOptions
from dotdbg.gpu.cuda import LIBRARY, CudaError, CudaUnavailable
from tests.fill.fake_gpu import FakeCuda, FakeGpu, FakeNvml, GiB, MiB
from tests.fill.fill_support import script

UUID_A = "8f2c1a5e-0b6d-4c1e-9f3a-1234567890ab"
UUID_B = "8f2c77aa-0000-4c1e-9f3a-abcdefabcdef"


def run(
    cuda: FakeCuda, options: GpuFillOptions, nvml: FakeNvml | None = None
) -> tuple[int, list[str]]:
    lines: list[str] = []
    code = gpu_fill.run_gpu_fill(
        options,
        loader=lambda: cuda,
        nvml_factory=lambda: nvml or FakeNvml(cuda),
        report=lines.append,
    )
    return code, lines


@pytest.fixture(autouse=True)
def _no_visible_devices_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)


def test_leave_is_measured_after_gpu_fills_own_context() -> None:
    gpu = FakeGpu(UUID_A, total=16 * GiB, used_by_others=1 * GiB, context_cost=400 * MiB)
    cuda = FakeCuda(gpu)
    device = gpu_fill.fill_device(cuda, 0, GpuFillOptions(leave=3 * GiB))
    assert device.free_before == 16 * GiB - 1 * GiB - 400 * MiB  # the context is already paid
    assert 3 * GiB <= gpu.free < 3 * GiB + GRANULARITY
    assert device.free_after == gpu.free
    assert device.taken == sum(gpu.allocations.values())


def test_take_takes_that_much_of_what_is_free() -> None:
    gpu = FakeGpu(UUID_A, total=16 * GiB)
    device = gpu_fill.fill_device(FakeCuda(gpu), 0, GpuFillOptions(take=5 * GiB + 3 * MiB))
    assert 5 * GiB + 3 * MiB - GRANULARITY < device.taken <= 5 * GiB + 3 * MiB


def test_chunks_are_at_most_one_gib_and_whole_pages() -> None:
    cuda = FakeCuda(FakeGpu(UUID_A, total=8 * GiB, context_cost=0))
    gpu_fill.fill_device(cuda, 0, GpuFillOptions(leave=1 * GiB + 5 * MiB))
    assert cuda.requests == [GiB] * 6 + [GiB - 6 * MiB]  # the last 1 GiB - 5 MiB in whole pages


def test_out_of_memory_halves_the_chunk_until_it_fits() -> None:
    gpu = FakeGpu(UUID_A, total=4 * GiB, context_cost=0, largest_block=300 * MiB)
    cuda = FakeCuda(gpu)
    gpu_fill.fill_device(cuda, 0, GpuFillOptions(leave=1 * GiB))
    assert cuda.requests[:3] == [GiB, 512 * MiB, 256 * MiB]
    assert max(gpu.allocations.values()) == 256 * MiB
    assert 1 * GiB <= gpu.free < 1 * GiB + GRANULARITY


def test_a_driver_that_refuses_everything_ends_the_fill_without_looping() -> None:
    gpu = FakeGpu(UUID_A, total=4 * GiB, context_cost=0, largest_block=1 * MiB)
    cuda = FakeCuda(gpu)
    device = gpu_fill.fill_device(cuda, 0, GpuFillOptions(leave=1 * GiB))
    assert device.pointers == [] and device.taken == 0
    assert cuda.requests[-1] == GRANULARITY


def test_a_driver_whose_free_memory_never_drops_ends_the_fill() -> None:
    class Stuck(FakeCuda):
        def mem_info(self) -> tuple[int, int]:
            return 4 * GiB, 8 * GiB

    cuda = Stuck(FakeGpu(UUID_A, total=8 * GiB))
    gpu_fill.fill_device(cuda, 0, GpuFillOptions(leave=1 * GiB))
    assert len(cuda.requests) == gpu_fill.MAX_STALLS


@pytest.mark.parametrize(
    ("excess", "limit", "chunk"),
    [(5 * GiB, GiB, GiB), (3 * MiB, GiB, 2 * MiB), (1 * MiB, GiB, 0), (-1, GiB, 0)],
)
def test_chunk_size(excess: int, limit: int, chunk: int) -> None:
    assert gpu_fill.chunk_size(excess, limit) == chunk


def test_every_visible_device_is_filled_and_everything_is_released(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gpus = FakeGpu(UUID_A, total=16 * GiB), FakeGpu(UUID_B, total=24 * GiB, used_by_others=GiB)
    cuda = FakeCuda(*gpus)
    nvml = FakeNvml(cuda)
    levels: list[int] = []
    original_hold = holding.hold

    def watch_hold(seconds: float | None) -> None:
        levels.extend(gpu.free for gpu in gpus)
        original_hold(seconds)

    monkeypatch.setattr(holding, "hold", watch_hold)
    code, lines = run(cuda, GpuFillOptions(leave=2 * GiB, hold_seconds=0), nvml)
    assert code == 0
    assert len(levels) == 2
    assert all(2 * GiB <= level < 2 * GiB + GRANULARITY for level in levels)
    assert all(not gpu.allocations and not gpu.has_context for gpu in gpus)
    assert nvml.closed
    assert lines[-1].startswith("released ")


def test_report_gives_cuda_and_nvml_before_and_after_and_warns_about_the_context() -> None:
    cuda = FakeCuda(FakeGpu(UUID_A, total=16 * GiB, context_cost=300 * MiB))
    _, lines = run(cuda, GpuFillOptions(leave=3 * GiB, hold_seconds=0))
    before, after = lines[1], lines[2]
    assert before == (
        f"GPU 0 (GPU-{UUID_A}): 15.71G free of 16.00G with gpu-fill's own context in place; "
        "NVML: 15.70G free"
    )
    assert after.startswith("GPU 0: took 12.71G in 13 allocation(s); 3.00G free now (target 3.00G")
    assert after.endswith("the driver allocates in 2M pages); NVML: 2.99G free")
    assert "the target's own CUDA context will take about 300-500M" in lines[3]


def test_nvml_missing_is_said_not_fatal() -> None:
    class NoNvml(FakeNvml):
        def memory(self, uuid: str) -> None:
            return None

    cuda = FakeCuda(FakeGpu(UUID_A, total=4 * GiB))
    code, lines = run(cuda, GpuFillOptions(take=GiB, hold_seconds=0), NoNvml(cuda))
    assert code == 0
    assert lines[1].endswith("NVML: unavailable")


def test_nothing_to_take_when_less_than_leave_is_free() -> None:
    gpu = FakeGpu(UUID_A, total=4 * GiB, used_by_others=3 * GiB)
    code, lines = run(FakeCuda(gpu), GpuFillOptions(leave=2 * GiB, hold_seconds=0))
    assert code == 0
    assert lines[2] == "GPU 0: nothing to take, 724.00M is free"
    assert gpu.allocations == {}


def test_sigterm_while_holding_releases_every_device(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(seconds: float | None) -> None:
        raise holding.Stopped(signal.SIGTERM)

    monkeypatch.setattr(holding, "hold", stopped)
    gpus = FakeGpu(UUID_A, total=8 * GiB), FakeGpu(UUID_B, total=8 * GiB)
    with pytest.raises(holding.Stopped):
        run(FakeCuda(*gpus), GpuFillOptions(leave=GiB))
    assert all(not gpu.allocations and not gpu.has_context for gpu in gpus)


def test_a_driver_error_on_the_second_device_still_releases_the_first() -> None:
    class Broken(FakeCuda):
        def alloc(self, size: int) -> int:
            if self.current is self.gpus[1]:
                raise CudaError("cuMemAlloc_v2", 999)
            return super().alloc(size)

    gpus = FakeGpu(UUID_A, total=8 * GiB), FakeGpu(UUID_B, total=8 * GiB)
    with pytest.raises(DotdbgError, match="GPU 1: cuMemAlloc_v2 failed: CUDA_ERROR_UNKNOWN"):
        run(Broken(*gpus), GpuFillOptions(leave=GiB, hold_seconds=0))
    assert gpus[0].allocations == {} and not gpus[0].has_context
    assert not gpus[1].has_context


def test_a_stop_signal_midway_through_a_device_gives_its_memory_back() -> None:
    class Interrupted(FakeCuda):
        def alloc(self, size: int) -> int:
            if len(self.requests) == 3:
                raise holding.Stopped(signal.SIGINT)
            return super().alloc(size)

    gpu = FakeGpu(UUID_A, total=8 * GiB)
    with pytest.raises(holding.Stopped):
        gpu_fill.fill_device(Interrupted(gpu), 0, GpuFillOptions(leave=GiB))
    assert gpu.allocations == {} and not gpu.has_context


def test_device_option_picks_by_ordinal_and_uuid_prefix() -> None:
    gpus = [FakeGpu(UUID_A, total=8 * GiB), FakeGpu(UUID_B, total=8 * GiB)]
    cuda = FakeCuda(*gpus)
    run(cuda, GpuFillOptions(leave=GiB, devices=("GPU-8f2c77",), hold_seconds=0))
    assert set(cuda.activated) == {1}
    run(cuda, GpuFillOptions(leave=GiB, devices=("1", "0", "GPU-8f2c77"), hold_seconds=0))
    assert cuda.activated[-6:] == [1, 1, 0, 0, 1, 0]  # (report, fill) per device, then release


def test_sizes_must_be_given_exactly_once() -> None:
    with pytest.raises(DotdbgError, match="exactly one"):
        gpu_fill.require_one_size(None, None)
    with pytest.raises(DotdbgError, match="exactly one"):
        gpu_fill.require_one_size(GiB, GiB)


def _driver_loads() -> bool:
    try:
        ctypes.CDLL(LIBRARY)
    except OSError:
        return False
    return True


@pytest.mark.skipif(_driver_loads(), reason=f"this machine has an NVIDIA driver ({LIBRARY})")
def test_no_driver_is_one_line_and_exit_2_on_this_machine() -> None:
    """Asked before gpu-fill runs: with a driver, gpu-fill would fill every GPU and hold it
    until signalled (it did, on an H100, until the test's timeout)."""
    done = subprocess.run(
        [script("gpu-fill"), "--leave", "1G"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "gpu-fill: error: no NVIDIA driver: cannot load libcuda.so.1",
        f"hint: {gpu_fill.NO_DRIVER_HINT}",
    ]


@pytest.mark.parametrize(
    ("visible", "message"),
    [
        (None, "no GPU: CUDA finds no device"),
        ("", "no GPU visible: CUDA_VISIBLE_DEVICES='': CUDA uses no device"),
        ("-1", "no GPU visible: CUDA_VISIBLE_DEVICES='-1': CUDA uses no device, ignoring '-1'"),
    ],
)
def test_no_device_explains_cuda_visible_devices(
    monkeypatch: pytest.MonkeyPatch, visible: str | None, message: str
) -> None:
    if visible is not None:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", visible)

    def no_device() -> FakeCuda:
        raise CudaUnavailable("no GPU: CUDA finds no device", no_device=True)

    with pytest.raises(DotdbgError) as caught:
        gpu_fill.open_cuda(no_device)
    assert caught.value.message.startswith(message)
    with pytest.raises(DotdbgError) as empty:
        gpu_fill.open_cuda(lambda: FakeCuda())
    assert empty.value.message.startswith(message)


def test_shared_nvml_reader_joins_cuda_and_nvml_by_uuid() -> None:
    from dotdbg.fill.gpu import GpuMemory, SharedNvmlReader
    from dotdbg.gpu.nvml import GpuDevice, GpuSnapshot

    class Reader:
        closed = False

        def read(self) -> GpuSnapshot:
            return GpuSnapshot(
                devices=(
                    GpuDevice(0, "GPU-aaaa-1111", "A100", 80 * GiB, 10 * GiB, 70 * GiB),
                    GpuDevice(1, "MIG-bbbb-2222", "A100 MIG", 10 * GiB, 1 * GiB, 9 * GiB),
                )
            )

        def close(self) -> None:
            self.closed = True

    reader = Reader()
    nvml = SharedNvmlReader(reader)
    assert nvml.memory("aaaa-1111") == GpuMemory(70 * GiB, 80 * GiB)
    assert nvml.memory("bbbb-2222") == GpuMemory(9 * GiB, 10 * GiB)
    assert nvml.memory("cccc") is None
    nvml.close()
    assert reader.closed


def test_shared_nvml_reader_without_a_driver_reports_nothing() -> None:
    from dotdbg.fill.gpu import default_nvml

    nvml = default_nvml()
    assert nvml.memory("aaaa-1111") is None
    nvml.close()
