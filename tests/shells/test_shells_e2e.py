"""zsh and fish with dotdbg installed, driven in tmux in a temporary home: an alias and each
default function work, Up recalls by prefix, Ctrl-G puts a cheatsheet command on the line and
runs nothing until Enter. One home and one shell of each kind for the whole module."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.infra.tmux import Tmux, shell_env

pytestmark = pytest.mark.e2e

CONFIG = '[aliases]\nhi = "echo hello-from-alias"\n'
SHEET = "# qqmarker pick me\ntouch qq-ran-marker <file>\n"


def a_line_is(text: str) -> Callable[[str], bool]:
    """A wait_for condition: one line of the screen is ``text``."""
    return lambda screen: text in screen.splitlines()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("shells-home")
    (home / ".config" / "dotdbg" / "cheatsheets").mkdir(parents=True)
    (home / ".config" / "dotdbg" / "config.toml").write_text(CONFIG)
    (home / ".config" / "dotdbg" / "cheatsheets" / "qqpick").write_text(SHEET)
    install(Paths.from_env(home), shells=("bash", "zsh", "fish"))
    work = home / "work"
    (work / "d").mkdir(parents=True)
    (work / "d" / "file-in-d").write_text("x")
    (work / ".hidden-file").write_text("x")
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    (work / "code.py").write_text("old_name = 1\nprint(old_name)\n")
    subprocess.run([*git, "add", "code.py"], check=True)
    subprocess.run([*git, "commit", "-qm", "c"], check=True)
    return home


@pytest.fixture(scope="module", params=["zsh", "fish"])
def shell(request: pytest.FixtureRequest, home: Path) -> Iterator[Tmux]:
    if shutil.which("tmux") is None or shutil.which(request.param) is None:
        pytest.fail(f"tmux and {request.param} are needed (apt-get install tmux zsh fish)")
    env = shell_env(home, request.param, DOTDBG_CHEAT_PICKER="fzf")
    session = Tmux.shell(request.param, home, env=env)
    session.run(f"cd {home / 'work'}")
    yield session
    session.close()


def test_an_alias_and_each_default_function_work(shell: Tmux, home: Path) -> None:
    work = home / "work"
    assert shell.run("hi") == "hello-from-alias"
    assert "file-in-d" in shell.run("l d | cat")
    assert "file-in-d" in shell.run("lt d | cat")
    assert ".hidden-file" in shell.run("la | cat")
    shown = shell.run("df /")
    assert "Filesystem" in shown
    assert "/dev/loop" not in shown
    shell.run("wrap d/")
    assert (work / "d.tgz").is_file()
    assert "d/file-in-d" in shell.run("tar tzf d.tgz")
    (work / "d.tgz").unlink()
    assert "1 file changed" in shell.run("git-replace old_name new_name")
    assert (work / "code.py").read_text() == "new_name = 1\nprint(new_name)\n"
    subprocess.run(["git", "-C", str(work), "checkout", "-q", "code.py"], check=True)


def test_up_recalls_the_last_command_that_starts_with_what_is_typed(shell: Tmux) -> None:
    for command in ("echo alpha-one", "echo beta-two"):  # typed as they are, no `clear;` first
        shell.keys("C-u")
        shell.type(command)
        shell.keys("Enter")
        printed = command.split()[1]
        shell.wait_for(a_line_is(printed), command)
    shell.keys("C-u")
    shell.type("echo al")
    shell.keys("Up")
    shell.wait_for(lambda screen: shell.line().endswith("echo alpha-one"), "the recalled line")
    shell.keys("C-e", "C-u")


def test_each_command_is_in_the_history_file_as_it_runs(shell: Tmux, home: Path) -> None:
    shell.run("echo saved-at-once")
    history = {
        "zsh": home / ".zsh_history",
        "fish": home / ".local" / "share" / "fish" / "fish_history",
    }[shell.name]
    shell.wait_for(lambda _: "echo saved-at-once" in history.read_text(), "the history file")


def test_tab_completes_dotdbg_commands(shell: Tmux) -> None:
    """In zsh with nothing but dotdbg's block: Debian's /etc/zsh/zshrc runs compinit only on
    Ubuntu, and dotdbg runs it at the first prompt (issue 24.6)."""
    shell.keys("C-e", "C-u")
    shell.type("dotdbg uninst")
    shell.keys("Tab")
    shell.wait_for(lambda _: "dotdbg uninstall " in shell.line() + " ", "the completed word")
    shell.keys("C-e", "C-u")


def test_tab_completes_options_and_directories_from_the_registry(shell: Tmux) -> None:
    """`dotdbg --complete` answers from the registry: an option, a directory after --home."""
    shell.keys("C-e", "C-u")
    shell.type("dotdbg install --ho")
    shell.keys("Tab")
    shell.wait_for(lambda _: "dotdbg install --home " in shell.line() + " ", "the option")
    shell.type("d")
    shell.keys("Tab")
    shell.wait_for(lambda _: "--home d/" in shell.line(), "the directory")
    shell.keys("C-e", "C-u")


def test_ctrl_g_puts_the_pick_on_the_line_and_runs_nothing_until_enter(
    shell: Tmux, home: Path
) -> None:
    marker = home / "work" / "qq-ran-marker"
    shell.run("true")
    shell.keys("C-g")
    shell.wait_for(lambda screen: "cheat>" in screen, "fzf")
    shell.type("qqmarker pick")
    shell.wait_for(lambda screen: "pick me" in screen, "the entry in fzf")
    shell.keys("Enter")
    shell.wait_for(lambda s: shell.line().endswith("touch qq-ran-marker <file>"), "the pick")
    assert not marker.exists()
    shell.type("X")  # the cursor is on the placeholder
    shell.wait_for(lambda s: "qq-ran-marker X<file>" in shell.line(), "typing at <file>")
    assert not marker.exists()
    shell.keys("C-e", "C-u")  # fish's C-u kills only what is left of the cursor
    shell.type("touch qq-ran-marker")
    shell.keys("Enter")
    shell.wait_for(lambda s: marker.exists(), "Enter to run it")
    marker.unlink()


def test_the_numbered_list_puts_the_pick_on_the_line_too(shell: Tmux, home: Path) -> None:
    """Without fzf (or with DOTDBG_CHEAT_PICKER=list) dotdbg's own list picks."""
    setting = {"zsh": "export DOTDBG_CHEAT_PICKER=list", "fish": "set -gx DOTDBG_CHEAT_PICKER list"}
    shell.run(setting[shell.name])
    shell.keys("C-e", "C-u")
    shell.keys("C-g")
    shell.wait_for(lambda screen: "cheat: search words" in screen, "the search question")
    shell.type("qqmarker")
    shell.keys("Enter")
    shell.wait_for(lambda screen: "cheat: number" in screen, "the numbered list")
    shell.type("1")
    shell.keys("Enter")
    shell.wait_for(lambda s: shell.line().endswith("touch qq-ran-marker <file>"), "the pick")
    assert not (home / "work" / "qq-ran-marker").exists()
    shell.keys("C-e", "C-u")
    shell.run("set -e DOTDBG_CHEAT_PICKER" if shell.name == "fish" else "unset DOTDBG_CHEAT_PICKER")


