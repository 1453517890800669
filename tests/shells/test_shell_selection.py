"""The first install sets up the shells the user uses (issue 24.7): the login shell and each
shell whose files are in the home; the other shells installed on the machine are named in one
line with the command that adds them, and get no file."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.home.state import read_manifest
from dotdbg.paths import Paths

Cli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(autouse=True)
def every_shell() -> None:
    for shell in ("bash", "zsh", "fish"):
        if shutil.which(shell) is None:
            pytest.fail(f"{shell} is required here (apt-get install {shell})")


def _install(cli: Cli, home: Path, login: str, *args: str) -> subprocess.CompletedProcess[str]:
    done = cli("dotdbg", "install", *args, env={"HOME": str(home), "SHELL": login})
    assert done.returncode == 0, done.stderr
    return done


def test_a_bash_user_gets_bash_only_and_is_told_of_the_others(cli: Cli, fake_home: Path) -> None:
    shutil.copy("/etc/skel/.bashrc", fake_home / ".bashrc")
    done = _install(cli, fake_home, "/bin/bash")
    assert read_manifest(Paths.from_env(fake_home))["shells"] == ["bash"]
    assert not (fake_home / ".zshrc").exists()
    assert not (fake_home / ".zshenv").exists()
    assert not (fake_home / ".config" / "fish").exists()
    said = [line for line in done.stderr.splitlines() if "installed here too" in line]
    assert len(said) == 1
    assert "zsh and fish are installed here too" in said[0]
    assert "dotdbg install --shell bash,zsh,fish" in said[0]
    # Said once, at the first install, not at each one after.
    assert "installed here too" not in _install(cli, fake_home, "/bin/bash").stderr


def test_a_shell_whose_rc_file_exists_is_set_up(cli: Cli, fake_home: Path) -> None:
    (fake_home / ".zshrc").write_text("setopt autocd\n")
    done = _install(cli, fake_home, "/bin/bash")
    assert read_manifest(Paths.from_env(fake_home))["shells"] == ["bash", "zsh"]
    assert "# >>> dotdbg >>>" in (fake_home / ".zshrc").read_text()
    assert "fish is installed here too" in done.stderr


def test_a_fish_user_without_other_files_gets_fish_only(cli: Cli, fake_home: Path) -> None:
    _install(cli, fake_home, "/usr/bin/fish")
    assert read_manifest(Paths.from_env(fake_home))["shells"] == ["fish"]
    assert not (fake_home / ".bashrc").exists()


def test_shell_adds_one_later(cli: Cli, fake_home: Path) -> None:
    _install(cli, fake_home, "/bin/bash")
    _install(cli, fake_home, "/bin/bash", "--shell", "bash,zsh")
    assert read_manifest(Paths.from_env(fake_home))["shells"] == ["bash", "zsh"]
