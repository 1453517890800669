"""Whether a process is stopped or traced, continuing one a tracer left stopped, and the keeper:
the process that does it when dotdbg itself is killed with ``kill -9``.

dotdbg's ``finally`` (``tracee.kept_running``) does not run under SIGKILL. A tracer killed with
dotdbg (a whole process group killed) leaves the SIGSTOP of its attach queued; one that runs on
without dotdbg (gdb, pystack's forked child) dies on a closed pipe or runs with no deadline. So
before the first attach, ``kept_running`` starts this file as a script, in a session of its own,
on the read end of a pipe whose write end dotdbg and every tracer it starts hold. When dotdbg
dies without having stopped it, the keeper ends the tracers that still hold the pipe (SIGTERM:
gdb then detaches; SIGKILL after a grace), waits until the pipe closes (every tracer has gone),
then continues the target if it is left stopped, unless it was stopped before dotdbg came.

Run as ``python -I -S keeper.py``: it imports the standard library's os, select, sys and time
only (``signal`` alone would cost 20 ms of enum), so it starts in about Python's start-up time.
argv: TARGET_PID DOTDBG_PID running|stopped. Standard library only.
"""

from __future__ import annotations

import os
import select
import sys
import time

# Linux's numbers on x86, ARM and RISC-V (tests/gdb check them against the signal module)
SIGKILL, SIGTERM, SIGCONT, SIGSTOP = 9, 15, 18, 19
STOPPED = frozenset("tT")  # t: stopped by a tracer; T: stopped by a signal
SETTLE_SECONDS = 2.0  # how long a tracer that is exiting may take to let go
QUIET_SECONDS = 0.05  # running this long after a killed tracer: every thread has let go
TERM_GRACE_SECONDS = 3.0  # gdb detaches on SIGTERM; after that the tracers are killed
GONE_SECONDS = 10.0  # the most the keeper waits for killed tracers to close the pipe
POLL_SECONDS = 0.2  # how often the keeper looks for dotdbg where it cannot have a pidfd
PROC = "/proc"
_SIGSTOP_BIT = 1 << (SIGSTOP - 1)  # in the pending-signal masks of /proc/PID/status


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def thread_states(pid: int) -> dict[int, str]:
    """Each thread's state letter; empty once the process has gone."""
    states = {}
    try:
        tids = os.listdir(f"{PROC}/{pid}/task")
    except OSError:
        return {}
    for tid in tids:
        try:
            stat = _read(f"{PROC}/{pid}/task/{tid}/stat")
        except OSError:
            continue
        states[int(tid)] = chr(stat[stat.rindex(b")") + 2])  # the name may hold ") "
    return states


def alive(pid: int) -> bool:
    """Running or stopped, not exited (a zombie keeps its pid until its parent reaps it)."""
    return thread_states(pid).get(pid, "Z") not in ("Z", "X")


def is_stopped(pid: int) -> bool:
    return any(state in STOPPED for state in thread_states(pid).values())


def _status_field(path: str, name: bytes) -> bytes | None:
    try:
        status = _read(path)
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith(name):
            return line.split()[1]
    return None


def tracer_of(pid: int) -> int:
    """The pid tracing ``pid`` (0: none), from /proc/PID/status."""
    return int(_status_field(f"{PROC}/{pid}/status", b"TracerPid:") or 0)


def stop_pending(pid: int) -> bool:
    """A SIGSTOP queued and not yet acted on (the process's, or one of its threads')."""
    task = f"{PROC}/{pid}/task"
    try:
        tids = os.listdir(task)
    except OSError:
        return False
    masks = [_status_field(f"{PROC}/{pid}/status", b"ShdPnd:")]
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
                os.kill(pid, SIGCONT)
        elif calm_since is None:
            calm_since = time.monotonic()
        elif time.monotonic() - calm_since >= QUIET_SECONDS:
            return True
        time.sleep(0.005)
    return not _left_stopped(pid)


# -- the keeper ------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    target, dotdbg, was = int(argv[0]), int(argv[1]), argv[2]
    wait_for_death(dotdbg)
    end_tracers(0)
    if was == "running":
        release(target, tracer_killed=True)
    return 0


def wait_for_death(pid: int) -> None:
    """Until ``pid``, the keeper's parent, has exited (a pidfd, else a look at the parent)."""
    try:
        handle = os.pidfd_open(pid)
    except OSError:  # gone already, or a kernel before 5.3
        handle = None
    if handle is not None and os.getppid() == pid:  # the pidfd is of that process
        select.select([handle], [], [])
        return
    while os.getppid() == pid:
        time.sleep(POLL_SECONDS)


def end_tracers(pipe: int) -> None:
    """SIGTERM, then SIGKILL, to whoever holds the pipe's write end, until it closes."""
    started = time.monotonic()
    _signal_holders(pipe, SIGTERM)
    if _closed(pipe, started + TERM_GRACE_SECONDS):
        return
    _signal_holders(pipe, SIGKILL)
    _closed(pipe, started + GONE_SECONDS)


def _closed(pipe: int, deadline: float) -> bool:
    """Whether every write end has closed by ``deadline`` (dotdbg writes nothing into it)."""
    while (left := deadline - time.monotonic()) > 0:
        if select.select([pipe], [], [], left)[0] and not os.read(pipe, 4096):
            return True
    return False


def _signal_holders(pipe: int, signal: int) -> None:
    for pid in holders(pipe):
        try:
            os.kill(pid, signal)
        except OSError:
            continue


def holders(pipe: int) -> list[int]:
    """The processes with the pipe's write end open: dotdbg's tracers (gdb, pystack's child)."""
    link = f"pipe:[{os.fstat(pipe).st_ino}]"
    found = []
    for entry in os.listdir(PROC):
        if entry.isdigit() and any(_writes(entry, fd) for fd in _fds_on(entry, link)):
            found.append(int(entry))
    return found


def _fds_on(pid: str, link: str) -> list[str]:
    try:
        fds = os.listdir(f"{PROC}/{pid}/fd")
    except OSError:  # gone, or not ours to look at
        return []
    return [fd for fd in fds if _link(f"{PROC}/{pid}/fd/{fd}") == link]


def _link(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return ""


def _writes(pid: str, fd: str) -> bool:
    """Whether the descriptor is open for writing (O_WRONLY in fdinfo's octal flags)."""
    try:
        info = _read(f"{PROC}/{pid}/fdinfo/{fd}")
    except OSError:
        return False
    flags = next(
        (line.split()[1] for line in info.splitlines() if line.startswith(b"flags:")), b"0"
    )
    return int(flags, 8) & 0o3 == os.O_WRONLY


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
