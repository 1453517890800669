"""The ctypes seam to libcuda, driven by a stand-in library object: argument passing through
pointers, UUID formatting, error names, and the no-driver / no-device paths. Plus the real path,
marked ``gpu``, which runs only where a driver and a GPU exist."""

from __future__ import annotations

import ctypes
import json
import signal
import subprocess
from typing import Any

import pytest

from dotdbg.gpu import cuda
from dotdbg.gpu.cuda import CudaError, CudaUnavailable, LibCuda, load_libcuda
from tests.fill.fill_support import Running, script

RAW_UUID = bytes.fromhex("8f2c1a5e0b6d4c1e9f3a1234567890ab")


def _target(pointer: Any) -> Any:
    """What a ``ctypes.byref`` argument points at."""
    return pointer._obj


class StandInLibrary:
    """Answers like libcuda.so.1 does; records the calls."""

    def __init__(self, init_code: int = 0, alloc_code: int = 0, with_v2: bool = True) -> None:
        self.init_code, self.alloc_code = init_code, alloc_code
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        if with_v2:
            self.cuDeviceGetUuid_v2 = self._uuid("cuDeviceGetUuid_v2")
            self.cuDevicePrimaryCtxRelease_v2 = self._record("cuDevicePrimaryCtxRelease_v2")
        else:
            self.cuDeviceGetUuid = self._uuid("cuDeviceGetUuid")
            self.cuDevicePrimaryCtxRelease = self._record("cuDevicePrimaryCtxRelease")

    def _record(self, name: str) -> Any:
        def call(*args: Any) -> int:
            self.calls.append((name, tuple(getattr(arg, "value", arg) for arg in args)))
            return 0

        return call

    def _uuid(self, name: str) -> Any:
        def get(uuid: Any, device: ctypes.c_int) -> int:
            self.calls.append((name, (device.value,)))
            ctypes.memmove(ctypes.addressof(_target(uuid)), RAW_UUID, 16)
            return 0

        return get

    def cuInit(self, flags: int) -> int:
        return self.init_code

    def cuDeviceGetCount(self, count: Any) -> int:
        _target(count).value = 2
        return 0

    def cuDeviceGet(self, device: Any, ordinal: int) -> int:
        _target(device).value = 10 + ordinal
        return 0

    def cuDevicePrimaryCtxRetain(self, context: Any, device: ctypes.c_int) -> int:
        _target(context).value = 0xC0 + device.value
        self.calls.append(("retain", (device.value,)))
        return 0

    def cuCtxSetCurrent(self, context: ctypes.c_void_p) -> int:
        self.calls.append(("current", (context.value,)))
        return 0

    def cuMemGetInfo_v2(self, free: Any, total: Any) -> int:
        _target(free).value, _target(total).value = 3 << 30, 16 << 30
        return 0

    def cuMemAlloc_v2(self, pointer: Any, size: ctypes.c_size_t) -> int:
        if self.alloc_code:
            return self.alloc_code
        _target(pointer).value = 0x7F00_0000_0000 + size.value
        return 0

    def cuMemFree_v2(self, pointer: ctypes.c_uint64) -> int:
        self.calls.append(("free", (pointer.value,)))
        return 0

    def cuGetErrorName(self, code: int, text: Any) -> int:
        _target(text).value = b"CUDA_ERROR_ILLEGAL_ADDRESS"
        return 0


def test_values_travel_through_pointers_both_ways() -> None:
    library = StandInLibrary()
    driver = LibCuda(library)
    assert driver.device_count() == 2
    driver.activate(1)
    driver.activate(1)  # the primary context is retained once, made current each time
    assert [name for name, _ in library.calls].count("retain") == 1
    assert ("current", (0xC0 + 11,)) in library.calls
    assert driver.mem_info() == (3 << 30, 16 << 30)
    pointer = driver.alloc(1 << 20)
    assert pointer == 0x7F00_0000_0000 + (1 << 20)
    driver.free(pointer)
    assert library.calls[-1] == ("free", (pointer,))
    driver.release(1)
    assert library.calls[-1] == ("cuDevicePrimaryCtxRelease_v2", (11,))


@pytest.mark.parametrize("with_v2", [True, False])
def test_uuid_is_formatted_like_nvidia_smi_with_the_newest_call(with_v2: bool) -> None:
    library = StandInLibrary(with_v2=with_v2)
    assert LibCuda(library).device_uuid(0) == "8f2c1a5e-0b6d-4c1e-9f3a-1234567890ab"
    assert library.calls[-1][0] == ("cuDeviceGetUuid_v2" if with_v2 else "cuDeviceGetUuid")


