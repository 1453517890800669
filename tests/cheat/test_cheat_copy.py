"""`dotdbg cheat --copy`: OSC 52 as a real tmux receives it, and the local-tool fallback."""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.cheat.clipboard import osc52, through_passthrough
from tests.cheat.cheat_helpers import DOTDBG, write_sheet
from tests.infra.procs import wait_for
from tests.infra.tmux import WAIT, Tmux

SHEET = "# qqcopy the one to copy\necho 'qq copied' && ls -l <dir>\n\n# qqcopy other\necho other\n"


def test_osc52_and_passthrough_bytes() -> None:
    assert osc52("hi") == b"\x1b]52;c;aGk=\x07"
    assert through_passthrough(b"\x1b]52;c;aGk=\x07") == b"\x1bPtmux;\x1b\x1b]52;c;aGk=\x07\x1b\\"


@pytest.fixture
def tmux() -> Iterator[Callable[[str], Tmux]]:
    """A tmux server of the test's own whose pane runs a command with set-clipboard on, so an
    OSC 52 from the pane fills its paste buffer."""
    servers: list[Tmux] = []

    def start(command: str) -> Tmux:
        clipboard = {"set-clipboard": "on"}
        servers.append(Tmux([command], env=None, width=120, height=20, options=clipboard))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def copied(server: Tmux) -> str:
    """What the copy put in ``server``'s paste buffer, once there."""
    wait_for(lambda: bool(server.buffer()), WAIT, "the copy in tmux's buffer")
    return server.buffer()


def test_copy_reaches_tmux_through_osc52(
    tmux: Callable[[str], Tmux], personal_dir: Path, tmp_path: Path
) -> None:
    write_sheet(personal_dir, "qqcopy", SHEET)
    err = tmp_path / "err"
    server = tmux(
        f"env -i HOME={os.environ['HOME']} TERM=xterm-256color PATH=/usr/bin:/bin"
        f" {DOTDBG} cheat --copy qqcopy one 2>{err} >{tmp_path / 'out'}; sleep 30"
    )
    assert copied(server) == "echo 'qq copied' && ls -l <dir>"
    assert (tmp_path / "out").read_text() == "echo 'qq copied' && ls -l <dir>\n"
    assert err.read_text() == "dotdbg: copied (OSC 52)\n"


def test_copy_of_standard_input(tmux: Callable[[str], Tmux], tmp_path: Path) -> None:
    server = tmux(
        f"printf 'line one\\nline two\\n' | env TERM=xterm {DOTDBG} cheat --copy; sleep 30"
    )
    assert copied(server) == "line one\nline two"


def test_copy_inside_tmux_without_set_clipboard_goes_through_passthrough(
    tmux: Callable[[str], Tmux], tmp_path: Path
) -> None:
    """A tmux inside the outer one, as over ssh: the inner one keeps set-clipboard at its default
    (external), so only passthrough carries the sequence out to the outer "terminal"."""
    inner = f"dotdbg-inner-{uuid.uuid4().hex[:8]}"
    script = tmp_path / "inner.sh"
    script.write_text(
        f"tmux -L {inner} -f /dev/null new-session -d -s i 'sleep 60'\n"
        f"tmux -L {inner} set -g allow-passthrough on\n"
        # Passthrough reaches only a client that is attached and set up when the sequence is
        # written, and on a loaded machine "attached" (list-clients) comes before "set up": the
        # same copy is made every half second (40 at most) until the outer tmux has it.
        f"tmux -L {inner} new-window -t i 'for _ in $(seq 40); do"
        f" printf qq-pass | {DOTDBG} cheat --copy 2>>{tmp_path / 'err'}; sleep 0.5; done;"
        " sleep 30'\n"
        f"exec tmux -L {inner} attach -t i\n"
    )
    server = tmux(f"TERM=xterm-256color bash {script}")
    try:
        assert copied(server) == "qq-pass"
        said = (tmp_path / "err").read_text().splitlines()
        assert said and set(said) == {"dotdbg: copied (OSC 52 through tmux passthrough)"}
    finally:
        subprocess.run(["tmux", "-L", inner, "kill-server"], capture_output=True)
        server.socket_path.with_name(inner).unlink(missing_ok=True)  # beside the outer one's


def run_detached(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """No controlling terminal: as under cron, or a CI job."""
    return subprocess.run(
        [DOTDBG, "cheat", *args], env=env, capture_output=True, text=True, start_new_session=True
    )


def test_without_a_terminal_a_clipboard_program_is_used(personal_dir: Path, tmp_path: Path) -> None:
    write_sheet(personal_dir, "qqcopy", SHEET)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "xclip"  # no X server here: a stand-in that keeps what it is given
    tool.write_text(f"#!/bin/sh\ncat > {tmp_path / 'clip'}\n")
    tool.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", "DISPLAY": ":9", "TERM": "xterm"}
    done = run_detached(["--copy", "qqcopy", "other"], env)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "clip").read_text() == "echo other"
    assert done.stderr == "dotdbg: copied (xclip)\n"


def test_no_terminal_and_no_program_is_one_error(personal_dir: Path) -> None:
    write_sheet(personal_dir, "qqcopy", SHEET)
    env = {**os.environ, "PATH": "/nonexistent", "TERM": "xterm"}
    env.pop("DISPLAY", None)
    done = run_detached(["--copy", "qqcopy", "other"], env)
    assert done.returncode == 2
    assert done.stderr.startswith("dotdbg: error: cannot copy: there is no terminal")
    assert done.stdout == ""
