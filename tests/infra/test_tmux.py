"""The tests' one terminal driver (issue 22.4): what it shows, and that no test drives tmux
past it."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.tmux import Tmux

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture
def long_line() -> Iterator[Tmux]:
    """A pane 80 columns wide showing one line of 200 digits, then the word ``end``."""
    printing = ["sh", "-c", "printf '%0200d\\nend\\n' 0; exec sleep 60"]
    term = Tmux(printing, env={"TERM": "xterm-256color"}, width=80, height=10)
    yield term
    term.close()


@pytest.mark.e2e
def test_the_screen_joins_what_the_terminal_wrapped(long_line: Tmux) -> None:
    joined = long_line.wait_for(lambda screen: "end" in screen, "the output")
    shown = long_line.screen(wrapped=True)
    assert joined.splitlines()[:2] == ["0" * 200, "end"]
    assert shown.splitlines()[:4] == ["0" * 80, "0" * 80, "0" * 40, "end"]


def test_only_the_driver_talks_to_a_tests_terminal() -> None:
    """Typing keys and reading the screen go through tests/infra/tmux.py alone."""
    allowed = {TESTS / "infra" / "tmux.py", Path(__file__).resolve()}
    for path in TESTS.rglob("*.py"):
        if path not in allowed:
            text = path.read_text(encoding="utf-8")
            assert "send-keys" not in text and "capture-pane" not in text, path


@pytest.mark.e2e
def test_closing_leaves_no_server_and_no_socket() -> None:
    term = Tmux(["sleep", "60"], env={})
    term.close()
    assert subprocess.run(["tmux", "-L", term.socket, "ls"], capture_output=True).returncode
    assert not term.socket_path.exists()
