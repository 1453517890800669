"""$INPUTRC honoured (issue 24.3): dotdbg's readline settings go into the file readline reads,
with the managed block's guarantees (a block in the user's file, uninstall byte for byte), and
~/.inputrc, which readline would never read, is not created."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from dotdbg.home.install import install, uninstall
from dotdbg.paths import Paths
from tests.infra.tmux import Tmux, shell_env

USERS = "set bell-style none\n"


@pytest.fixture
def xdg_inputrc(fake_home: Path) -> Path:
    inputrc = fake_home / ".config" / "readline" / "inputrc"
    inputrc.parent.mkdir(parents=True)
    inputrc.write_text(USERS)
    (fake_home / ".bashrc").write_text("PS1='$ '\n")
    return inputrc


def _paths(home: Path, inputrc: Path) -> Paths:
    return Paths.from_env(env={"HOME": str(home), "INPUTRC": str(inputrc)})


def test_the_block_goes_where_readline_reads_and_up_searches_by_prefix(
    fake_home: Path, xdg_inputrc: Path, terminal: list[Tmux]
) -> None:
    install(_paths(fake_home, xdg_inputrc), shells=("bash",))
    assert not (fake_home / ".inputrc").exists()
    assert xdg_inputrc.read_text().startswith(USERS)
    assert "# >>> dotdbg >>>" in xdg_inputrc.read_text()

    env = shell_env(fake_home, INPUTRC="~/.config/readline/inputrc")
    term = Tmux(["bash", "-i"], env=env, cwd=fake_home)
    terminal.append(term)
    term.wait_for(lambda screen: screen.rstrip().endswith("$"), "the prompt")
    word = f"first-{uuid.uuid4().hex[:6]}"
    for command in (f"echo {word}", "true"):
        term.type(command)
        term.keys("Enter")
    term.wait_for(lambda screen: screen.count("$") >= 3, "the two commands")
    term.type("ech")
    term.keys("Up")
    term.wait_for(lambda screen: screen.rstrip().endswith(f"$ echo {word}"), "the prefix search")

    uninstall(_paths(fake_home, xdg_inputrc))
    assert xdg_inputrc.read_text() == USERS
    assert not (fake_home / ".inputrc").exists()


def test_a_block_left_behind_by_a_move_is_taken_out(fake_home: Path, xdg_inputrc: Path) -> None:
    install(Paths.from_env(env={"HOME": str(fake_home)}), shells=("bash",))
    assert "# >>> dotdbg >>>" in (fake_home / ".inputrc").read_text()
    install(_paths(fake_home, xdg_inputrc), shells=("bash",))  # INPUTRC set since
    assert "# >>> dotdbg >>>" in xdg_inputrc.read_text()
    assert not (fake_home / ".inputrc").exists()  # dotdbg created it: it goes
    uninstall(_paths(fake_home, xdg_inputrc))
    assert xdg_inputrc.read_text() == USERS
