"""Per-shell answers (issue 26.3): `ch --add` reads the history of the shell it runs in, the
picker of zsh and fish leaves out what only bash runs, fish's numbered list shows the typed
line once. Real zsh and fish under tmux, installed by `dotdbg install`."""

from __future__ import annotations

from pathlib import Path

import pytest

from dotdbg.cheat.shellfit import bash_only, running_shell
from dotdbg.home.install import install
from dotdbg.paths import Paths
from dotdbg.shells.histfile import commands_in, history_file
from tests.cheat.cheat_helpers import RunCheat
from tests.infra.tmux import Tmux, shell_env

DECOY = "echo qqbash-decoy"  # the last command in ~/.bash_history: never the one added


def installed_shell(home: Path, shell: str, opened: list[Tmux], **env: str) -> Tmux:
    (home / ".bash_history").write_text(f"{DECOY}\n")
    install(Paths.from_env(home), shells=(shell,))
    term = Tmux.shell(shell, home, env=shell_env(home, shell, **env))
    opened.append(term)
    return term


def typed(term: Tmux, line: str, until: str) -> str:
    """Type ``line`` and Enter, as a user does (the history holds ``line`` itself); the screen
    once it ends with ``until``."""
    term.keys("C-l")
    term.wait_for(lambda screen: screen.strip() == "$", "a clear screen")
    term.type(line)
    term.keys("Enter")

    def ended(screen: str) -> bool:
        after = screen.partition(line)[2].rstrip()
        return after.endswith(until) and after != ""

    return term.wait_for(ended, f"{line!r}, then {until!r}")


# -- ch --add ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("shell", "command"),
    [
        ("zsh", "echo qq—zsh-$((40 + 2))"),  # "—" holds 0x94: zsh writes it metafied
        ("fish", "echo qq\\\\fish (math 40 + 2)"),  # fish writes \\ escaped in its file
    ],
)
def test_add_takes_the_last_command_of_the_shell_it_runs_in(
    fake_home: Path, personal_dir: Path, terminal: list[Tmux], shell: str, command: str
) -> None:
    term = installed_shell(fake_home, shell, terminal)
    typed(term, command, "42\n$")
    said = typed(term, "ch --add qqmine --comment 'print the answer'", "$")
    assert "added to" in said, said
    sheet = (personal_dir / "qqmine").read_text()
    assert sheet.endswith(f"# print the answer\n{command}\n")
    assert "decoy" not in sheet


def test_zsh_history_extended_continued_and_metafied() -> None:
    data = (
        b": 1700000000:0;echo one\n"
        b": 1700000001:3;for x in a b; do\\\n  echo $x\\\ndone\n"
        b"echo plain \xe2\x80\x83\xb4\n"  # "—" (e2 80 94) with 0x94 metafied
    )
    assert commands_in("zsh", data) == [
        "echo one",
        "for x in a b; do\n  echo $x\ndone",
        "echo plain —",
    ]


def test_fish_history_entries_unescaped() -> None:
    text = "- cmd: echo a\\nb\n  when: 1700000000\n- cmd: echo c\\\\d\n  when: 1\n  paths:\n"
    assert commands_in("fish", (text + "    - x\n").encode()) == ["echo a\nb", "echo c\\d"]


def test_history_files_per_shell(tmp_path: Path) -> None:
    home = {"HOME": str(tmp_path)}
    assert history_file("bash", home) == tmp_path / ".bash_history"
    assert history_file("zsh", home) == tmp_path / ".zsh_history"
    assert history_file("zsh", {**home, "ZDOTDIR": "/z"}) == Path("/z/.zsh_history")
    assert history_file("zsh", {**home, "HISTFILE": "/h"}) == Path("/h")
    fish = history_file("fish", {**home, "XDG_DATA_HOME": "/d", "HISTFILE": "/h"})
    assert fish == Path("/d/fish/fish_history")
    assert history_file("fish", {**home, "fish_history": "work"}).name == "work_history"


def test_running_shell_is_the_parent_else_the_login_shell() -> None:
    assert running_shell({"SHELL": "/bin/bash"}, "fish") == "fish"
    assert running_shell({"SHELL": "/usr/bin/zsh"}, "python3") == "zsh"
    assert running_shell({}, "-zsh") == "zsh"  # a login shell's name
    assert running_shell({}, "sshd") == "bash"


