from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

pytestmark = pytest.mark.e2e

SCRIPT = """\
config = {"lr": 0.001, "batch": 32, "arch": "tiny"}
first = 1
second = 2
print("finished", first + second)
"""


@pytest.fixture
def pdb_session(installed_home: Path, tmp_path: Path) -> pexpect.spawn:
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "pdb", str(script)],
        env={"HOME": str(installed_home), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
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