def test_fish_abbreviations_expand_as_they_are_typed(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    paths.config_file.parent.mkdir(parents=True)
    paths.config_file.write_text("[fish]\nabbreviations = true\n")
    install(paths, shells=("fish",))
    session = Tmux.shell("fish", tmp_path)
    try:
        session.type("gs ")
        session.wait_for(lambda _: session.line().endswith("git status"), "the expansion")
    finally:
        session.close()


@pytest.mark.parametrize("order", ["framework-first", "dotdbg-first"])
def test_zsh_runs_compinit_once_when_a_framework_does(tmp_path: Path, order: str) -> None:
    """A .zshrc that runs compinit itself (as oh-my-zsh does, before or after dotdbg's block):
    dotdbg registers its completion and runs no second compinit (which would write dotdbg's
    dump file, ~/.zcompdump, beside the framework's)."""
    own = "autoload -Uz compinit && compinit -d ~/.zcompdump-framework\n"
    zshrc = tmp_path / ".zshrc"
    zshrc.write_text(own if order == "framework-first" else "")
    install(Paths.from_env(tmp_path), shells=("zsh",))
    if order == "dotdbg-first":
        zshrc.write_text(zshrc.read_text() + own)
    session = Tmux.shell("zsh", tmp_path)
    try:
        session.keys("C-e", "C-u")
        session.type("dotdbg uninst")
        session.keys("Tab")
        session.wait_for(lambda _: "dotdbg uninstall " in session.line() + " ", "completion")
    finally:
        session.close()
    assert (tmp_path / ".zcompdump-framework").exists()
    assert not (tmp_path / ".zcompdump").exists()
