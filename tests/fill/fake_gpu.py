"""A fake CUDA driver and NVML for gpu-fill's seams: GPUs as numbers that behave like the driver.

Like the real driver, a context costs memory when it is first made, allocations are rounded up
to 2 MiB pages, and out-of-memory comes back as CUDA_ERROR_OUT_OF_MEMORY. ``largest_block``
plays fragmentation: a single allocation above it fails even when enough memory is free.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dotdbg.fill.gpu import GpuMemory
from dotdbg.gpu.cuda import CUDA_ERROR_OUT_OF_MEMORY, CudaError

MiB = 2**20
GiB = 2**30
PAGE = 2 * MiB


@dataclass
class FakeGpu:
    uuid: str
    total: int
    used_by_others: int = 0
    context_cost: int = 300 * MiB
    largest_block: int | None = None
    has_context: bool = False
    allocations: dict[int, int] = field(default_factory=dict)

    @property
    def free(self) -> int:
        context = self.context_cost if self.has_context else 0
        return self.total - self.used_by_others - context - sum(self.allocations.values())


class FakeCuda:
    def __init__(self, *gpus: FakeGpu) -> None:
        self.gpus = list(gpus)
        self.current: FakeGpu | None = None
        self.requests: list[int] = []
        self.activated: list[int] = []
        self.next_pointer = 0x7F0000000000

    def device_count(self) -> int:
        return len(self.gpus)

    def device_uuid(self, ordinal: int) -> str:
        return self.gpus[ordinal].uuid

    def activate(self, ordinal: int) -> None:
        self.current = self.gpus[ordinal]
        self.activated.append(ordinal)
        self.current.has_context = True

    def mem_info(self) -> tuple[int, int]:
        assert self.current is not None, "cuMemGetInfo without a current context"
        return self.current.free, self.current.total

    def alloc(self, size: int) -> int:
        gpu = self.current
        assert gpu is not None, "cuMemAlloc without a current context"
        self.requests.append(size)
        rounded = -(-size // PAGE) * PAGE
        if rounded > gpu.free or (gpu.largest_block is not None and size > gpu.largest_block):
            raise CudaError("cuMemAlloc_v2", CUDA_ERROR_OUT_OF_MEMORY)
        self.next_pointer += rounded
        gpu.allocations[self.next_pointer] = rounded
        return self.next_pointer

    def free(self, pointer: int) -> None:
        assert self.current is not None
        del self.current.allocations[pointer]

    def release(self, ordinal: int) -> None:
        self.gpus[ordinal].has_context = False


class FakeNvml:
    """NVML sees the same GPUs, by UUID, a little differently (it counts reserved memory)."""

    def __init__(self, cuda: FakeCuda, reserved: int = 10 * MiB) -> None:
        self.cuda = cuda
        self.reserved = reserved
        self.closed = False

    def memory(self, uuid: str) -> GpuMemory | None:
        for gpu in self.cuda.gpus:
            if gpu.uuid == uuid:
                return GpuMemory(gpu.free - self.reserved, gpu.total)
        return None

    def close(self) -> None:
        self.closed = True
