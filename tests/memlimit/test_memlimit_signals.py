"""A signal that arrives while memlimit sets up: the command never runs, everything is undone."""

from __future__ import annotations

import signal
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dotdbg.memlimit import BackendProbe, run_memlimit
from dotdbg.memlimit.backends.rlimit import RlimitBackend, RlimitPlacement
from dotdbg.memlimit.limits import Limits


@dataclass(frozen=True)
class InterruptedWhileArming:
    """The rlimit backend, with a SIGTERM sent to memlimit itself in the middle of setting up."""

    inner: RlimitBackend = field(default_factory=RlimitBackend)
    name: str = "rlimit"

    def probe(self) -> BackendProbe:
        return self.inner.probe()

    def arm(self, limits: Limits) -> RlimitPlacement:
        # to this thread: memlimit has one, but a pytest-xdist worker has a second that does not
        # block SIGTERM and would take a signal sent to the process (and die of it)
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
        return self.inner.arm(limits)


def test_sigterm_during_setup_stops_before_the_command_runs(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    witness = tmp_path / "ran"
    command = [sys.executable, "-c", f"open({str(witness)!r}, 'w')"]
    code = run_memlimit(Limits(ram=100 * 2**20), command, backends=[InterruptedWhileArming()])
    assert code == 128 + signal.SIGTERM
    assert not witness.exists()
    assert signal.SIGTERM not in signal.sigpending()
    assert "backend rlimit" in capfd.readouterr().err
