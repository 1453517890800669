"""No command runs a file of the home to learn its settings (issue 21.1): ``$ZDOTDIR`` comes
from the environment or from the text of ~/.zshenv, with and without ``--home`` (root checking
another user's home would run that user's code as root)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.paths import Paths
from dotdbg.shells.zdotdir import zdotdir_in

Cli = Callable[..., subprocess.CompletedProcess[str]]

# Every file a shell of the home reads at start-up leaves a mark when it runs.
STARTUP_FILES = (
    ".zshenv",
    ".zprofile",
    ".zshrc",
    ".zlogin",
    ".config/zsh/.zshrc",
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".config/fish/config.fish",
)

COMMANDS = (
    ("install", "--dry-run", "--shell", "bash,zsh"),
    ("status",),
    ("diff",),
    ("doctor",),
    ("install", "--shell", "bash,zsh"),
)


def _home_that_marks_every_start(home: Path) -> None:
    for name in STARTUP_FILES:
        path = home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f'touch "$HOME/ran-{path.name}"\n')
    with (home / ".zshenv").open("a") as zshenv:
        zshenv.write('export ZDOTDIR="$HOME/.config/zsh"\n')


@pytest.mark.parametrize("hermetic", [False, True], ids=["HOME", "--home"])
def test_no_command_runs_a_file_of_the_home(cli: Cli, tmp_path: Path, hermetic: bool) -> None:
    home = tmp_path / "user"
    home.mkdir()
    _home_that_marks_every_start(home)
    for command in COMMANDS:
        argv = [*command, "--home", str(home)] if hermetic else list(command)
        cli("dotdbg", *argv, env={"HOME": str(home)})
        marks = sorted(path.name for path in home.glob("ran-*"))
        assert marks == [], f"`dotdbg {' '.join(argv)}` ran {marks}"
    # ZDOTDIR was read from the text all the same: the block went to its .zshrc.
    assert "# >>> dotdbg >>>" in (home / ".config/zsh/.zshrc").read_text()
    assert "# >>> dotdbg >>>" not in (home / ".zshrc").read_text()


HOME = Path("/home/u")
CONFIG = Path("/home/u/.config")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('export ZDOTDIR="$HOME/.config/zsh"\n', "/home/u/.config/zsh"),
        ("ZDOTDIR=~/.zsh\n", "/home/u/.zsh"),
        ("export ZDOTDIR=${HOME}/zdot # mine\n", "/home/u/zdot"),
        ('ZDOTDIR="${XDG_CONFIG_HOME:-$HOME/.config}/zsh"\n', "/home/u/.config/zsh"),
        ("typeset -x ZDOTDIR='/opt/zsh'\n", "/opt/zsh"),
        ("# export ZDOTDIR=/nowhere\n", None),
        ("ZDOTDIR=/a\nZDOTDIR=/b\n", "/b"),
    ],
)
def test_zdotdir_read_from_the_text(text: str, expected: str | None) -> None:
    found = zdotdir_in(text, HOME, CONFIG)
    assert found.path == (Path(expected) if expected else None)
    assert found.unread is None


@pytest.mark.parametrize(
    "text",
    [
        'export ZDOTDIR="$(dirname "$0")/zsh"\n',
        "[[ -d $HOME/z ]] && export ZDOTDIR=$HOME/z\n",
        "ZDOTDIR=$MY_DOTFILES/zsh\n",
        "ZDOTDIR='~/zsh'\n",
    ],
)
def test_an_assignment_dotdbg_cannot_read_is_named_not_guessed(text: str) -> None:
    assert zdotdir_in(text, HOME, CONFIG).path is None
    assert zdotdir_in(text, HOME, CONFIG).unread == 1


def test_zdotdir_of_another_machines_home_is_read_through_its_filesystem(tmp_path: Path) -> None:
    (tmp_path / ".zshenv").write_text("export ZDOTDIR=$HOME/.zsh\n")
    assert Paths.from_env(tmp_path).zshrc == tmp_path / ".zsh" / ".zshrc"


def test_doctor_names_a_zdotdir_it_could_not_read(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / ".zshenv").write_text('# mine\nexport ZDOTDIR="$(cat ~/.zdot)"\n')
    done = cli("dotdbg", "doctor", "--home", str(tmp_path))
    assert "~/.zshenv:2 sets ZDOTDIR" in done.stdout + done.stderr
    assert not list(tmp_path.glob("ran-*"))
