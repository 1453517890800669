"""Ctrl-C typed in a real terminal (a pty): the filler and its command both get SIGINT from the
terminal, the command ends, the memory is released, and the exit code is 130."""

from __future__ import annotations

import pexpect
import psutil
import pytest

from tests.fill.fill_support import child_named, script


@pytest.mark.e2e
def test_ctrl_c_in_a_terminal_releases_and_ends_the_command() -> None:
    terminal = pexpect.spawn(
        script("mem-fill"), ["32M", "--", "sleep", "60"], encoding="utf-8", timeout=30
    )
    try:
        terminal.expect("while running sleep 60")
        sleeper = child_named(terminal.pid, "sleep")
        terminal.sendintr()
        terminal.expect("mem-fill: released 32.00M")
        terminal.expect(pexpect.EOF)
        terminal.close()
        assert terminal.exitstatus == 130
        assert not sleeper.is_running()
    finally:
        if terminal.isalive():
            terminal.terminate(force=True)


@pytest.mark.e2e
def test_ctrl_c_while_holding_in_a_terminal() -> None:
    terminal = pexpect.spawn(script("mem-fill"), ["32M"], encoding="utf-8", timeout=30)
    try:
        terminal.expect("holding 32.00M")
        rss = psutil.Process(terminal.pid).memory_info().rss
        assert rss >= 32 * 2**20
        terminal.sendintr()
        terminal.expect("mem-fill: released 32.00M")
        terminal.expect(pexpect.EOF)
        terminal.close()
        assert terminal.exitstatus == 130
    finally:
        if terminal.isalive():
            terminal.terminate(force=True)
