"""The CUDA driver API through ctypes: just enough of libcuda to hold GPU memory, no torch.

``LibCuda`` is the real implementation of gpu-fill's ``CudaDriver`` seam. It honours
``CUDA_VISIBLE_DEVICES`` and ``CUDA_DEVICE_ORDER`` the way every CUDA program does, because the
driver itself applies them: ordinal N here is ordinal N in the target program.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from typing import Any

CUDA_SUCCESS = 0
CUDA_ERROR_OUT_OF_MEMORY = 2
CUDA_ERROR_NO_DEVICE = 100

ERROR_NAMES = {
    0: "CUDA_SUCCESS",
    1: "CUDA_ERROR_INVALID_VALUE",
    2: "CUDA_ERROR_OUT_OF_MEMORY",
    3: "CUDA_ERROR_NOT_INITIALIZED",
    4: "CUDA_ERROR_DEINITIALIZED",
    46: "CUDA_ERROR_DEVICE_UNAVAILABLE",
    100: "CUDA_ERROR_NO_DEVICE",
    101: "CUDA_ERROR_INVALID_DEVICE",
    201: "CUDA_ERROR_INVALID_CONTEXT",
    304: "CUDA_ERROR_OPERATING_SYSTEM",
    802: "CUDA_ERROR_SYSTEM_NOT_READY",
    803: "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
    804: "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
    999: "CUDA_ERROR_UNKNOWN",
}

LIBRARY = "libcuda.so.1"


class CudaError(Exception):
    def __init__(self, call: str, code: int, name: str | None = None) -> None:
        self.call = call
        self.code = code
        self.name = name or ERROR_NAMES.get(code, f"CUDA error {code}")
        super().__init__(f"{call} failed: {self.name}")


class CudaUnavailable(Exception):
    """No driver library, no device, or a driver that will not start."""

    def __init__(self, message: str, no_device: bool = False) -> None:
        super().__init__(message)
        self.no_device = no_device


class _Uuid(ctypes.Structure):
    _fields_ = [("bytes", ctypes.c_ubyte * 16)]


def format_uuid(raw: bytes) -> str:
    """16 bytes as NVIDIA prints a UUID body: 8-4-4-4-12 hex digits (no GPU-/MIG- prefix)."""
    text = raw.hex()
    return f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"


def load_libcuda(loader: Callable[[str], Any] = ctypes.CDLL) -> LibCuda:
    try:
        library = loader(LIBRARY)
    except OSError as error:
        raise CudaUnavailable(f"no NVIDIA driver: cannot load {LIBRARY}") from error
    cuda = LibCuda(library)
    try:
        cuda.call("cuInit", 0)
    except CudaError as error:
        if error.code == CUDA_ERROR_NO_DEVICE:
            raise CudaUnavailable("no GPU: CUDA finds no device", no_device=True) from error
        raise CudaUnavailable(f"the CUDA driver does not start: {error.name}") from error
    return cuda


class LibCuda:
    def __init__(self, library: Any) -> None:
        self.library = library
        self.contexts: dict[int, ctypes.c_void_p] = {}

    def call(self, name: str, *args: Any) -> None:
        code = getattr(self.library, name)(*args)
        if code != CUDA_SUCCESS:
            raise CudaError(name, code, self._error_name(code))

    def _error_name(self, code: int) -> str | None:
        if code in ERROR_NAMES:
            return ERROR_NAMES[code]
        text = ctypes.c_char_p()
        if self.library.cuGetErrorName(code, ctypes.byref(text)) != CUDA_SUCCESS or not text.value:
            return None
        return text.value.decode()

    def _newest(self, name: str) -> str:
        """``name_v2`` where this driver has it (MIG-aware UUIDs, CUDA 11 context release)."""
        return f"{name}_v2" if hasattr(self.library, f"{name}_v2") else name

    def device_count(self) -> int:
        count = ctypes.c_int()
        self.call("cuDeviceGetCount", ctypes.byref(count))
        return count.value

    def device_uuid(self, ordinal: int) -> str:
        uuid = _Uuid()
        self.call(self._newest("cuDeviceGetUuid"), ctypes.byref(uuid), self._device(ordinal))
        return format_uuid(bytes(uuid.bytes))

    def activate(self, ordinal: int) -> None:
        """Retain the device's primary context (the one the runtime API shares) and use it."""
        if ordinal not in self.contexts:
            context = ctypes.c_void_p()
            self.call("cuDevicePrimaryCtxRetain", ctypes.byref(context), self._device(ordinal))
            self.contexts[ordinal] = context
        self.call("cuCtxSetCurrent", self.contexts[ordinal])

    def mem_info(self) -> tuple[int, int]:
        free, total = ctypes.c_size_t(), ctypes.c_size_t()
        self.call("cuMemGetInfo_v2", ctypes.byref(free), ctypes.byref(total))
        return free.value, total.value

    def alloc(self, size: int) -> int:
        pointer = ctypes.c_uint64()
        self.call("cuMemAlloc_v2", ctypes.byref(pointer), ctypes.c_size_t(size))
        return pointer.value

    def free(self, pointer: int) -> None:
        self.call("cuMemFree_v2", ctypes.c_uint64(pointer))

    def release(self, ordinal: int) -> None:
        if self.contexts.pop(ordinal, None) is not None:
            self.call(self._newest("cuDevicePrimaryCtxRelease"), self._device(ordinal))

    def _device(self, ordinal: int) -> ctypes.c_int:
        device = ctypes.c_int()
        self.call("cuDeviceGet", ctypes.byref(device), ordinal)
        return device
