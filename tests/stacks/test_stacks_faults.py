"""Why a dump failed, in words a user can act on (issue 23.5): a process already traced names
its tracer (root or not, no advice helps), a py-spy killed by a signal names the signal, and the
advice a refused dump promises is printed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.procs import procfs
from tests.stacks.stacks_support import DOTDBG

SLEEPER = "import time; print('ready', flush=True); time.sleep(600)"
WITHOUT_PTRACE = ["setpriv", "--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace"]


@pytest.fixture
def sleeper() -> Iterator[int]:
    proc = subprocess.Popen([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        yield proc.pid
    finally:
        proc.kill()
        proc.wait()


def dotdbg(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [DOTDBG, *args], capture_output=True, text=True, timeout=120, env=env or dict(os.environ)
    )


@pytest.fixture
def traced(sleeper: int) -> Iterator[int]:
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed")
    tracer = subprocess.Popen(["strace", "-p", str(sleeper), "-o", os.devnull])
    try:
        deadline = time.monotonic() + 30
        while procfs.tracer_of(sleeper) is None:
            assert time.monotonic() < deadline, "strace did not attach"
            time.sleep(0.01)
        yield sleeper
    finally:
        tracer.terminate()
        tracer.wait()


@pytest.mark.parametrize("command", [("pyspy", "--json", "--tree"), ("gdb", "--json")])
def test_a_process_already_traced_names_its_tracer(traced: int, command: tuple[str, ...]) -> None:
    done = dotdbg(*command, str(traced))
    assert done.returncode == 1
    assert "already traced by strace (pid " in done.stdout
    assert "run it as root" not in done.stderr and "Fix:" not in done.stderr


def test_a_py_spy_killed_by_a_signal_is_named(sleeper: int, tmp_path: Path) -> None:
    (tmp_path / "py-spy").write_text("#!/bin/sh\nkill -SEGV $$\n")
    (tmp_path / "py-spy").chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    text = dotdbg("pyspy", "--tree", str(sleeper), env=env)
    assert text.returncode == 1
    assert "[failed] py-spy was killed by SIGSEGV\n" in text.stdout
    merged = dotdbg("stacks", "--tree", str(sleeper), env=env)
    assert ": failed: py-spy was killed by SIGSEGV" in merged.stdout


@pytest.mark.skipif(os.getuid() != 0, reason="drops CAP_SYS_PTRACE with setpriv, as root")
@pytest.mark.parametrize("command", ["stacks", "pyspy"])
def test_the_advice_a_refused_dump_promises_is_printed(sleeper: int, command: str) -> None:
    """Without CAP_SYS_PTRACE (a container's default), root may not trace a process."""
    done = subprocess.run(
        [*WITHOUT_PTRACE, DOTDBG, command, "--tree", str(sleeper)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "how to allow it is printed at the end" in done.stdout
    assert "py-spy was not allowed to attach to the process (ptrace was refused)." in done.stderr
    assert "docker run --cap-add SYS_PTRACE" in done.stderr
