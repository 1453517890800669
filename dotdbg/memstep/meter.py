"""Measuring a step: RSS from /proc/self, its peak reset at each step through clear_refs, and
PyTorch's CUDA allocator when the program uses it. Standard library only: ``dotdbg memstep``
loads this file by path into the user's interpreter, which may not have dotdbg installed.
"""

from __future__ import annotations

import functools
import os
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
UNITS = ("B", "K", "M", "G", "T")


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def reset_peak() -> bool:
    """VmHWM back to the current RSS (Linux 4.0+); False where that is not allowed."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        return True
    except OSError:
        return False


def peak_rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


class TorchCuda:
    """The CUDA caching allocator's figures, only when the program itself imported torch and
    initialized CUDA (measuring never starts a CUDA context)."""

    def _cuda(self) -> Any:
        torch = sys.modules.get("torch")
        cuda = getattr(torch, "cuda", None)
        if cuda is None or not cuda.is_available() or not cuda.is_initialized():
            return None
        return cuda

    def now(self) -> int | None:
        cuda = self._cuda()
        return None if cuda is None else int(cuda.memory_allocated())

    def reset_peak(self) -> None:
        cuda = self._cuda()
        if cuda is not None:
            cuda.reset_peak_memory_stats()

    def peak(self) -> int | None:
        cuda = self._cuda()
        return None if cuda is None else int(cuda.max_memory_allocated())


def size(num_bytes: float, signed: bool = False) -> str:
    sign = ("+" if num_bytes >= 0 else "-") if signed else ""
    value = abs(float(num_bytes))
    unit = 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value /= 1024
        unit += 1
    text = f"{value:.0f}{UNITS[unit]}" if unit == 0 else f"{value:.1f}{UNITS[unit]}"
    return sign + text


class Reading:
    def __init__(
        self,
        label: str,
        rss: int,
        rss_delta: int,
        rss_peak_delta: int | None,
        gpu: int | None,
        gpu_delta: int | None,
        gpu_peak_delta: int | None,
        seconds: float,
    ) -> None:
        self.label = label
        self.rss, self.rss_delta, self.rss_peak_delta = rss, rss_delta, rss_peak_delta
        self.gpu, self.gpu_delta, self.gpu_peak_delta = gpu, gpu_delta, gpu_peak_delta
        self.seconds = seconds

    def line(self) -> str:
        peak = "" if self.rss_peak_delta is None else f" (peak {size(self.rss_peak_delta, True)})"
        text = f"RSS {size(self.rss_delta, True):>8}{peak} = {size(self.rss)}"
        if self.gpu is not None and self.gpu_delta is not None:
            gpeak = (
                "" if self.gpu_peak_delta is None else f" (peak {size(self.gpu_peak_delta, True)})"
            )
            text += f"   GPU {size(self.gpu_delta, True):>8}{gpeak} = {size(self.gpu)}"
        return f"memstep: {self.label}: {text}   {self.seconds:.2f}s"

    def as_json(self) -> dict:  # type: ignore[type-arg]
        return dict(vars(self))


class Meter:
    """Steps measured one after another; each reading printed (to ``stream``, stderr by
    default) and kept in ``readings``."""

    def __init__(self, stream: TextIO | None = None, gpu: Any = None) -> None:
        self.stream = stream
        self.gpu = gpu if gpu is not None else TorchCuda()
        self.readings: list[Reading] = []
        self._since: tuple[int, int | None, float, bool] | None = None

    def start(self) -> None:
        peak_known = reset_peak()
        self.gpu.reset_peak()
        self._since = (rss_bytes(), self.gpu.now(), time.monotonic(), peak_known)

    def stop(self, label: str) -> Reading:
        if self._since is None:
            self.start()
        assert self._since is not None
        rss_before, gpu_before, started, peak_known = self._since
        rss, gpu, gpu_peak = rss_bytes(), self.gpu.now(), self.gpu.peak()
        gpu_start = gpu_before or 0
        reading = Reading(
            label,
            rss,
            rss - rss_before,
            peak_rss_bytes() - rss_before if peak_known else None,
            gpu,
            None if gpu is None else gpu - gpu_start,
            None if gpu_peak is None else gpu_peak - gpu_start,
            time.monotonic() - started,
        )
        self.readings.append(reading)
        print(reading.line(), file=self.stream or sys.stderr, flush=True)
        self._since = None
        return reading

    def step(self, label: Any) -> Any:
        """``with meter.step("load"):`` or ``@meter.step`` / ``@meter.step("label")``."""
        if callable(label):
            return _Step(self, _name_of(label))(label)
        return _Step(self, str(label))

    def mark(self, label: str) -> Reading:
        """From pdb: the growth since the previous mark (or the first one), then go on."""
        reading = self.stop(label)
        self.start()
        return reading


class _Step:
    def __init__(self, meter: Meter, label: str) -> None:
        self.meter = meter
        self.label = label

    def __enter__(self) -> _Step:
        self.meter.start()
        return self

    def __exit__(
        self, kind: type | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.meter.stop(self.label if kind is None else f"{self.label} (raised {kind.__name__})")

    def __call__(self, function: F) -> F:
        @functools.wraps(function)
        def measured(*args: Any, **kwargs: Any) -> Any:
            with _Step(self.meter, self.label):
                return function(*args, **kwargs)

        return measured  # type: ignore[return-value]


def _name_of(function: Callable[..., Any]) -> str:
    return getattr(function, "__qualname__", None) or repr(function)


METER = Meter()
step = METER.step
mark = METER.mark
