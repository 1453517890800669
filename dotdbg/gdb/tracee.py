"""The process being dumped is never left stopped.

pystack and gdb attach with ``PTRACE_ATTACH``, which stops every thread with SIGSTOP. A tracer
that is killed before it has seen every thread stop (a timeout, Ctrl-C, ``kill -9``) leaves
those SIGSTOPs queued: the threads stop a moment after the kernel hands the process back (state
``T``), and a training job would sit there until someone sends SIGCONT. ``kept_running``
checks after every attach and sends it, unless the process was already stopped before
(someone's Ctrl-Z), or another tracer holds it.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

from dotdbg.procs import procfs

STOPPED = frozenset("tT")  # t: stopped by a tracer; T: stopped by a signal
SETTLE_SECONDS = 2.0  # how long a tracer that is exiting may take to let go
QUIET_SECONDS = 0.05  # running this long after a killed tracer: every thread has let go
_SIGSTOP_BIT = 1 << (signal.SIGSTOP - 1)  # in the pending-signal masks of /proc/PID/status


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


def _status_field(path: str, name: bytes) -> bytes | None:
    try:
        status = procfs.read_bytes(path)
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(name):
            return line.split()[1]
    return None


def tracer_of(pid: int) -> int:
    """The pid tracing ``pid`` (0: none), from /proc/PID/status."""
    return int(_status_field(f"{procfs.PROC}/{pid}/status", b"TracerPid:") or 0)


def stop_pending(pid: int) -> bool:
    """A SIGSTOP queued and not yet acted on (the process's, or one of its threads')."""
    task = f"{procfs.PROC}/{pid}/task"
    try:
        tids = os.listdir(task)
    except OSError:
        return False
    masks = [_status_field(f"{procfs.PROC}/{pid}/status", b"ShdPnd:")]
    masks += [_status_field(f"{task}/{tid}/status", b"SigPnd:") for tid in tids]
    return any(int(mask, 16) & _SIGSTOP_BIT for mask in masks if mask)


def _left_stopped(pid: int) -> bool:
    return is_stopped(pid) or stop_pending(pid)


def release(pid: int, tracer_killed: bool = False) -> bool:
    """Continue the process if its tracer left it stopped; True when it runs (or has gone).

    After a clean detach one look is enough. A killed tracer leaves each thread to act on its
    SIGSTOP as the kernel wakes it, possibly after a first SIGCONT: then it is watched until it
    has run for a moment, continued again as often as needed, for at most ``SETTLE_SECONDS``.
    """
    if not tracer_killed and not _left_stopped(pid):
        return True
    deadline = time.monotonic() + SETTLE_SECONDS
    calm_since = None
    while time.monotonic() < deadline:
        if _left_stopped(pid):
            calm_since = None
            if tracer_of(pid) == 0:  # SIGCONT also discards a SIGSTOP still queued
                os.kill(pid, signal.SIGCONT)
        elif calm_since is None:
            calm_since = time.monotonic()
        elif time.monotonic() - calm_since >= QUIET_SECONDS:
            return True
        time.sleep(0.005)
    return not _left_stopped(pid)


class Guard:
    """What ``kept_running`` yields: told when the block had to kill its tracer."""

    def __init__(self) -> None:
        self.tracer_killed = False

    def killed_tracer(self) -> None:
        self.tracer_killed = True


@contextmanager
def kept_running(pid: int) -> Iterator[Guard]:
    """Whatever happens inside (an error, a timeout, Ctrl-C), ``pid`` does not stay stopped."""
    was_stopped = is_stopped(pid)
    guard = Guard()
    try:
        yield guard
    except BaseException:
        guard.killed_tracer()  # Ctrl-C or an error may have cut an attach short
        raise
    finally:
        if not was_stopped:
            release(pid, guard.tracer_killed)
