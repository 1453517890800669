"""Testing one commit: submodules, the reinstall, then the command, in a process group of its
own so that a timeout, Ctrl-C or SIGTERM ends all of it, grandchildren included."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType

from dotdbg.bisect.git import Git
from dotdbg.bisect.verdict import SKIP, verdict

GRACE_SECONDS = 5.0
TAIL_BYTES = 4000
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Stopper:
    """SIGINT and SIGTERM end the step that runs and are remembered; the loop stops after the
    git command in progress (never in the middle of one), and the clean-up runs."""

    def __init__(self) -> None:
        self.requested: int | None = None
        self.running: subprocess.Popen[bytes] | None = None

    def handle(self, signum: int, _frame: FrameType | None) -> None:
        self.requested = signum
        if self.running is not None:
            end_group(self.running, wait=False)

    @contextlib.contextmanager
    def installed(self) -> Iterator[Stopper]:
        previous = {signum: signal.signal(signum, self.handle) for signum in STOP_SIGNALS}
        try:
            yield self
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)


@dataclass(frozen=True)
class Plan:
    command: list[str]
    setup: list[str] | None
    timeout: float | None
    on_timeout: str
    pytest: bool
    skip_codes: frozenset[int]


@dataclass
class Step:
    commit: str
    subject: str
    verdict: str
    why: str
    seconds: float
    tail: str = ""

    def as_json(self) -> dict[str, object]:
        return {
            "commit": self.commit,
            "subject": self.subject,
            "verdict": self.verdict,
            "why": self.why,
            "seconds": round(self.seconds, 3),
        }


def test_commit(git: Git, commit: str, plan: Plan, stopper: Stopper) -> Step:
    started = time.monotonic()
    subject = git.subject(commit)
    prepared = _prepare(git, plan, stopper)
    if prepared is not None:
        return Step(commit, subject, SKIP, prepared, time.monotonic() - started)
    code, tail = run_limited(plan.command, plan.timeout, stopper)
    found, why = verdict(code, plan.pytest, plan.skip_codes, plan.on_timeout)
    return Step(commit, subject, found, why, time.monotonic() - started, tail)


def _prepare(git: Git, plan: Plan, stopper: Stopper) -> str | None:
    """None when ready, else why this commit cannot be tested."""
    if git.has_submodules():
        done = git.run("submodule", "update", "--init", "--recursive", check=False)
        if done.returncode != 0:
            return "git submodule update failed"
    if plan.setup is not None:
        code, _ = run_limited(plan.setup, None, stopper)
        if code != 0:
            return f"the setup step failed (exit {code})"
    return None


def run_limited(
    command: list[str], timeout: float | None, stopper: Stopper
) -> tuple[int | None, str]:
    """The exit code (None: out of time) and the end of the output."""
    from dotdbg.common.programs import exit_code_of

    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        stopper.running = process
        try:
            code: int | None = exit_code_of(process.wait(timeout))
        except subprocess.TimeoutExpired:
            code = None
        finally:
            stopper.running = None
            end_group(process, wait=True)
        log.seek(max(0, log.tell() - TAIL_BYTES))
        tail = log.read().decode(errors="replace")
    return code, tail


def end_group(process: subprocess.Popen[bytes], wait: bool) -> None:
    """SIGTERM to the step's whole process group, SIGKILL after a grace period."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    if not wait:
        return
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(GRACE_SECONDS)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