def test_out_of_memory_is_code_2_by_name() -> None:
    with pytest.raises(CudaError) as caught:
        LibCuda(StandInLibrary(alloc_code=2)).alloc(1 << 30)
    assert (caught.value.code, caught.value.name) == (
        cuda.CUDA_ERROR_OUT_OF_MEMORY,
        "CUDA_ERROR_OUT_OF_MEMORY",
    )
    assert str(caught.value) == "cuMemAlloc_v2 failed: CUDA_ERROR_OUT_OF_MEMORY"


def test_codes_without_a_table_entry_are_named_by_the_driver() -> None:
    with pytest.raises(CudaError, match="CUDA_ERROR_ILLEGAL_ADDRESS"):
        LibCuda(StandInLibrary(alloc_code=700)).alloc(1)


def test_missing_library_means_no_driver() -> None:
    def missing(name: str) -> Any:
        raise OSError(f"{name}: cannot open shared object file")

    with pytest.raises(CudaUnavailable, match=r"no NVIDIA driver: cannot load libcuda\.so\.1"):
        load_libcuda(missing)


@pytest.mark.parametrize(
    ("code", "message", "no_device"),
    [
        (100, "no GPU: CUDA finds no device", True),
        (999, "the CUDA driver does not start: CUDA_ERROR_UNKNOWN", False),
    ],
)
def test_cu_init_failures(code: int, message: str, no_device: bool) -> None:
    with pytest.raises(CudaUnavailable) as caught:
        load_libcuda(lambda name: StandInLibrary(init_code=code))
    assert (str(caught.value), caught.value.no_device) == (message, no_device)


@pytest.fixture
def real_gpu() -> LibCuda:
    try:
        driver = load_libcuda()
    except CudaUnavailable as error:
        pytest.skip(str(error))
    if driver.device_count() == 0:
        pytest.skip("no GPU visible")
    return driver


@pytest.mark.gpu
def test_real_gpu_fill_leaves_what_was_asked(real_gpu: LibCuda, start: type[Running]) -> None:
    import pynvml

    pynvml.nvmlInit()
    uuid = "GPU-" + real_gpu.device_uuid(0)
    handle = pynvml.nvmlDeviceGetHandleByUUID(uuid)
    before = pynvml.nvmlDeviceGetMemoryInfo(handle).free
    filler = start([script("gpu-fill"), "--take", "256M", "--device", "0"])
    filler.wait_for("holding")
    during = pynvml.nvmlDeviceGetMemoryInfo(handle).free
    assert before - during >= 256 << 20  # the fill, plus gpu-fill's own context
    filler.process.send_signal(signal.SIGTERM)
    assert filler.finish() == 143
    assert "released" in filler.lines[-1]
    pynvml.nvmlShutdown()


@pytest.mark.gpu
def test_real_gpu_fill_leave_lands_within_one_page(real_gpu: LibCuda, start: type[Running]) -> None:
    real_gpu.activate(0)
    free = real_gpu.mem_info()[0]
    # Far more than gpu-fill's own context (510M on an H100; 512M left it nothing to take).
    leave = max(free - (2 << 30), 0) // (1 << 20)
    filler = start([script("gpu-fill"), "--leave", f"{leave}M", "--device", "0"])
    off = int(filler.wait_for(r"off by ([+-]\d+) bytes")[1])
    assert 0 <= off < 2 << 20
    filler.process.send_signal(signal.SIGINT)
    assert filler.finish() == 130


@pytest.mark.gpu
def test_real_gpu_fill_shows_in_watch_python_against_its_pid(
    real_gpu: LibCuda, start: type[Running]
) -> None:
    """What a process holds on a real GPU, watch-python puts against that pid, as NVML lists it
    (the figure nvidia-smi shows), and does not count it among what no row accounts for."""
    import pynvml

    filler = start([script("gpu-fill"), "--take", "256M", "--device", "0"])
    filler.wait_for("holding")
    done = subprocess.run(
        [script("watch-python"), "--json", "-p", "gpu-fill"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    snapshot = json.loads(done.stdout)
    assert (snapshot["gpu_status"], snapshot["gpu_per_process"]) == ("ok", "ok")
    [row] = [p for p in snapshot["processes"] if p["pid"] == filler.process.pid]
    uuid = "GPU-" + real_gpu.device_uuid(0)
    pynvml.nvmlInit()
    try:
        handle = pynvml.nvmlDeviceGetHandleByUUID(uuid)
        processes = pynvml.nvmlDeviceGetComputeRunningProcesses(handle)
    finally:
        pynvml.nvmlShutdown()
    listed = {process.pid: process.usedGpuMemory for process in processes}
    assert row["gpu_memory_bytes"] == listed[filler.process.pid] >= 256 << 20
    [device] = [gpu for gpu in snapshot["gpus"] if gpu["uuid"] == uuid]
    assert device["unattributed_bytes"] <= device["used_bytes"] - row["gpu_memory_bytes"]
