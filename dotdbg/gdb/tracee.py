"""The process being dumped is never left stopped.

pystack and gdb attach with ``PTRACE_ATTACH``, which stops every thread with SIGSTOP. A tracer
that is killed before it detaches (a timeout, Ctrl-C, ``kill -9``) leaves that stop pending: the
kernel hands the process back in the stopped state (``T``), and a training job would sit there
until someone sends SIGCONT. ``kept_running`` checks after every attach and sends it, unless the
process was already stopped before (someone's Ctrl-Z), or another tracer holds it.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

from dotdbg.helpers import procfs

STOPPED = frozenset("tT")  # t: stopped by a tracer; T: stopped by a signal
SETTLE_SECONDS = 2.0  # how long a tracer that is exiting may take to let go


def thread_states(pid: int) -> dict[int, str]:
    """Each thread's state letter; empty once the process has gone."""
    states = {}
    try:
        tids = os.listdir(f"{procfs.PROC}/{pid}/task")
    except OSError:
        return {}
    for tid in tids:
        try:
            states[int(tid)] = procfs.parse_stat(
                procfs.read_bytes(f"{procfs.PROC}/{pid}/task/{tid}/stat")
            ).state
        except OSError:
            continue
    return states


def alive(pid: int) -> bool:
    """Running or stopped, not exited (a zombie keeps its pid until its parent reaps it)."""
    return thread_states(pid).get(pid, "Z") not in ("Z", "X")


def is_stopped(pid: int) -> bool:
    return any(state in STOPPED for state in thread_states(pid).values())


def tracer_of(pid: int) -> int:
    """The pid tracing ``pid`` (0: none), from /proc/PID/status."""
    try:
        status = procfs.read_bytes(f"{procfs.PROC}/{pid}/status")
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith(b"TracerPid:"):
            return int(line.split()[1])
    return 0


def release(pid: int, settle: float = SETTLE_SECONDS) -> bool:
    """Wait for the tracer to let go, then continue the process if it was left stopped.

    True when the process runs (or has gone); False when another tracer still holds it.
    """
    deadline = time.monotonic() + settle
    while is_stopped(pid):
        if tracer_of(pid) == 0:
            os.kill(pid, signal.SIGCONT)
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@contextmanager
def kept_running(pid: int) -> Iterator[None]:
    """Whatever happens inside (an error, a timeout, Ctrl-C), ``pid`` does not stay stopped."""
    was_stopped = is_stopped(pid)
    try:
        yield
    finally:
        if not was_stopped:
            release(pid)
