"""Long work is never a blank screen (issue 26.5): a line on stderr once it takes a second."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dotdbg.common.output import slow_notice

BIN = Path(sys.executable).parent


def test_slow_work_is_told_and_quick_work_is_not(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # a person watching
    with slow_notice("working", after=0.05):
        time.sleep(0.5)
    assert capsys.readouterr().err == "dotdbg: working …\n"
    with slow_notice("working", after=5):
        pass
    time.sleep(0.1)
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb is not installed")
def test_gdb_read_by_a_script_has_only_the_stacks_and_its_notes() -> None:
    """stderr is not a terminal: no progress line among gdb's notes (it broke their order)."""
    sleeper = subprocess.Popen(["sleep", "120"])
    try:
        done = subprocess.run(
            [BIN / "dotdbg", "gdb", "--via", "gdb", str(sleeper.pid)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        sleeper.kill()
        sleeper.wait()
    assert "sleep" in done.stdout
    assert "reading the stacks" not in done.stderr


def test_a_script_reading_stderr_gets_no_notice(capsys: pytest.CaptureFixture[str]) -> None:
    with slow_notice("working", after=0.05):
        time.sleep(0.3)
    assert capsys.readouterr().err == ""
