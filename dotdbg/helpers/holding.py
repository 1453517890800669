"""Holding a resource until a timeout, Ctrl-C or SIGTERM, and always letting it go.

Shared by mem-fill, disk-fill and gpu-fill. Inside ``stop_on_signals()`` both SIGINT and SIGTERM
raise ``Stopped``, so every ``finally:`` that releases memory, a file or a GPU allocation runs.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from types import FrameType

from dotdbg.errors import DotdbgError

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
CHILD_GRACE_SECONDS = 5.0


class Stopped(BaseException):
    """SIGINT or SIGTERM arrived; a BaseException so no ``except Exception`` swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def _raise_stopped(signum: int, _frame: FrameType | None) -> None:
    raise Stopped(signum)


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    previous = {signum: signal.signal(signum, _raise_stopped) for signum in STOP_SIGNALS}
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


def hold_announced(seconds: float | None, what: str, report: Callable[[str], None]) -> None:
    until = "until Ctrl-C or SIGTERM" if seconds is None else f"for {seconds:g}s (or to Ctrl-C)"
    report(f"holding {what} (pid {os.getpid()}) {until}")
    hold(seconds)


def exit_code_of(returncode: int) -> int:
    """A Popen return code as a shell shows it: killed by signal N gives 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        return f"was killed by {signal.Signals(-returncode).name}"
    return f"exited with {returncode}"


def run_child(argv: Sequence[str], preexec: Callable[[], None] | None = None) -> int:
    """Run ``argv`` to its end and return its Popen return code (negative: killed by signal).

    A stop signal is passed on to the child (Ctrl-C reached it already through the terminal),
    which gets a grace period before SIGKILL; then ``Stopped`` propagates.
    """
    try:
        child = subprocess.Popen(list(argv), preexec_fn=preexec)
    except OSError as error:
        raise DotdbgError(f"cannot run {argv[0]!r}: {error.strerror}") from error
    try:
        return child.wait()
    except Stopped as stop:
        stop_pid(child.pid, stop.signum)
        raise


def stop_pid(pid: int, signum: int) -> None:
    """Pass a stop signal on to child ``pid``, then SIGKILL it if it outlives the grace period."""
    if not _terminal_sent_it_too(signum):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)
    with stop_on_signals(), contextlib.suppress(Stopped):
        if _reaped_within(pid, CHILD_GRACE_SECONDS):
            return
    with contextlib.suppress(ProcessLookupError, ChildProcessError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _reaped_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return True
        except ChildProcessError:
            return True
        time.sleep(0.05)
    return False


def _terminal_sent_it_too(signum: int) -> bool:
    """Ctrl-C in a terminal signals the whole foreground group, the child included."""
    if signum != signal.SIGINT or not sys.stdin.isatty():
        return False
    try:
        return os.tcgetpgrp(sys.stdin.fileno()) == os.getpgrp()
    except OSError:
        return False
