"""Blocks that fail softly (issue 25.3): the dotdbg program gone (pipx uninstall, a removed
venv) while its shell files stay, a real bash and zsh start silently, and `ch` or Ctrl-G says
one line naming `dotdbg uninstall` and the manual removal, the first time only."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.infra.tmux import Tmux, shell_env

Cli = Callable[..., subprocess.CompletedProcess[str]]
GONE = "dotdbg: the dotdbg program is gone"


@pytest.fixture
def terminal() -> Iterator[list[Tmux]]:
    opened: list[Tmux] = []
    yield opened
    for term in opened:
        term.close()


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_ch_and_ctrl_g_say_one_line_once(fake_home: Path, terminal: list[Tmux], shell: str) -> None:
    # As pipx leaves it: ~/.local/bin/dotdbg, a link into its venv; then `pipx uninstall dotdbg`.
    local_bin = fake_home / ".local" / "bin"
    local_bin.mkdir(parents=True)
    (local_bin / "dotdbg").symlink_to(Path(sys.executable).parent / "dotdbg")
    install(Paths.from_env(fake_home), shells=(shell,))
    (local_bin / "dotdbg").unlink()
    env = shell_env(fake_home, shell, PATH="/usr/bin:/bin")
    term = Tmux.shell(shell, fake_home, env=env)
    terminal.append(term)
    said = term.run("ch git")
    assert said.count(GONE) == 1, said
    assert "dotdbg uninstall" in said and ".local/share/dotdbg" in said
    assert "command not found" not in said
    assert GONE not in term.run("ch git")  # once
    term.keys("C-g")
    assert GONE not in term.run("true")


def test_uninstall_says_what_it_keeps_and_purge_removes_it(cli: Cli, fake_home: Path) -> None:
    env = {"HOME": str(fake_home)}
    assert cli("dotdbg", "install", "--shell", "bash", env=env).returncode == 0
    state = fake_home / ".local" / "state" / "dotdbg"
    said = cli("dotdbg", "uninstall", env=env).stderr
    assert "kept: ~/.local/state/dotdbg/checked" in said
    assert "`dotdbg uninstall --purge` removes them" in said
    assert (state / "checked").exists() and (state / "rendered.json").exists()
    assert cli("dotdbg", "install", "--shell", "bash", env=env).returncode == 0
    said = cli("dotdbg", "uninstall", "--purge", env=env).stderr
    assert "removed: ~/.local/state/dotdbg/checked" in said
    for name in ("checked", "lock", "rendered.json"):
        assert not (state / name).exists(), name
    assert list((state / "backups").iterdir())  # the user's old files stay
    assert "kept: your old files in ~/.local/state/dotdbg/backups" in said
