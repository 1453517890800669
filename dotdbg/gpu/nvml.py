"""The NVML seam: GPU devices, their memory and which processes use it.

Callers depend on ``GpuReader``; ``NvmlReader`` (nvidia-ml-py, imported as ``pynvml``) is the real
one and tests pass fakes. A machine without a driver or a GPU is an ordinary answer
(``GpuSnapshot.available`` is false and ``reason`` says why), never an exception.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class GpuProcess:
    pid: int
    used_bytes: int | None  # None: NVML knows the process but not its memory (e.g. in containers)


@dataclass(frozen=True)
class GpuDevice:
    index: int
    uuid: str
    name: str
    total_bytes: int
    used_bytes: int
    free_bytes: int
    processes: tuple[GpuProcess, ...] = ()
    processes_known: bool = True  # False: NVML could not list the processes (not supported)


@dataclass(frozen=True)
class GpuSnapshot:
    devices: tuple[GpuDevice, ...] = ()
    reason: str = ""  # why there are no devices, when there are none

    @property
    def available(self) -> bool:
        return bool(self.devices)

    def bytes_by_pid(self) -> dict[int, int | None]:
        """GPU memory of each process, summed over devices; None where NVML cannot say."""
        totals: dict[int, int | None] = {}
        for device in self.devices:
            for process in device.processes:
                known, used = totals.get(process.pid), process.used_bytes
                if used is None:
                    totals.setdefault(process.pid, None)
                else:
                    totals[process.pid] = (known or 0) + used
        return totals

    def attribution_problem(self, pid_exists: Callable[[int], bool]) -> str:
        """Why GPU memory cannot be put against processes here, or "" when it can.

        NVML may not list a device's processes at all, and in a container without the host's PID
        namespace it lists pids that mean nothing here; then only per-device totals are true.
        """
        if not all(device.processes_known for device in self.devices):
            return "NVML does not list the processes using the GPU"
        pids = {process.pid for device in self.devices for process in device.processes}
        if pids and not any(pid_exists(pid) for pid in pids):
            return "NVML's pids are not in this PID namespace (a container?)"
        return ""


class GpuReader(Protocol):
    def read(self) -> GpuSnapshot: ...

    def close(self) -> None: ...


def unavailable(reason: str) -> GpuSnapshot:
    return GpuSnapshot((), reason)


class NvmlReader:
    """The real reader. Initialises NVML on the first read and remembers a failure for good, so a
    machine without a driver pays for the attempt once, not every refresh."""

    def __init__(self, library: Any = None) -> None:
        """``library`` stands in for the ``pynvml`` module (tests); by default it is imported."""
        self._library = library
        self._nvml: Any = None
        self._failure = ""

    def read(self) -> GpuSnapshot:
        nvml = self._ensure_initialised()
        if nvml is None:
            return unavailable(self._failure)
        try:
            count = nvml.nvmlDeviceGetCount()
            devices = tuple(_read_device(nvml, index) for index in range(count))
        except nvml.NVMLError as error:
            return unavailable(f"NVML: {error}")
        return GpuSnapshot(devices) if devices else unavailable("NVML found no GPU")

    def close(self) -> None:
        if self._nvml is not None:
            try:
                self._nvml.nvmlShutdown()
            except self._nvml.NVMLError:
                pass
            self._nvml = None

    def _ensure_initialised(self) -> Any:
        if self._nvml is not None or self._failure:
            return self._nvml
        library = self._library or _import_pynvml()
        if library is None:
            self._failure = "nvidia-ml-py is not installed"
            return None
        try:
            library.nvmlInit()
        except library.NVMLError as error:
            self._failure = f"no usable NVIDIA driver ({error})"
            return None
        self._nvml = library
        return library


def _import_pynvml() -> Any:
    try:
        import pynvml
    except ImportError:
        return None
    return pynvml


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _read_device(nvml: Any, index: int) -> GpuDevice:
    handle = nvml.nvmlDeviceGetHandleByIndex(index)
    total, used, free = _memory(nvml, handle)
    processes = _processes(nvml, handle)
    return GpuDevice(
        index=index,
        uuid=_text(nvml.nvmlDeviceGetUUID(handle)),
        name=_text(nvml.nvmlDeviceGetName(handle)),
        total_bytes=total,
        used_bytes=used,
        free_bytes=free,
        processes=processes if processes is not None else (),
        processes_known=processes is not None,
    )


def _memory(nvml: Any, handle: Any) -> tuple[int, int, int]:
    """total, used, free; v2 where the driver has it, since v1 counts reserved memory as used."""
    try:
        info = nvml.nvmlDeviceGetMemoryInfo(handle, version=nvml.nvmlMemory_v2)
    except (nvml.NVMLError, AttributeError, TypeError):
        info = nvml.nvmlDeviceGetMemoryInfo(handle)
    return int(info.total), int(info.used), int(info.free)


def _processes(nvml: Any, handle: Any) -> tuple[GpuProcess, ...] | None:
    """Compute and graphics processes; None when NVML can list neither."""
    found: dict[int, GpuProcess] = {}
    listed = False
    queries = (
        nvml.nvmlDeviceGetComputeRunningProcesses,
        nvml.nvmlDeviceGetGraphicsRunningProcesses,
    )
    for query in queries:
        try:
            infos = query(handle)
        except nvml.NVMLError:
            continue
        listed = True
        for info in infos:
            # nvidia-ml-py turns NVML_VALUE_NOT_AVAILABLE into None
            used = info.usedGpuMemory
            known = int(used) if used is not None else None
            found.setdefault(int(info.pid), GpuProcess(int(info.pid), known))
    return tuple(found.values()) if listed else None


@dataclass
class GpuSampler:
    """Reads at most once per ``min_interval`` seconds and hands out the last snapshot between."""

    reader: GpuReader
    min_interval: float = 1.0
    clock: Callable[[], float] = time.monotonic
    _last: GpuSnapshot | None = field(default=None, init=False)
    _read_at: float = field(default=0.0, init=False)

    def snapshot(self) -> GpuSnapshot:
        now = self.clock()
        if self._last is None or now - self._read_at >= self.min_interval:
            self._last = self.reader.read()
            self._read_at = now
        return self._last
