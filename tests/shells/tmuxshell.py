"""A real interactive zsh or fish in tmux, in a temporary home, with a plain ``$ `` prompt."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

# Typed once the shell is up: a prompt that is easy to find, and a clean screen.
PLAIN_PROMPT = {
    "zsh": "PS1='$ '; RPROMPT=; clear",
    "fish": "function fish_prompt; echo -n '$ '; end; function fish_right_prompt; end; clear",
}


class TmuxShell:
    def __init__(self, shell: str, home: Path, extra_env: dict[str, str] | None = None) -> None:
        env = {
            "HOME": str(home),
            "TERM": "xterm-256color",
            "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "SHELL": f"/usr/bin/{shell}",
            **(extra_env or {}),
        }
        command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), shell, "-i"]
        self.open(shell, ["-c", str(home), *command])
        self.wait_for(lambda screen: bool(screen.strip()), "the first prompt")
        self.plain_prompt()

    def open(self, shell: str, respawn: list[str]) -> None:
        """A tmux server of its own whose pane runs ``respawn`` (respawn-pane's words)."""
        self.name = shell
        self.socket = f"dotdbg-{shell}-{uuid.uuid4().hex[:8]}"
        self.tmux("-f", "/dev/null", "new-session", "-d", "-x", "150", "-y", "40", "-s", "t")
        self.tmux("respawn-pane", "-k", "-t", "t", *respawn)

    def plain_prompt(self) -> None:
        self.type(PLAIN_PROMPT[self.name])
        self.keys("Enter")
        self.wait_for(lambda screen: screen.strip() == "$", "the plain prompt")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", "--", text)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", "t")

    def wait_for(self, ready: Callable[[str], bool], what: str, timeout: float = 15) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{screen}")
            time.sleep(0.03)

    def run(self, command: str) -> str:
        """Run ``command`` on a clear screen; what it printed before the next prompt."""
        marker = f"end-{uuid.uuid4().hex[:6]}"
        self.keys("C-e", "C-u")
        self.type(f"clear; {command}; echo {marker}")
        self.keys("Enter")
        screen = self.wait_for(lambda s: marker in s.splitlines(), f"{command!r} to finish")
        lines = screen.splitlines()
        return "\n".join(lines[: lines.index(marker)])

    def line(self) -> str:
        """The command line being edited (the last line with text on the screen)."""
        lines = [line.rstrip() for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
