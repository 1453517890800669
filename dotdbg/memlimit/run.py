"""One memlimit run: pick a backend that really limits, start the command under it, clean up."""

from __future__ import annotations

import os
import sys
import time

from dotdbg.common.output import reporter, said
from dotdbg.common.programs import exit_code_of_status, require_program
from dotdbg.common.rawsignal import signal
from dotdbg.common.sizes import short_size
from dotdbg.errors import DotdbgError
from dotdbg.memlimit.backends import (
    BACKEND_NAMES,
    BackendUnavailable,
    backend_named,
    each_backend,
)
from dotdbg.memlimit.prompt import HOLD_SECONDS, runs_bash
from dotdbg.memlimit.report import kill_message
from dotdbg.memlimit.spawn import GatedChild, gated, spawn_gated
from dotdbg.memlimit.supervise import pending_interrupt, signals_held, supervise

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from dotdbg.memlimit.backends import Placement
    from dotdbg.memlimit.backends.base import Backend
    from dotdbg.memlimit.limits import Limits
    from dotdbg.memlimit.prompt import PromptChannel

READY_TIMEOUT = 10.0
KILLED = 137


say = reporter("memlimit")


def resolve_command(command: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """The command to run: as given, or the user's interactive shell; it must exist."""
    argv = list(command) or [env.get("SHELL") or "/bin/bash"]
    require_program(argv[0], env.get("PATH"))
    return argv


def choose_backends(name: str, backends: Sequence[Backend] | None) -> Iterable[Backend]:
    """``auto``: each backend whose probe passes, in order, probed only once the one before it
    could not run the command; otherwise just the one named. ``None``: the real backends."""
    if name == "auto":
        pool = each_backend() if backends is None else backends
        return (backend for backend in pool if backend.probe().works)
    if backends is None and name in BACKEND_NAMES:
        return [backend_named(name)]
    chosen = [backend for backend in backends or () if backend.name == name]
    if not chosen:
        raise DotdbgError(
            f"unknown backend {name!r}", hint=f"choose auto, {', '.join(BACKEND_NAMES)}"
        )
    return chosen


class KillReporter:
    """Says so each time the limit kills something: at once, or, under a shell that asks for
    the reports before its prompt, when it asks (said anyway after ``hold`` seconds)."""

    def __init__(self, placement: Placement, limit: str, hold: float = 0.0) -> None:
        self.placement, self.limit, self.hold = placement, limit, hold
        self.reported = 0
        self.held: list[tuple[float, str]] = []

    def update(self) -> None:
        counters = self.placement.counters()
        if counters.kills > self.reported:
            new, placement = counters.kills - self.reported, self.placement
            enclosing = placement.enclosing_limit
            limit = self.limit if enclosing is None else short_size(enclosing)
            verb, outer = placement.kill_verb, enclosing is not None
            message = kill_message(new, limit, placement.label, counters.peak, verb, outer)
            self.held.append((time.monotonic() + self.hold, message))
            self.reported = counters.kills
        now = time.monotonic()
        while self.held and self.held[0][0] <= now:
            say(self.held.pop(0)[1])

    def claim(self) -> list[str]:
        """The reports not said yet, taken over by the caller."""
        self.update()
        claimed = [said("memlimit", message) for _, message in self.held]
        self.held.clear()
        return claimed

    def say_held(self) -> None:
        for line in self.claim():
            print(line, file=sys.stderr, flush=True)


def run_memlimit(
    limits: Limits,
    command: Sequence[str] = (),
    backend: str = "auto",
    backends: Sequence[Backend] | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """Run ``command`` under ``limits``; returns memlimit's exit code (the command's, or 137)."""
    env = dict(os.environ if environ is None else environ)
    argv = resolve_command(command, env)
    env["MEMLIMIT"] = limits.label
    candidates = choose_backends(backend, backends)
    # Signals stay held until the channel is gone too: a terminal closed at the end (SIGHUP)
    # must not stop memlimit halfway through removing it.
    with signals_held():
        channel = open_channel() if runs_bash(argv) and sys.stdin.isatty() else None
        try:
            return run_first_working(candidates, limits, argv, env, channel, backend == "auto")
        finally:
            if channel is not None:
                channel.close()


def open_channel() -> PromptChannel:
    """The prompt channel of a shell run, after removing what killed runs left (issue 21.5)."""
    import tempfile
    from pathlib import Path

    from dotdbg.memlimit.prompt import PromptChannel, remove_leftovers

    for directory in remove_leftovers(Path(tempfile.gettempdir())):
        say(f"removed {directory}, left by a memlimit that was killed")
    return PromptChannel.open()


def run_first_working(
    candidates: Iterable[Backend],
    limits: Limits,
    argv: list[str],
    env: Mapping[str, str],
    channel: PromptChannel | None,
    auto: bool,
) -> int:
    """Run under the first backend that can start the command (signals held by the caller);
    the command's exit code."""
    started = channel.command(argv) if channel is not None else argv
    for candidate in candidates:
        try:
            placement, child = launch(candidate, limits, started, env)
        except BackendUnavailable as why:
            if not auto:
                raise DotdbgError(
                    f"backend {candidate.name} cannot limit memory here: {why}",
                    hint="`dotdbg doctor` lists the backends that work on this machine",
                ) from None
            say(f"not using {candidate.name}: {why}")
            continue
        try:
            return run_admitted(placement, child, limits, channel)
        finally:
            for message in placement.close():
                say(message)
    raise DotdbgError("no backend can limit memory here", hint="`dotdbg doctor` says why")


def launch(
    backend: Backend, limits: Limits, argv: list[str], env: Mapping[str, str]
) -> tuple[Placement, GatedChild]:
    """Arm the limit, start the command at the gate and admit it; undo all of it on failure."""
    placement = backend.arm(limits)
    try:
        child = spawn_gated(placement.wrap(gated(argv)), env)
        try:
            if not child.wait_ready(READY_TIMEOUT):
                raise BackendUnavailable(f"{placement.label} did not start the command")
            placement.admit(child.pid)
        except BaseException:
            child.abort()
            raise
    except BaseException:
        placement.close()
        raise
    return placement, child


def run_admitted(
    placement: Placement, child: GatedChild, limits: Limits, channel: PromptChannel | None = None
) -> int:
    say(f"{limits.describe()}, backend {placement.label} ({placement.where})")
    for note in placement.notes:
        say(f"note: {note}")
    interrupt = pending_interrupt()
    if interrupt is not None:
        child.abort()
        return 128 + interrupt
    child.open_gate()
    reporter = KillReporter(placement, limits.label, HOLD_SECONDS if channel else 0.0)

    def tick() -> None:
        placement.tick(child.pid)
        reporter.update()

    def answer_prompt() -> None:
        assert channel is not None  # only a shell with the hook asks
        reports = reporter.claim()
        if not channel.reply(reports):
            for line in reports:
                print(line, file=sys.stderr, flush=True)

    status = supervise(child.pid, tick, placement.tick_seconds, say, answer_prompt)
    reporter.say_held()
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL and reporter.reported:
        say(f"the command itself was killed; exit code {KILLED}")
    return exit_code_of_status(status)
