"""Running a command to its end while a filler holds: fork, prepare, exec, wait, pass signals on.

Stop signals are blocked from before the fork until the parent is inside its wait, so none can
land between the two and leave the command running unwatched; the child unblocks them before
``exec``. A preparation step or an ``exec`` that fails comes back as a DotdbgError through a
close-on-exec pipe (end-of-file on it means ``exec`` succeeded).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import NoReturn

from dotdbg.common.holding import STOP_SIGNALS, Stopped, stop_on_signals
from dotdbg.errors import DotdbgError

CHILD_GRACE_SECONDS = 5.0
CANNOT_START = 127


def run_command(
    argv: Sequence[str], prepare: Callable[[], None] | None = None, purpose: str = ""
) -> int:
    """Run ``argv`` to its end; its return code, negative when killed by that signal.

    ``prepare`` runs in the child before exec; an OSError from it fails the run with
    ``cannot {purpose}: …``. A stop signal is passed on to the child, which gets a grace period
    before SIGKILL, then ``Stopped`` propagates.
    """
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; the tests see what it does
        _child(argv, prepare, purpose, mask, write_end)
    os.close(write_end)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        with os.fdopen(read_end, "rb") as failures:
            failure = failures.read().decode()
        returncode = _wait(pid)
    except Stopped as stop:
        stop_pid(pid, stop.signum)
        raise
    if failure:
        raise DotdbgError(failure)
    return returncode


def _child(
    argv: Sequence[str],
    prepare: Callable[[], None] | None,
    purpose: str,
    mask: Iterable[int],
    write_end: int,
) -> NoReturn:
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        _prepare_then_exec(argv, prepare, purpose, write_end)
    finally:  # whatever happens, never return into the parent's code
        os._exit(CANNOT_START)


def _prepare_then_exec(
    argv: Sequence[str], prepare: Callable[[], None] | None, purpose: str, write_end: int
) -> None:
    try:
        if prepare is not None:
            prepare()
    except OSError as error:
        os.write(write_end, f"cannot {purpose}: {error.strerror or error}".encode())
        return
    try:
        os.execvp(argv[0], list(argv))
    except OSError as error:
        os.write(write_end, f"cannot run {argv[0]!r}: {error.strerror}".encode())


def _wait(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        return f"was killed by {signal.Signals(-returncode).name}"
    return f"exited with {returncode}"


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
