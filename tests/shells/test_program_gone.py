"""Blocks that fail softly (issue 25.3): the dotdbg program gone (pipx uninstall, a removed
venv) while its shell files stay, a real bash, zsh and fish start silently, and `ch` or Ctrl-G says
one line naming `dotdbg uninstall` and the manual removal, the first time only."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.infra.tmux import Tmux, shell_env

Cli = Callable[..., subprocess.CompletedProcess[str]]
GONE = "dotdbg: the dotdbg program is gone"


def start_without_dotdbg(home: Path, shell: str) -> Tmux:
    """``shell`` started on a home where dotdbg was installed, then removed as `pipx uninstall`
    removes it (~/.local/bin/dotdbg, a link into its venv, deleted); its start said nothing."""
    local_bin = home / ".local" / "bin"
    local_bin.mkdir(parents=True)
    (local_bin / "dotdbg").symlink_to(Path(sys.executable).parent / "dotdbg")
    install(Paths.from_env(home), shells=(shell,))
    (local_bin / "dotdbg").unlink()
    env = shell_env(home, shell, PATH="/usr/bin:/bin")
    term = Tmux([shell, "-i"], env=env, cwd=home, name=shell)
    first = term.wait_for(lambda screen: screen.rstrip()[-1:] in ("$", "#", "%", ">"), "a prompt")
    assert "dotdbg" not in first and "not found" not in first, first
    term.plain_prompt(shell)
    return term


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_ch_and_ctrl_g_say_one_line_once(fake_home: Path, terminal: list[Tmux], shell: str) -> None:
    term = start_without_dotdbg(fake_home, shell)
    terminal.append(term)
    said = term.run("ch git")
    assert said.count(GONE) == 1, said
    assert "dotdbg uninstall" in said and ".local/share/dotdbg" in said
    assert "command not found" not in said and "Unknown command" not in said
    assert term.run("ch git") == ""  # once, and no error of the shell's own
    term.keys("C-g")
    assert GONE not in term.run("true")
    term.type("ch ")
    term.keys("Tab")  # completion asks dotdbg: nothing shown
    term.type("Z")
    screen = term.wait_for(lambda screen: screen.rstrip().endswith("$ ch Z"), "ch Z, no error")
    assert screen.strip().splitlines()[-2].startswith("end-"), screen  # run's end marker: no error


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_ctrl_g_first_says_the_line_then_ch_is_silent(
    fake_home: Path, terminal: list[Tmux], shell: str
) -> None:
    term = start_without_dotdbg(fake_home, shell)
    terminal.append(term)
    term.type("true keep")
    term.keys("C-g")
    screen = term.wait_for(lambda screen: GONE in screen, "the line")
    assert screen.count(GONE) == 1 and "not found" not in screen and "Unknown" not in screen
    term.wait_for(lambda screen: screen.rstrip().endswith("$ true keep"), "the line kept")
    assert term.run("ch git") == ""


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
