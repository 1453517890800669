from __future__ import annotations

import glob
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from dotdbg.config import load_config
from dotdbg.home.install import install
from dotdbg.paths import Paths

pytestmark = pytest.mark.e2e

SCRIPT = """\
config = {"lr": 0.001, "batch": 32, "arch": "tiny"}
first = 1
second = 2
print("finished", first + second)
"""


@pytest.fixture(scope="module")
def shared_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One installed home for every pdb below, which only reads its ~/.pdbrc (install runs
    shellcheck: once is enough)."""
    home = tmp_path_factory.mktemp("pdb-home")
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    return home


@pytest.fixture
def pdb_session(shared_home: Path, tmp_path: Path) -> pexpect.spawn:
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pdb", str(script)],
        env={"HOME": str(shared_home), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=15,
    )
    child.expect_exact("(Pdb) ")
    yield child
    child.terminate(force=True)


def test_nl_steps_and_lists(pdb_session: pexpect.spawn) -> None:
    pdb_session.sendline("nl")
    pdb_session.expect_exact("(Pdb) ")
    output = pdb_session.before
    assert "-> first = 1" in output  # stepped to the next line
    assert "  1  " in output and "->\tfirst = 1" in output  # and listed the source around it


def test_sl_steps_and_lists(pdb_session: pexpect.spawn) -> None:
    pdb_session.sendline("sl")
    pdb_session.expect_exact("(Pdb) ")
    assert "->\tfirst = 1" in pdb_session.before


def test_pd_dumps_a_dict_sorted_by_key(pdb_session: pexpect.spawn) -> None:
    pdb_session.sendline("n")
    pdb_session.expect_exact("(Pdb) ")
    pdb_session.sendline("pd config")
    pdb_session.expect_exact("(Pdb) ")
    lines = [line.strip() for line in pdb_session.before.splitlines() if " = " in line]
    assert lines == ["arch            = 'tiny'", "batch           = 32", "lr              = 0.001"]


# A program with a `k` of its own, in the module and in a function: `pd` must leave both alone.
OWN_K = """\
k = "mine"
config = {"lr": 0.001, "batch": 32}
def step():
    k = "local"
    state = {"z": 1, "y": 2}
    print("function k =", k)
step()
print("module k =", k)
"""


def interpreter(minor: int) -> str | None:
    """A working python3.MINOR: this one, one on PATH, or one beside it under pyenv."""
    if sys.version_info[:2] == (3, minor):
        return sys.executable
    pyenv_root = os.environ.get("PYENV_ROOT", "/nonexistent")
    candidates = [shutil.which(f"python3.{minor}")]
    candidates += sorted(glob.glob(f"{pyenv_root}/versions/3.{minor}.*/bin/python3.{minor}"))
    for candidate in filter(None, candidates):
        probe = subprocess.run([candidate, "-c", "pass"], capture_output=True, timeout=10)
        if probe.returncode == 0:
            return candidate
    return None


# Comprehensions are inlined from 3.12 on (PEP 709): each scoping rule is tried where it exists.
@pytest.mark.parametrize("minor", [10, 11, 12, 13])
def test_pd_leaves_the_programs_names_alone(shared_home: Path, tmp_path: Path, minor: int) -> None:
    python = interpreter(minor)
    if python is None:
        pytest.skip(f"no Python 3.{minor} interpreter on this machine")
    script = tmp_path / "own_k.py"
    script.write_text(OWN_K)
    child = pexpect.spawn(
        python,
        ["-m", "pdb", str(script)],
        env={"HOME": str(shared_home), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
        cwd=str(tmp_path),
        encoding="utf-8",
        timeout=15,
    )
    child.logfile_read = transcript = io.StringIO()
    try:
        for command in ("n", "n", "pd config", "b 6", "c", "pd state", "c"):
            child.expect_exact("(Pdb) ")
            child.sendline(command)
        child.expect_exact("The program finished")
    finally:
        child.terminate(force=True)
    shown = transcript.getvalue()
    assert "batch           = 32" in shown and "y               = 2" in shown  # pd did dump
    assert "function k = local" in shown
    assert "module k = mine" in shown
