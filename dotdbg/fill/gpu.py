"""gpu-fill: leave exactly the asked GPU memory free, measured the way the target will see it.

Free memory is read after gpu-fill's own CUDA context exists (a context costs hundreds of MB,
which tools that measure first leave unaccounted), then taken in chunks through the driver API,
re-reading free memory after each chunk and halving the chunk on out-of-memory, until what is
left is the asked amount within one allocation granule. The CUDA driver and NVML are reached
through the two small interfaces below, so tests pass fakes and the real ones are the defaults.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from dotdbg.common import holding
from dotdbg.common.output import Report, reporter
from dotdbg.common.sizes import format_size
from dotdbg.errors import DotdbgError
from dotdbg.gpu.cuda import CUDA_ERROR_OUT_OF_MEMORY, CudaError, CudaUnavailable
from dotdbg.gpu.devices import parse_visible_devices, select_devices, uuid_body
from dotdbg.gpu.nvml import GpuReader
from dotdbg.gpu.nvml import NvmlReader as RealNvml

GRANULARITY = 2 * 2**20  # the driver hands out device memory in 2 MiB pages
MAX_CHUNK = 2**30
MAX_STALLS = 3  # allocations in a row that did not lower free memory
CONTEXT_COST = "300-500M"


say = reporter("gpu-fill")


class CudaDriver(Protocol):
    """What gpu-fill needs of the CUDA driver API; ``cuda.LibCuda`` is the real one."""

    def device_count(self) -> int: ...
    def device_uuid(self, ordinal: int) -> str: ...
    def activate(self, ordinal: int) -> None: ...
    def mem_info(self) -> tuple[int, int]: ...
    def alloc(self, size: int) -> int: ...
    def free(self, pointer: int) -> None: ...
    def release(self, ordinal: int) -> None: ...


@dataclass(frozen=True)
class GpuMemory:
    free: int
    total: int


class NvmlReader(Protocol):
    """Free and total memory of a device found by UUID body (no ``GPU-``/``MIG-`` prefix)."""

    def memory(self, uuid: str) -> GpuMemory | None: ...
    def close(self) -> None: ...


class SharedNvmlReader:
    """gpu-fill's NvmlReader on top of dotdbg's NVML seam (v2 memory info, never raises)."""

    def __init__(self, reader: GpuReader | None = None) -> None:
        self.reader = reader if reader is not None else RealNvml()

    def memory(self, uuid: str) -> GpuMemory | None:
        for device in self.reader.read().devices:
            if uuid_body(device.uuid) == uuid:  # CUDA gives the bare uuid
                return GpuMemory(device.free_bytes, device.total_bytes)
        return None

    def close(self) -> None:
        self.reader.close()


def default_nvml() -> NvmlReader:
    return SharedNvmlReader()


@dataclass(frozen=True)
class GpuFillOptions:
    leave: int | None = None
    take: int | None = None
    devices: tuple[str, ...] = ()
    hold_seconds: float | None = None


@dataclass
class DeviceFill:
    ordinal: int
    uuid: str
    total: int
    free_before: int
    target_free: int
    free_after: int = 0
    pointers: list[int] = field(default_factory=list)

    @property
    def taken(self) -> int:
        return self.free_before - self.free_after


# --- sizing and chunking (pure) ---------------------------------------------------------------


def target_free(free: int, leave: int | None, take: int | None) -> int:
    """Free memory to stop at: ``leave`` as asked, or what is free now minus ``take``."""
    if take is not None:
        return max(0, free - take)
    if leave is None:
        raise DotdbgError("say how much to leave free (--leave 3G) or to take (--take 10G)")
    return leave


def chunk_size(excess: int, limit: int) -> int:
    """The next allocation: at most ``limit``, whole granules, never past the target."""
    return max(0, min(limit, excess)) // GRANULARITY * GRANULARITY


def back_off(limit: int) -> int:
    """After out-of-memory: half the chunk, in whole granules (0 when nothing smaller is left)."""
    return limit // 2 // GRANULARITY * GRANULARITY


# --- filling ----------------------------------------------------------------------------------


def fill_device(cuda: CudaDriver, ordinal: int, options: GpuFillOptions) -> DeviceFill:
    cuda.activate(ordinal)  # before measuring: our own context's memory is already gone then
    free, total = cuda.mem_info()
    target = target_free(free, options.leave, options.take)
    device = DeviceFill(ordinal, cuda.device_uuid(ordinal), total, free, target, free)
    try:
        _take_down_to_target(cuda, device)
    except BaseException:  # a driver error or a stop signal midway: give back what was taken
        release_device(cuda, device)
        raise
    return device


def _take_down_to_target(cuda: CudaDriver, device: DeviceFill) -> None:
    limit, stalls = MAX_CHUNK, 0
    while (size := chunk_size(device.free_after - device.target_free, limit)) > 0:
        try:
            device.pointers.append(cuda.alloc(size))
        except CudaError as error:
            if error.code != CUDA_ERROR_OUT_OF_MEMORY:
                raise
            limit = back_off(size)
            continue
        free_now = cuda.mem_info()[0]
        stalls = stalls + 1 if free_now >= device.free_after else 0
        device.free_after = free_now
        if stalls >= MAX_STALLS:
            break


def release_device(cuda: CudaDriver, device: DeviceFill) -> None:
    cuda.activate(device.ordinal)
    while device.pointers:
        cuda.free(device.pointers.pop())
    cuda.release(device.ordinal)


def open_cuda(loader: Callable[[], CudaDriver]) -> CudaDriver:
    """The driver with at least one visible device, or a one-line error (exit code 2)."""
    try:
        cuda = loader()
        count = cuda.device_count()
    except CudaUnavailable as error:
        if error.no_device:
            raise DotdbgError(_no_device_message(), hint=NO_DEVICE_HINT) from error
        raise DotdbgError(str(error), hint=NO_DRIVER_HINT) from error
    if count == 0:
        raise DotdbgError(_no_device_message(), hint=NO_DEVICE_HINT)
    return cuda


NO_DRIVER_HINT = (
    "gpu-fill takes memory through the NVIDIA driver: run it on a machine with an NVIDIA GPU "
    "and its driver (nvidia-smi answers there)"
)
NO_DEVICE_HINT = "nvidia-smi -L lists the GPUs; CUDA_VISIBLE_DEVICES chooses which are seen"


def _no_device_message() -> str:
    visible = parse_visible_devices(os.environ.get("CUDA_VISIBLE_DEVICES"))
    if visible.value is None:
        return "no GPU: CUDA finds no device"
    return f"no GPU visible: {visible.explain()}"


def run_gpu_fill(
    options: GpuFillOptions,
    loader: Callable[[], CudaDriver],
    nvml_factory: Callable[[], NvmlReader] = default_nvml,
    report: Report = say,
) -> int:
    cuda = open_cuda(loader)
    uuids = [cuda.device_uuid(ordinal) for ordinal in range(cuda.device_count())]
    ordinals = select_devices(options.devices, uuids)
    report(parse_visible_devices(os.environ.get("CUDA_VISIBLE_DEVICES")).explain())
    nvml = nvml_factory()
    filled: list[DeviceFill] = []
    try:
        for ordinal in ordinals:
            report(_before_line(ordinal, uuids[ordinal], cuda, nvml))
            filled.append(_fill_or_explain(cuda, ordinal, options))
            report(_after_line(filled[-1], nvml))
        report(f"the target's own CUDA context will take about {CONTEXT_COST} of what is left")
        taken = sum(device.taken for device in filled)
        holding.hold_announced(options.hold_seconds, format_size(taken), report)
        return 0
    finally:
        for device in filled:
            release_device(cuda, device)
        if filled:
            report(f"released {format_size(sum(device.taken for device in filled))}")
        nvml.close()


def _fill_or_explain(cuda: CudaDriver, ordinal: int, options: GpuFillOptions) -> DeviceFill:
    try:
        return fill_device(cuda, ordinal, options)
    except CudaError as error:
        raise DotdbgError(f"GPU {ordinal}: {error}") from error


def _nvml_text(nvml: NvmlReader, uuid: str) -> str:
    memory = nvml.memory(uuid)
    return "NVML: unavailable" if memory is None else f"NVML: {format_size(memory.free)} free"


def _before_line(ordinal: int, uuid: str, cuda: CudaDriver, nvml: NvmlReader) -> str:
    cuda.activate(ordinal)
    free, total = cuda.mem_info()
    return (
        f"GPU {ordinal} (GPU-{uuid}): {format_size(free)} free of {format_size(total)} "
        f"with gpu-fill's own context in place; {_nvml_text(nvml, uuid)}"
    )


def _after_line(device: DeviceFill, nvml: NvmlReader) -> str:
    if device.free_before <= device.target_free:
        return f"GPU {device.ordinal}: nothing to take, {format_size(device.free_before)} is free"
    off = device.free_after - device.target_free
    return (
        f"GPU {device.ordinal}: took {format_size(device.taken)} in {len(device.pointers)} "
        f"allocation(s); {format_size(device.free_after)} free now (target "
        f"{format_size(device.target_free)}, off by {off:+d} bytes; the driver allocates in "
        f"{format_size(GRANULARITY, 0)} pages); {_nvml_text(nvml, device.uuid)}"
    )


def require_one_size(leave: int | None, take: int | None) -> None:
    if (leave is None) == (take is None):
        raise DotdbgError(
            "give exactly one of --leave and --take",
            hint="gpu-fill --leave 3G keeps 3G free; gpu-fill --take 10G takes 10G",
        )
