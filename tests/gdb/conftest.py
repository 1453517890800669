"""Blocked real processes, started once per module, and a check after every test that no
process a test dumped was left stopped."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.gdb import extension, interpreter
from tests.gdb.gdb_procs import (
    BLOCKED,
    SYSTEM_PYTHON,
    VENV_BASE_PYTHON,
    assert_running,
    start,
    stop,
)


def _skip_reason() -> str | None:
    if shutil.which("gdb") is None:
        return "gdb is not installed (apt-get install gdb)"
    if not os.path.exists(SYSTEM_PYTHON):
        return f"{SYSTEM_PYTHON} is not installed"
    found = extension.find(interpreter.describe(SYSTEM_PYTHON))
    if found is None or not found.exact:
        return "python3-dbg is not installed (apt-get install python3-dbg)"
    probe = subprocess.run(["gdb", "-nx", "-batch", "-p", str(os.getpid())], capture_output=True)
    if b"Operation not permitted" in probe.stderr:
        return "this user may not ptrace its own processes here"
    return None


@pytest.fixture(scope="session")
def real_gdb() -> None:
    reason = _skip_reason()
    if reason:
        pytest.skip(reason)


def _blocked(python: str, directory: Path) -> Iterator[subprocess.Popen[str]]:
    script = directory / "blocked.py"
    script.write_text(BLOCKED)
    proc = start([python, str(script)])
    try:
        yield proc
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def blocked(real_gdb: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """A pid: Debian's python3, blocked in qsort's callback and on a lock."""
    for proc in _blocked(SYSTEM_PYTHON, tmp_path_factory.mktemp("blocked")):
        yield proc.pid


@pytest.fixture(scope="module")
def blocked_venv_python(real_gdb: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The same program run by the venv's base interpreter (pyenv's CPython here)."""
    for proc in _blocked(VENV_BASE_PYTHON, tmp_path_factory.mktemp("blocked_venv")):
        yield proc.pid


@pytest.fixture(scope="session")
def gdb_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def shared_gdb_index(gdb_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One gdb index cache for the session, as a user has: gdb indexes python3.11 once."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(gdb_cache))


@pytest.fixture(autouse=True)
def never_left_stopped(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test, every blocked process it used runs on."""
    yield
    for name in ("blocked", "blocked_venv_python"):
        if name in request.fixturenames:
            assert_running(request.getfixturevalue(name))
