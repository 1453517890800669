"""A real interactive bash in tmux, with HOME in a temp dir where dotdbg was installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.home.install import install
from dotdbg.paths import Paths


class TmuxShell:
    def __init__(self, home: Path, program: Sequence[str] = ("bash", "--noprofile", "-i")) -> None:
        """``program``: what runs in the terminal, a bash or something that starts one."""
        self.socket = f"dotdbg-test-{uuid.uuid4().hex[:8]}"
        env = {
            "HOME": str(home),
            "TERM": "xterm-256color",
            "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
            "PS1": "$ ",
            "LANG": "C.UTF-8",
            "SHELL": "/bin/bash",
        }
        command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), *program]
        self._tmux("new-session", "-d", "-x", "150", "-y", "50", "-s", "t", *command)
        self.wait_for(lambda screen: screen.rstrip().endswith(("$", "#")))
        # The user's ~/.bashrc sets its own prompt; a plain one makes the screen easy to read.
        self.type("PS1='$ '; clear")
        self.send("Enter")
        self.wait_for(lambda screen: screen.strip() == "$")

    def _tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        ).stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def unwrapped(self) -> str:
        """The screen with each line the terminal wrapped joined back into one (a command
        longer than the terminal is wide is one line here)."""
        return self._tmux("capture-pane", "-p", "-J", "-t", "t")

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", "t", "-l", text)

    def run(self, command: str) -> str:
        """Run ``command`` and return what it printed (between its prompt line and the next)."""
        marker = f"done-{uuid.uuid4().hex[:6]}"
        self.send("C-u")
        self.type(f"{command}; echo {marker}")
        self.send("Enter")
        screen = self.wait_for(lambda s: f"\n{marker}" in s)
        output = screen.split(f"{command}; echo {marker}\n", 1)[-1]
        return output.split(f"\n{marker}", 1)[0]

    def wait_for(
        self, ready: Callable[[str], bool], timeout: float = 10, *, unwrapped: bool = False
    ) -> str:
        """The screen once ``ready`` holds for it (``unwrapped``: for ``self.unwrapped()``)."""
        capture = self.unwrapped if unwrapped else self.screen
        deadline = time.monotonic() + timeout
        screen = capture()
        while not ready(screen):
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; screen was:\n{screen}")
            time.sleep(0.05)
            screen = capture()
        return screen

    def cursor(self) -> tuple[int, int]:
        """(column, row) of the cursor, counted from 0."""
        x, y = self._tmux("display", "-p", "-t", "t", "#{cursor_x} #{cursor_y}").split()
        return int(x), int(y)

    def prompt_line(self) -> str:
        return [line for line in self.screen().splitlines() if line.strip()][-1]

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def installed_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy("/etc/skel/.bashrc", home / ".bashrc") if os.path.exists(
        "/etc/skel/.bashrc"
    ) else None
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    return home


@pytest.fixture
def shell(installed_home: Path) -> Iterator[TmuxShell]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is required for the e2e tests (apt-get install tmux)")
    session = TmuxShell(installed_home)
    yield session
    session.close()
