"""The process being dumped is never left stopped.

pystack and gdb attach with ``PTRACE_ATTACH``, which stops every thread with SIGSTOP. A tracer
that is killed before it has seen every thread stop (a timeout, Ctrl-C, ``kill -9``) leaves
those SIGSTOPs queued: the threads stop a moment after the kernel hands the process back (state
``T``), and a training job would sit there until someone sends SIGCONT. ``kept_running``
checks after every attach and sends it, unless the process was already stopped before
(someone's Ctrl-Z), or another tracer holds it. Where dotdbg itself is killed with ``kill -9``,
its keeper (``keeper.py``, a process of its own) does it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from dotdbg.gdb import keeper
from dotdbg.gdb.keeper import alive, is_stopped, release, thread_states, tracer_of

__all__ = ["Guard", "alive", "is_stopped", "kept_running", "release", "thread_states", "tracer_of"]


class Guard:
    """What ``kept_running`` yields: told when the block had to kill its tracer."""

    def __init__(self) -> None:
        self.tracer_killed = False

    def killed_tracer(self) -> None:
        self.tracer_killed = True


@contextmanager
def kept_running(pid: int) -> Iterator[Guard]:
    """Whatever happens inside (an error, a timeout, Ctrl-C, ``kill -9`` of dotdbg), ``pid``
    does not stay stopped.

    The tracers started inside must inherit the keeper's pipe: a forked child does, a program
    started with ``close_fds=False`` does (its write end is made inheritable for the block).
    """
    was_stopped = is_stopped(pid)
    guard = Guard()
    with _keeper(pid, was_stopped):
        try:
            yield guard
        except BaseException:
            guard.killed_tracer()  # Ctrl-C or an error may have cut an attach short
            raise
        finally:
            if not was_stopped:
                release(pid, guard.tracer_killed)


@contextmanager
def _keeper(pid: int, was_stopped: bool) -> Iterator[None]:
    """The keeper for the block, stopped (SIGKILL) at its end: dotdbg's ``finally`` has run."""
    read_end, write_end = os.pipe()
    argv = [sys.executable, "-I", "-S", keeper.__file__, str(pid), str(os.getpid())]
    try:
        watcher = subprocess.Popen(
            [*argv, "stopped" if was_stopped else "running"],
            stdin=read_end,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd="/",
            start_new_session=True,  # a Ctrl-C or a kill of dotdbg's process group spares it
        )
    except OSError:  # no process to spare (EAGAIN): the finally blocks still guard the rest
        watcher = None
    finally:
        os.close(read_end)
    os.set_inheritable(write_end, True)
    try:
        yield
    finally:
        os.close(write_end)
        if watcher is not None:
            watcher.kill()
            watcher.wait()
