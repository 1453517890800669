"""The memlimit shell's prompt hook: the rcfile, the reply channel, reports held for the prompt."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest

from dotdbg.memlimit.backends.base import OomCounters, Placement
from dotdbg.memlimit.prompt import END, PromptChannel, rcfile_text, runs_bash
from dotdbg.memlimit.run import KillReporter


class CountingPlacement(Placement):
    kills = 0

    def counters(self) -> OomCounters:
        return OomCounters(kills=self.kills, peak=100 << 20)


def test_only_a_plain_bash_gets_the_hook() -> None:
    assert runs_bash(["/bin/bash"]) and runs_bash(["bash"])
    assert not runs_bash(["bash", "-c", "true"]) and not runs_bash(["/bin/zsh"])


def test_the_rcfile_is_valid_bash_and_reads_bashrc_first(tmp_path: Path) -> None:
    text = rcfile_text(1234, tmp_path / "it's reports")
    assert subprocess.run(["bash", "-n"], input=text, text=True).returncode == 0
    assert text.index(". ~/.bashrc") < text.index("PROMPT_COMMAND=")
    assert "kill -USR1 1234" in text and "it'\"'\"'s reports'" in text


def test_a_reply_is_the_lines_then_the_end_marker() -> None:
    channel = PromptChannel.open()
    try:
        assert channel.reply(["memlimit: one"]) and channel.reply([])
        assert os.read(channel.fd, 1000).decode() == f"memlimit: one\n{END}\n{END}\n"
    finally:
        channel.close()
    assert not channel.directory.exists()


def test_a_report_waits_for_the_prompt_then_goes_to_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    placement = CountingPlacement("cgroup-v1", "/x")
    held = KillReporter(placement, "100M", hold=60.0)
    placement.kills = 1
    held.update()
    assert capsys.readouterr().err == ""  # held for the prompt to ask
    assert held.claim() == [
        "memlimit: a process was OOM-killed at the 100M limit (cgroup-v1, peak 100.00M)"
    ]
    assert held.claim() == []
    at_once = KillReporter(placement, "100M")  # no prompt to ask: said when seen
    at_once.update()
    assert "OOM-killed at the 100M limit" in capsys.readouterr().err


def test_directories_of_killed_runs_are_removed_by_the_next_and_said(tmp_path: Path) -> None:
    """memlimit killed -9 in shell mode cleans nothing up (issue 21.5): the next shell run
    removes what it left and says so, and leaves alone a directory whose memlimit still runs."""
    import pexpect

    from tests.memlimit.memlimit_fakes import MEMLIMIT

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**os.environ, "TMPDIR": str(scratch), "HOME": str(tmp_path), "TERM": "dumb"}
    args = ["--backend", "rlimit", "100M", "--", "bash"]

    def shell() -> pexpect.spawn:
        term = pexpect.spawn(str(MEMLIMIT), args, env=env, encoding="utf-8", cwd=tmp_path)
        term.logfile_read = io.StringIO()
        term.sendline("echo READY-$((20+22))")
        term.expect_exact("READY-42", timeout=60)
        return term

    first = shell()
    try:
        [left] = scratch.iterdir()
        os.kill(first.pid, 9)  # memlimit itself, mid-session: its clean-up never runs
        first.expect(pexpect.EOF, timeout=30)
    finally:
        first.close(force=True)
    assert left.is_dir()
    second = shell()
    try:
        second.sendline("exit")
        second.expect(pexpect.EOF, timeout=30)
        said = second.logfile_read.getvalue()
    finally:
        second.close(force=True)
    assert f"memlimit: removed {left}, left by a memlimit that was killed" in said
    assert not left.exists()
    assert list(scratch.iterdir()) == []
