"""Holding a resource until a timeout, Ctrl-C or SIGTERM, and always letting it go.

Shared by mem-fill, disk-fill and gpu-fill. Inside ``stop_on_signals()`` both SIGINT and SIGTERM
raise ``Stopped``, so every ``finally:`` that releases memory, a file or a GPU allocation runs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator
from types import FrameType

from dotdbg.common.output import Report
from dotdbg.errors import Stopped

__all__ = ["STOP_SIGNALS", "Stopped", "hold", "hold_announced", "stop_on_signals"]

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _raise_stopped(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals(signals: tuple[int, ...] = STOP_SIGNALS) -> Iterator[None]:
    previous = {signum: signal.signal(signum, _raise_stopped) for signum in signals}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def hold(seconds: float | None) -> None:
    """Sleep for ``seconds`` (forever when None); a stop signal raises ``Stopped``."""
    deadline = None if seconds is None else time.monotonic() + seconds
    while deadline is None or time.monotonic() < deadline:
        remaining = 3600.0 if deadline is None else deadline - time.monotonic()
        time.sleep(max(0.0, min(remaining, 3600.0)))


def hold_announced(seconds: float | None, what: str, report: Report) -> None:
    until = "until Ctrl-C or SIGTERM" if seconds is None else f"for {seconds:g}s (or to Ctrl-C)"
    report(f"holding {what} (pid {os.getpid()}) {until}")
    hold(seconds)
