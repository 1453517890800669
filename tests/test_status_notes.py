"""A note is not drift (issue 21.6): `status` and `push --status` say a login file that does not
load ~/.bashrc, and still exit 0 as "current"; a bad function body of the user's is reported at
the user's file:line:col, not at the shipped defaults."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.home.install import install, render_for
from dotdbg.paths import Paths
from dotdbg.remote.push import _status

Cli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def home_with_a_note(fake_home: Path) -> Path:
    (fake_home / ".bashrc").write_text("# mine\n")
    (fake_home / ".profile").write_text("export EDITOR=vi\n")  # does not load ~/.bashrc
    install(Paths.from_env(fake_home), shells=("bash",))
    return fake_home


def test_status_says_a_note_and_exits_0(cli: Cli, home_with_a_note: Path) -> None:
    done = cli("dotdbg", "status")
    assert done.returncode == 0, done.stdout
    assert "note: ~/.profile does not load ~/.bashrc" in done.stdout
    assert "installed and current" in done.stdout
    assert "not current" not in done.stdout and "drifted" not in done.stdout


def test_status_still_fails_on_a_file_that_drifted(cli: Cli, home_with_a_note: Path) -> None:
    generated = home_with_a_note / ".local/share/dotdbg/dotdbg.bash"
    generated.write_text(generated.read_text() + "alias by_hand=1\n")
    done = cli("dotdbg", "status")
    assert done.returncode == 1
    assert "dotdbg.bash is not current" in done.stdout


def test_push_status_of_a_home_with_only_a_note_is_current(home_with_a_note: Path) -> None:
    paths = Paths.from_env(home_with_a_note)
    config = load_config(paths)
    result = _status("h", paths, config, ("bash",), render_for(paths, config, ("bash",)))
    assert (result.ok, result.result) == (True, "current")
    assert any("does not load ~/.bashrc" in note for note in result.notes)


@pytest.mark.parametrize(
    ("toml", "line"),
    [
        ('[functions.myf]\ndesc = "x"\nbody = "}"\n', 3),
        ('functions.myf.desc = "x"\nfunctions.myf.body = "}"\n', 2),
        ('[functions]\nmyf = { desc = "x", body = "}" }\n', 2),
    ],
)
def test_a_bad_body_is_blamed_at_the_users_file(
    cli: Cli, fake_home: Path, toml: str, line: int
) -> None:
    config = fake_home / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(toml)
    done = cli("dotdbg", "install", "--shell", "bash")
    assert done.returncode == 2
    first = done.stderr.splitlines()[0]
    assert f"{config}:{line}:" in first, first
    assert "defaults.toml" not in done.stderr
