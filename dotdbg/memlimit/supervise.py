"""Wait for the command while relaying signals, so memlimit always lives to clean up.

memlimit keeps SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGCHLD blocked for its whole run and
collects them with sigtimedwait, which also tells who sent each one. The fillers' simpler
supervisor (dotdbg.common.child) turns a stop signal into an exception and ends; memlimit must
go on relaying (the terminal's ^C is not sent twice), answer its shell prompt's requests and
then remove the cgroup, so it keeps this loop of its own.
"""

from __future__ import annotations

import os
import time

from dotdbg.common.rawsignal import signal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from dotdbg.common.output import Report

FORWARDED = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT})
# The shell's prompt asks for the reports (prompt.py): by name for bash's kill, by number here.
REQUEST, REQUEST_NAME = signal.SIGUSR1, "USR1"
WATCHED = FORWARDED | {signal.SIGCHLD, REQUEST}
# Signals meant to end the command; a command that ignores them is killed after the grace period.
TERMINATING = frozenset({signal.SIGTERM, signal.SIGHUP})
GRACE_SECONDS = 5.0
NEVER = float("inf")  # no deadline (math.inf without importing math)
SI_KERNEL = 0x80  # si_code of a signal the kernel sent, e.g. the terminal's ^C


class signals_held:  # named as the function it was: `with signals_held():`
    """Queue the watched signals for ``supervise``; on exit drop leftovers and unblock.

    A class, not contextlib.contextmanager: contextlib (with collections and functools) is an
    import memlimit's start does without (issue 27)."""

    def __enter__(self) -> None:
        self.previous = signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        while signal.sigtimedwait(WATCHED, 0) is not None:
            pass
        signal.pthread_sigmask(signal.SIG_SETMASK, self.previous)


def pending_interrupt() -> int | None:
    """A signal asking memlimit to stop that arrived before the command started."""
    pending = signal.sigpending() & FORWARDED
    return int(min(pending)) if pending else None


def should_forward(signo: int, code: int) -> bool:
    # The terminal already sent ^C / ^\ to the whole foreground process group, command
    # included; relaying it would deliver it twice. Signals from a process (kill) are relayed.
    return not (signo in (signal.SIGINT, signal.SIGQUIT) and code == SI_KERNEL)


def supervise(
    pid: int,
    on_tick: Callable[[], None],
    tick_seconds: float,
    say: Report,
    on_request: Callable[[], None] = lambda: None,
) -> int:
    """Wait status of ``pid``; runs ``on_tick`` every ``tick_seconds``, ``on_request`` when
    asked (SIGUSR1), and relays signals."""
    deadline = NEVER
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        on_tick()
        if time.monotonic() > deadline:
            say(f"the command ignored the signal for {GRACE_SECONDS:g}s; killing it")
            os.kill(pid, signal.SIGKILL)
            deadline = NEVER
        info = signal.sigtimedwait(WATCHED, tick_seconds)
        if info is not None and info.si_signo == REQUEST:
            on_request()
        if info is None or info.si_signo not in FORWARDED:
            continue
        if should_forward(info.si_signo, info.si_code):
            os.kill(pid, info.si_signo)
        if info.si_signo in TERMINATING and deadline == NEVER:
            deadline = time.monotonic() + GRACE_SECONDS
