"""The tests' one terminal: a tmux server of the test's own whose one pane runs a program (a real
interactive bash, zsh or fish, or what starts one: memlimit, ``dotdbg ssh``), with keys to type
and the screen to read."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

# What a test waits for on the screen; generous: the suite runs at load 15 on 2 cores, where a
# shell's start takes about 100 times its quiet 20 ms.
WAIT = 30.0

# Typed once the shell is up: a prompt that is easy to find.
PLAIN_PROMPT = {
    "bash": "PS1='$ '",
    "zsh": "PS1='$ '; RPROMPT=",
    "fish": "function fish_prompt; echo -n '$ '; end; function fish_right_prompt; end",
}


def shell_env(home: Path, shell: str = "bash", **extra: str) -> dict[str, str]:
    """A user's environment, bare: HOME, a terminal, dotdbg's folder and the system on PATH."""
    return {
        "HOME": str(home),
        "TERM": "xterm-256color",
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "SHELL": f"/bin/{shell}" if shell == "bash" else f"/usr/bin/{shell}",
        **extra,
    }


def need_tmux() -> None:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is required for the terminal tests (apt-get install tmux)")


def bash_prompt(screen: str) -> bool:
    """A wait_for condition: the screen ends in a bash prompt (``$`` or root's ``#``)."""
    return screen.rstrip().endswith(("$", "#"))


class Tmux:
    """``Tmux(argv, env=…)``: ``argv`` runs in a pane of ``width`` by ``height`` with exactly
    ``env`` (nothing of the test's own environment; ``env=None``: the test's own, with the
    ``TMUX`` that tmux sets in its panes), after the server's ``options`` are set (``set -g``).
    ``name`` is what runs there, for the tests that ask (``bash``, ``zsh``, ``fish``)."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None,
        cwd: Path | None = None,
        width: int = 150,
        height: int = 40,
        name: str = "dotdbg",
        options: Mapping[str, str] | None = None,
    ) -> None:
        need_tmux()
        self.name = name
        self.socket = f"{name}-{uuid.uuid4().hex[:8]}"
        exact = [] if env is None else ["env", "-i", *(f"{k}={v}" for k, v in env.items())]
        where = ["-c", str(cwd)] if cwd else []
        size = ["-x", str(width), "-y", str(height)]
        self("-f", "/dev/null", "new-session", "-d", *size, "-s", "t", *where, "sleep", "60")
        for option, value in (options or {}).items():
            self("set", "-g", option, value)
        self("respawn-pane", "-k", "-t", "t", *where, *exact, *argv)
        self.socket_path = Path(self("display", "-p", "-t", "t", "#{socket_path}").strip())

    @classmethod
    def shell(
        cls, shell: str, home: Path, *args: str, env: Mapping[str, str] | None = None
    ) -> Tmux:
        """An interactive ``shell`` in ``home`` (its own rc files read), with a plain prompt."""
        term = cls([shell, *args, "-i"], env=env or shell_env(home, shell), cwd=home, name=shell)
        term.wait_for(lambda screen: bool(screen.strip()), "the first prompt")
        term.plain_prompt(shell)
        return term

    @classmethod
    def bash(cls, home: Path, argv: Sequence[str] = ("bash", "--noprofile", "-i")) -> Tmux:
        """``argv``, a bash or what starts one (memlimit, ``dotdbg ssh``), in ``home`` with
        ``PS1='$ '`` in its environment; once its first prompt shows, a plain one."""
        env = shell_env(home, PS1="$ ")
        term = cls(argv, env=env, cwd=home, name="bash")
        term.wait_for(bash_prompt, "the first prompt")
        term.plain_prompt("bash")
        return term

    def plain_prompt(self, shell: str) -> None:
        self.type(PLAIN_PROMPT[shell] + "; clear")
        self.keys("Enter")
        self.wait_for(lambda screen: screen.strip() == "$", "the plain prompt")

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def keys(self, *keys: str) -> None:
        self("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self("send-keys", "-t", "t", "-l", "--", text)

    def screen(self, *, wrapped: bool = False, colours: bool = False) -> str:
        """The visible screen, wrapped lines joined, trailing spaces kept; ``wrapped``: as the
        terminal shows it, one line per row, trailing spaces dropped; ``colours``: with the
        escape sequences of its colours and attributes."""
        joined = () if wrapped else ("-J", "-N")
        escapes = ("-e",) if colours else ()
        return self("capture-pane", "-p", *joined, *escapes, "-t", "t")

    def wait_for(
        self,
        ready: Callable[[str], bool],
        what: str,
        timeout: float = WAIT,
        *,
        wrapped: bool = False,
    ) -> str:
        """The screen (``wrapped`` as for ``screen``) once ``ready`` holds for it."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen(wrapped=wrapped)
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{screen}")
            time.sleep(0.05)

    def answer(self, question: str, reply: str) -> None:
        """Wait for ``question`` on the screen, then type ``reply`` and Enter."""
        self.wait_for(lambda screen: question in screen, repr(question))
        self.type(reply)
        self.keys("Enter")

    def run(self, command: str) -> str:
        """Run ``command`` on a clear screen; what it printed before the next prompt."""
        marker = f"end-{uuid.uuid4().hex[:6]}"
        self.keys("C-e", "C-u")
        self.type(f"clear; {command}; echo {marker}")
        self.keys("Enter")
        screen = self.wait_for(lambda s: marker in s.splitlines(), f"{command!r} to finish")
        lines = [line.rstrip() for line in screen.splitlines()]
        return "\n".join(lines[: lines.index(marker)])

    def line(self) -> str:
        """The command line being edited (the last line with text on the screen)."""
        lines = [line.rstrip() for line in self.screen().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def cursor(self) -> tuple[int, int]:
        """(column, row) of the cursor, counted from 0."""
        x, y = self("display", "-p", "-t", "t", "#{cursor_x} #{cursor_y}").split()
        return int(x), int(y)

    def buffer(self) -> str:
        """tmux's newest paste buffer (what an OSC 52 copy fills), ``""`` while there is none."""
        done = subprocess.run(["tmux", "-L", self.socket, "show-buffer"], capture_output=True)
        return done.stdout.decode() if done.returncode == 0 else ""

    def pane_pid(self) -> int:
        """The process id of what runs in the pane (``argv``'s first program)."""
        return int(self("display", "-p", "-t", "t", "#{pane_pid}"))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        self.socket_path.unlink(missing_ok=True)  # tmux 3.3 leaves it behind in /tmp
