"""The NVML seam: the real reader's logic against a stand-in for the pynvml module, the real
library without a driver (this machine), and the real library with one (marked gpu)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from dotdbg.gpu.nvml import GpuProcess, GpuSampler, GpuSnapshot, NvmlReader

GB = 2**30


class FakeNvmlError(Exception):
    pass


@dataclass
class FakeNvml:
    """Just the pynvml functions NvmlReader calls, over a list of fake devices."""

    devices: list[dict[str, Any]]
    init_error: str = ""
    has_v2: bool = True
    inits: int = 0
    shutdowns: int = 0

    NVMLError = FakeNvmlError
    nvmlMemory_v2 = 0x2000028

    def nvmlInit(self) -> None:
        self.inits += 1
        if self.init_error:
            raise FakeNvmlError(self.init_error)

    def nvmlShutdown(self) -> None:
        self.shutdowns += 1

    def nvmlDeviceGetCount(self) -> int:
        return len(self.devices)

    def nvmlDeviceGetHandleByIndex(self, index: int) -> dict[str, Any]:
        return self.devices[index]

    def nvmlDeviceGetMemoryInfo(self, handle: dict[str, Any], version: int | None = None) -> Any:
        if version is None:
            return SimpleNamespace(**handle["v1"])
        if not self.has_v2:
            raise FakeNvmlError("Function Not Found")
        assert version == self.nvmlMemory_v2
        return SimpleNamespace(**handle["v2"])

    def nvmlDeviceGetUUID(self, handle: dict[str, Any]) -> str:
        return str(handle["uuid"])

    def nvmlDeviceGetName(self, handle: dict[str, Any]) -> bytes:
        return str(handle["name"]).encode()  # older bindings return bytes

    def nvmlDeviceGetComputeRunningProcesses(self, handle: dict[str, Any]) -> list[Any]:
        return [SimpleNamespace(pid=pid, usedGpuMemory=used) for pid, used in handle["compute"]]

    def nvmlDeviceGetGraphicsRunningProcesses(self, handle: dict[str, Any]) -> list[Any]:
        if handle.get("graphics") is None:
            raise FakeNvmlError("Not Supported")
        return [SimpleNamespace(pid=pid, usedGpuMemory=used) for pid, used in handle["graphics"]]


def device(index: int, compute: list[Any], graphics: list[Any] | None = None) -> dict[str, Any]:
    return {
        "uuid": f"GPU-{index:04d}",
        "name": f"Fake GPU {index}",
        "v1": {"total": 80 * GB, "used": 11 * GB, "free": 69 * GB},  # counts the reservation
        "v2": {"total": 80 * GB, "used": 10 * GB, "free": 69 * GB},
        "compute": compute,
        "graphics": graphics,
    }


def test_reads_devices_with_v2_memory_and_processes() -> None:
    fake = FakeNvml([device(0, [(100, 4 * GB), (101, None)], [(102, GB)]), device(1, [])])
    snapshot = NvmlReader(fake).read()
    assert snapshot.available
    first, second = snapshot.devices
    assert (first.index, first.uuid, first.name) == (0, "GPU-0000", "Fake GPU 0")
    assert (first.total_bytes, first.used_bytes, first.free_bytes) == (80 * GB, 10 * GB, 69 * GB)
    assert first.processes == (GpuProcess(100, 4 * GB), GpuProcess(101, None), GpuProcess(102, GB))
    assert second.index == 1 and second.processes == ()
    assert snapshot.bytes_by_pid() == {100: 4 * GB, 101: None, 102: GB}


def test_device_whose_processes_nvml_cannot_list() -> None:
    fake = FakeNvml([device(0, [(100, GB)]), device(1, [])])
    fake.nvmlDeviceGetComputeRunningProcesses = _not_supported  # type: ignore[method-assign]
    fake.nvmlDeviceGetGraphicsRunningProcesses = _not_supported  # type: ignore[method-assign]
    snapshot = NvmlReader(fake).read()
    assert [gpu.processes_known for gpu in snapshot.devices] == [False, False]
    assert snapshot.attribution_problem(lambda pid: True) == (
        "NVML does not list the processes using the GPU"
    )


def test_one_listing_is_enough_to_know_the_processes() -> None:
    fake = FakeNvml([device(0, [(100, GB)], graphics=None)])  # graphics: Not Supported
    [only] = NvmlReader(fake).read().devices
    assert only.processes_known and only.processes == (GpuProcess(100, GB),)


@pytest.mark.parametrize(
    ("existing", "problem"),
    [
        ({100, 200}, ""),
        ({200}, ""),  # one gone since NVML listed it: still the same PID namespace
        (set(), "NVML's pids are not in this PID namespace (a container?)"),
    ],
)
def test_gpu_pids_from_another_pid_namespace(existing: set[int], problem: str) -> None:
    fake = FakeNvml([device(0, [(100, GB)]), device(1, [(200, GB)])])
    snapshot = NvmlReader(fake).read()
    assert snapshot.attribution_problem(existing.__contains__) == problem


def test_no_gpu_process_at_all_is_attributable() -> None:
    snapshot = NvmlReader(FakeNvml([device(0, [])])).read()
    assert snapshot.attribution_problem(lambda pid: False) == ""


def _not_supported(handle: object) -> list[Any]:
    raise FakeNvmlError("Not Supported")


def test_falls_back_to_v1_memory_on_old_drivers() -> None:
    fake = FakeNvml([device(0, [])], has_v2=False)
    [only] = NvmlReader(fake).read().devices
    assert only.used_bytes == 11 * GB


def test_per_process_memory_is_summed_over_devices() -> None:
    fake = FakeNvml([device(0, [(7, GB), (8, None)]), device(1, [(7, 2 * GB), (8, GB)])])
    assert NvmlReader(fake).read().bytes_by_pid() == {7: 3 * GB, 8: GB}


def test_no_driver_is_an_answer_not_an_exception_and_is_tried_once() -> None:
    fake = FakeNvml([], init_error="Driver Not Loaded")
    reader = NvmlReader(fake)
    first, second = reader.read(), reader.read()
    assert not first.available and first.devices == ()
    assert first.reason == "no usable NVIDIA driver (Driver Not Loaded)"
    assert second == first
    assert fake.inits == 1
    reader.close()
    assert fake.shutdowns == 0


def test_no_gpu_behind_a_driver() -> None:
    snapshot = NvmlReader(FakeNvml([])).read()
    assert not snapshot.available and snapshot.reason == "NVML found no GPU"


def test_close_shuts_nvml_down_once() -> None:
    fake = FakeNvml([device(0, [])])
    reader = NvmlReader(fake)
    reader.read()
    reader.close()
    reader.close()
    assert fake.shutdowns == 1


def test_sampler_reads_at_most_once_per_interval() -> None:
    reads = []

    class CountingReader:
        def read(self) -> GpuSnapshot:
            reads.append(1)
            return GpuSnapshot((), f"read {len(reads)}")

        def close(self) -> None:
            pass

    now = [0.0]
    sampler = GpuSampler(CountingReader(), min_interval=1.0, clock=lambda: now[0])
    seen = []
    for step in (0.0, 0.5, 0.99, 1.0, 1.5, 2.2):
        now[0] = step
        seen.append(sampler.snapshot().reason)
    assert seen == ["read 1", "read 1", "read 1", "read 2", "read 2", "read 3"]


def test_pynvml_comes_from_nvidia_ml_py_not_the_pynvml_project() -> None:
    """The `pynvml` project installs a start-up hook that slows every Python start."""
    from importlib import metadata

    names = {
        re.split(r"[<>=!~; \[]", requirement)[0]
        for requirement in metadata.requires("dotdbg") or []
    }
    assert "nvidia-ml-py" in names and "pynvml" not in names
    assert metadata.packages_distributions()["pynvml"] == ["nvidia-ml-py"]


def _has_nvidia_driver() -> bool:
    import pynvml

    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError:
        return False
    pynvml.nvmlShutdown()
    return True


HAS_DRIVER = _has_nvidia_driver()


@pytest.mark.skipif(HAS_DRIVER, reason="an NVIDIA driver is present")
def test_real_library_without_a_driver_degrades() -> None:
    reader = NvmlReader()
    snapshot = reader.read()
    reader.close()
    assert not snapshot.available
    assert snapshot.reason.startswith("no usable NVIDIA driver")


@pytest.mark.gpu
@pytest.mark.skipif(not HAS_DRIVER, reason="no NVIDIA driver")
def test_real_library_reads_the_devices() -> None:
    import pynvml

    reader = NvmlReader()
    snapshot = reader.read()
    reader.close()
    assert snapshot.available
    pynvml.nvmlInit()
    try:
        assert len(snapshot.devices) == pynvml.nvmlDeviceGetCount()
    finally:
        pynvml.nvmlShutdown()
    for gpu in snapshot.devices:
        assert gpu.uuid.startswith(("GPU-", "MIG-"))
        assert gpu.total_bytes > 0
        assert gpu.used_bytes + gpu.free_bytes <= gpu.total_bytes
        assert all(process.pid > 0 for process in gpu.processes)
