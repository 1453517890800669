"""``dotdbg gdb -i`` and ``--break-in``: a real gdb prompt, driven through a terminal."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect
import pytest

from tests.gdb.gdb_procs import DOTDBG, TRAPS, VENV_BASE_PYTHON, assert_running

pytestmark = pytest.mark.e2e
PROMPT = "(gdb) "


def spawn(*args: str, cwd: Path, term: str = "dumb") -> pexpect.spawn:
    env = {name: os.environ[name] for name in ("HOME", "PATH", "XDG_CACHE_HOME")}
    env["TERM"] = term
    return pexpect.spawn(
        DOTDBG, ["gdb", *args], env=env, cwd=str(cwd), encoding="utf-8", timeout=30,
        dimensions=(60, 200),
    )  # fmt: skip


def finish(child: pexpect.spawn) -> int:
    child.sendline("quit")
    if child.expect([pexpect.EOF, r"\(y or n\) "]) == 1:
        child.sendline("y")
        child.expect(pexpect.EOF)
    child.close()
    return int(child.exitstatus)


def test_interactive_prompt_answers_py_bt_then_lets_the_process_go(
    blocked_venv_python: int, tmp_path: Path
) -> None:
    child = spawn("-i", str(blocked_venv_python), cwd=tmp_path)
    try:
        child.expect_exact("most recent call first:")  # the mixed stack comes first
        child.expect_exact("  Py  compare at ")
        child.expect_exact(PROMPT)
        child.sendline("py-bt")
        child.expect_exact(PROMPT)
        answer = child.before
        assert "in compare\r\n    time.sleep(600)" in answer
        assert answer.index("in compare") < answer.index("in sort_in_c")
        assert finish(child) == 0
    finally:
        child.terminate(force=True)
    assert_running(blocked_venv_python)


def test_tui_opens_gdbs_source_window(blocked_venv_python: int, tmp_path: Path) -> None:
    child = spawn("--tui", str(blocked_venv_python), cwd=tmp_path, term="xterm")
    try:
        child.expect_exact(PROMPT)
        child.sendline("info win")  # outside the TUI: "The TUI is not active."
        child.expect_exact("src")
        child.expect_exact("(has focus)")
        assert finish(child) == 0
    finally:
        child.terminate(force=True)
    assert_running(blocked_venv_python)


def test_break_in_stops_on_sigtrap_with_the_mixed_stack(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAPS)
    child = spawn("--break-in", "--", VENV_BASE_PYTHON, "train.py", cwd=tmp_path)
    try:
        child.expect_exact("before the trap")
        child.expect_exact("dotdbg: the program stopped on SIGTRAP; its mixed stack:")
        child.expect_exact(PROMPT)
        shown = child.before
        assert shown.index("  C   os_kill") < shown.index("  Py  stop_here at ")
        assert shown.index("  Py  stop_here at ") < shown.index("  Py  <module> at ")
        child.sendline("py-list")
        child.expect_exact(PROMPT)
        assert "  >5        os.kill(os.getpid(), signal.SIGTRAP)\r\n" in child.before
        child.sendline("continue")
        child.expect_exact("resumed after the trap")
        child.expect_exact("exited with code 03")
        child.expect_exact(PROMPT)
        assert finish(child) == 0
    finally:
        child.terminate(force=True)