# -- the picker -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "fails_in"),
    [
        ("bind -q reverse-search-history", ("zsh", "fish")),
        ("stty -ixon; bind -q forward-search-history", ("zsh", "fish")),
        ('python train.py | tee log; echo "${PIPESTATUS[@]}"', ("zsh", "fish")),
        ("HISTCONTROL=ignoreboth", ("zsh", "fish")),
        ("unset $(compgen -v SLURM_)", ("zsh", "fish")),
        ("for i in $(seq 5); do pytest -x || break; done", ("fish",)),
        ('ls "${HF_HOME:-$HOME/.cache}"', ("fish",)),
        ("python train.py; echo $?", ("fish",)),
        ("cat >> ~/.pdbrc <<'EOF'\nalias nl n;;l\nEOF", ("fish",)),
        ("(ulimit -n 64; python train.py)", ("fish",)),
        ("sudo !!", ("fish",)),
        ("f=ckpt/x.bin; echo ok", ("fish",)),
        ("set -o vi", ("fish",)),
        ("lsz() { ls -lhS; }", ("fish",)),
        ("diff <(pip freeze) reqs.txt", ("fish",)),
        ("git log --oneline | head  # bind shopt $? ${x}", ()),  # a comment is not run
        ("grep -E 'then|done|$?|${x}|`' log", ()),  # single quotes: data everywhere
        ('python -c "import os; x=1; print(x)"', ()),
        ("CUDA_VISIBLE_DEVICES=0 python train.py && echo done", ()),
        ("history | grep git", ()),
        ("nvidia-smi --query-gpu=memory.used --format=csv", ()),
        ("set -x PATH /opt/bin $PATH", ()),
    ],
)
def test_bash_only_commands(command: str, fails_in: tuple[str, ...]) -> None:
    for shell in ("bash", "zsh", "fish"):
        assert bool(bash_only(command, shell)) == (shell in fails_in), (shell, command)


def test_pick_offers_each_shell_what_runs_there(run_cheat: RunCheat) -> None:
    def picked(shell: str) -> list[str]:
        out = run_cheat("--pick", "--shell", shell, "readline").stdout
        return [record.split("\x1f")[1] for record in out.split("\0") if record]

    bash, zsh, fish = picked("bash"), picked("zsh"), picked("fish")
    assert "bind -q reverse-search-history" in bash and "!1665" in bash
    assert "history | grep git" in bash and "history | grep git" in zsh + fish
    assert not [command for command in zsh if command.startswith("bind")]
    assert "!1665" in zsh and "!1665" not in fish
    assert run_cheat("--pick", "--shell", "tcsh").returncode == 2


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_numbered_list_leaves_out_bash_only_entries(
    fake_home: Path, terminal: list[Tmux], shell: str
) -> None:
    term = installed_shell(fake_home, shell, terminal, DOTDBG_CHEAT_PICKER="list")
    term.keys("C-g")
    term.answer("cheat: search words", "readline history")
    screen = term.wait_for(lambda screen: "cheat: number" in screen, "the list")
    assert "history | grep git" in screen
    assert "bind -q" not in screen and "shopt" not in screen
    term.keys("q")


def test_fish_numbered_list_shows_the_typed_line_once(
    fake_home: Path, terminal: list[Tmux]
) -> None:
    term = installed_shell(fake_home, "fish", terminal, DOTDBG_CHEAT_PICKER="list")
    term.type("true keep")
    term.keys("C-g")
    screen = term.wait_for(lambda screen: "cheat: search words" in screen, "the menu")
    assert screen.count("true keep") == 1, screen
    assert screen.splitlines()[:2] == ["$ true keep", screen.splitlines()[1]]
    assert screen.splitlines()[1].startswith("cheat: search words")
    term.keys("Escape")
    term.wait_for(lambda screen: "cheat:" not in screen, "the menu to be erased")
    term.type("Z")
    screen = term.wait_for(lambda screen: "$ true keepZ" in screen, "the line as it was")
    assert screen.count("true keep") == 1, screen
