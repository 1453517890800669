"""One memlimit run: pick a backend that really limits, start the command under it, clean up."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dotdbg.errors import DotdbgError
from dotdbg.helpers.child import require_program
from dotdbg.helpers.memlimit.backends import (
    BACKEND_NAMES,
    Backend,
    BackendUnavailable,
    Placement,
    default_backends,
)
from dotdbg.helpers.memlimit.limits import Limits, short_size
from dotdbg.helpers.memlimit.report import exit_code, kill_message
from dotdbg.helpers.memlimit.spawn import GatedChild, gated, spawn_gated
from dotdbg.helpers.memlimit.supervise import pending_interrupt, signals_held, supervise

READY_TIMEOUT = 10.0
KILLED = 137


def say(text: str) -> None:
    print(f"memlimit: {text}", file=sys.stderr, flush=True)


def resolve_command(command: Sequence[str], env: Mapping[str, str]) -> list[str]:
    """The command to run: as given, or the user's interactive shell; it must exist."""
    argv = list(command) or [env.get("SHELL") or "/bin/bash"]
    require_program(argv[0], env.get("PATH"))
    return argv


def choose_backends(name: str, backends: Sequence[Backend]) -> list[Backend]:
    """``auto``: every backend whose probe passes, in order; otherwise just the one named."""
    if name == "auto":
        return [backend for backend in backends if backend.probe().works]
    chosen = [backend for backend in backends if backend.name == name]
    if not chosen:
        raise DotdbgError(
            f"unknown backend {name!r}", hint=f"choose auto, {', '.join(BACKEND_NAMES)}"
        )
    return chosen


@dataclass
class KillReporter:
    """Says so, as soon as it is seen, each time the limit kills something."""

    placement: Placement
    limit: str
    reported: int = 0

    def update(self) -> None:
        counters = self.placement.counters()
        if counters.kills > self.reported:
            new, placement = counters.kills - self.reported, self.placement
            enclosing = placement.enclosing_limit
            limit = self.limit if enclosing is None else short_size(enclosing)
            verb, outer = placement.kill_verb, enclosing is not None
            say(kill_message(new, limit, placement.label, counters.peak, verb, outer))
            self.reported = counters.kills


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
    candidates = choose_backends(backend, default_backends() if backends is None else backends)
    with signals_held():
        for candidate in candidates:
            try:
                placement, child = launch(candidate, limits, argv, env)
            except BackendUnavailable as why:
                if backend != "auto":
                    raise DotdbgError(
                        f"backend {candidate.name} cannot limit memory here: {why}",
                        hint="`dotdbg doctor` lists the backends that work on this machine",
                    ) from None
                say(f"not using {candidate.name}: {why}")
                continue
            try:
                return run_admitted(placement, child, limits)
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


def run_admitted(placement: Placement, child: GatedChild, limits: Limits) -> int:
    say(f"{limits.describe()}, backend {placement.label} ({placement.where})")
    for note in placement.notes:
        say(f"note: {note}")
    interrupt = pending_interrupt()
    if interrupt is not None:
        child.abort()
        return 128 + interrupt
    child.open_gate()
    reporter = KillReporter(placement, limits.label)

    def tick() -> None:
        placement.tick(child.pid)
        reporter.update()

    status = supervise(child.pid, tick, placement.tick_seconds, say)
    reporter.update()
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL and reporter.reported:
        say(f"the command itself was killed; exit code {KILLED}")
    return exit_code(status)
