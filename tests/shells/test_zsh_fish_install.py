"""Install and uninstall for zsh and fish: a block in ${ZDOTDIR:-~}/.zshrc and dotdbg's own
conf.d/dotdbg.fish; uninstall leaves a realistic .zshrc byte for byte as it was; start-up
spawns no process in either shell."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.errors import DotdbgError
from dotdbg.home.install import install, uninstall
from dotdbg.home.state import read_manifest
from dotdbg.paths import Paths

# What oh-my-zsh's installer leaves in ~/.zshrc, in outline: its variables, the plugin list,
# the line that loads it, the user's lines after it.
OH_MY_ZSH = """\
# Path to the oh-my-zsh installation.
export ZSH="$HOME/.oh-my-zsh"

ZSH_THEME="robbyrussell"
# CASE_SENSITIVE="true"
# zstyle ':omz:update' mode reminder

plugins=(git)

[[ -f $ZSH/oh-my-zsh.sh ]] && source $ZSH/oh-my-zsh.sh

# User configuration
export EDITOR='vim'
alias zshconfig="$EDITOR ~/.zshrc"
"""


def _env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": "dumb", "LANG": "C.UTF-8"}


def _zsh_has_dotdbg(home: Path) -> bool:
    done = subprocess.run(
        ["zsh", "-i", "-c", "whence -w git-replace"],
        env=_env(home),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    return "git-replace: function" in done.stdout


@pytest.mark.parametrize("ending", ["\n", ""], ids=["newline", "no-final-newline"])
def test_oh_my_zsh_zshrc_comes_back_byte_for_byte(tmp_path: Path, ending: str) -> None:
    zshrc = tmp_path / ".zshrc"
    original = OH_MY_ZSH.rstrip("\n") + ending
    zshrc.write_text(original)
    paths = Paths.from_env(tmp_path)
    install(paths, shells=("zsh",))
    assert zshrc.read_text().startswith(original.rstrip("\n"))
    assert _zsh_has_dotdbg(tmp_path)
    uninstall(paths)
    assert zshrc.read_bytes() == original.encode()


def test_a_zdotdir_set_in_zshenv_gets_the_block(tmp_path: Path) -> None:
    zdotdir = tmp_path / ".config" / "zsh"
    zdotdir.mkdir(parents=True)
    zshenv = 'export ZDOTDIR="$HOME/.config/zsh"\n'
    (tmp_path / ".zshenv").write_text(zshenv)
    (zdotdir / ".zshrc").write_text(OH_MY_ZSH)
    paths = Paths.from_env(tmp_path)  # as install.sh runs it: from bash, ZDOTDIR not set
    install(paths, shells=("zsh",))
    assert not (tmp_path / ".zshrc").exists()
    assert "# >>> dotdbg >>>" in (zdotdir / ".zshrc").read_text()
    assert _zsh_has_dotdbg(tmp_path)
    uninstall(paths)
    assert (zdotdir / ".zshrc").read_text() == OH_MY_ZSH
    assert (tmp_path / ".zshenv").read_text() == zshenv


def test_zdotdir_from_the_environment_wins(tmp_path: Path) -> None:
    zdotdir = tmp_path / "zdot"
    paths = Paths.from_env(env={"HOME": str(tmp_path), "ZDOTDIR": str(zdotdir)})
    assert paths.zshrc == zdotdir / ".zshrc"


def test_a_symlinked_zshrc_stays_a_link_and_its_file_comes_back(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "zshrc").write_text(OH_MY_ZSH)
    (tmp_path / ".zshrc").symlink_to("dotfiles/zshrc")
    paths = Paths.from_env(tmp_path)
    install(paths, shells=("zsh",))
    assert os.readlink(tmp_path / ".zshrc") == "dotfiles/zshrc"
    assert "# >>> dotdbg >>>" in (dotfiles / "zshrc").read_text()
    uninstall(paths)
    assert os.readlink(tmp_path / ".zshrc") == "dotfiles/zshrc"
    assert (dotfiles / "zshrc").read_text() == OH_MY_ZSH


def test_fish_gets_its_own_file_and_uninstall_removes_only_it(tmp_path: Path) -> None:
    conf_d = tmp_path / ".config" / "fish" / "conf.d"
    conf_d.mkdir(parents=True)
    (conf_d / "mine.fish").write_text("set -g mine 1\n")
    paths = Paths.from_env(tmp_path)
    install(paths, shells=("fish",))
    assert (conf_d / "dotdbg.fish").is_file()
    assert not (tmp_path / ".bashrc").exists()  # bash was not asked for
    assert read_manifest(paths)["shells"] == ["fish"]
    uninstall(paths)
    assert sorted(p.name for p in conf_d.iterdir()) == ["mine.fish"]


def test_a_conf_d_dotdbg_fish_of_the_users_own_is_left_alone(tmp_path: Path) -> None:
    conf_d = tmp_path / ".config" / "fish" / "conf.d"
    conf_d.mkdir(parents=True)
    (conf_d / "dotdbg.fish").write_text("set -g my_own_dotdbg 1\n")
    before = _user_files(tmp_path)
    with pytest.raises(DotdbgError) as refused:
        install(Paths.from_env(tmp_path), shells=("fish",))
    assert refused.value.location == str(conf_d / "dotdbg.fish")
    assert "not one dotdbg wrote" in str(refused.value)
    assert (conf_d / "dotdbg.fish").read_text() == "set -g my_own_dotdbg 1\n"
    assert _user_files(tmp_path) == before


def _user_files(home: Path) -> list[str]:
    """Every path in ``home`` but dotdbg's state folder (the run lock is taken first)."""
    shown = (str(p.relative_to(home)) for p in home.rglob("*"))
    return sorted(name for name in shown if not name.startswith(".local"))


def test_a_shell_left_out_later_has_its_files_removed(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    install(paths, shells=("bash", "zsh", "fish"))
    install(paths, shells=("bash",))
    assert not paths.fish_conf.exists()
    assert not (tmp_path / ".zshrc").exists()  # dotdbg created it: nothing of the user's in it
    install(paths)  # remembered: bash only
    assert read_manifest(paths)["shells"] == ["bash"]


def test_a_function_without_a_fish_body_is_left_out_of_fish_with_a_warning(
    tmp_path: Path,
) -> None:
    paths = Paths.from_env(tmp_path)
    paths.config_file.parent.mkdir(parents=True)
    paths.config_file.write_text(
        '[functions]\nmkcd = \'mkdir -p "$1" && cd "$1"\'\n'
        "onlyfish = { fish = 'echo fish-only $argv' }\n"
        "counts = 'echo ${PIPESTATUS[0]}'\n"
        '[aliases]\ntime = "date"\n'
    )
    done = install(paths, shells=("bash", "zsh", "fish"))
    said = "\n".join(done.warnings)
    assert re.search(r"config.toml:2:\d+: fish has no function mkcd: it has no body for fish", said)
    assert "bash has no function onlyfish" in said
    assert "zsh has no function counts: its bash body uses PIPESTATUS" in said
    assert "fish has no alias time: fish reserves the name" in said
    fish_text = paths.fish_conf.read_text()
    assert "function onlyfish" in fish_text
    assert "function mkcd" not in fish_text
    assert "onlyfish" not in (paths.data_dir / "dotdbg.bash").read_text().split("# -- TAB")[0]


def test_fn_add_says_at_once_what_fish_goes_without_and_install_does_not_repeat_it(
    cli: Callable[..., subprocess.CompletedProcess[str]], fake_home: Path
) -> None:
    env = {"HOME": str(fake_home), "SHELL": "/usr/bin/fish"}
    assert cli("dotdbg", "install", "--shell", "bash", "--shell", "fish", env=env).returncode == 0
    body = 'mkdir -p "$1" && cd "$1"'
    added = cli("dotdbg", "fn", "add", "mkcd", body, env=env)
    assert added.returncode == 0, added.stderr
    said = [line for line in added.stderr.splitlines() if "mkcd" in line and "warning" in line]
    assert said == [
        "dotdbg: warning: fish has no function mkcd: it has no body for fish "
        "(`dotdbg fn add mkcd --fish BODY …` gives it one)"
    ]
    assert "mkcd" not in cli("dotdbg", "install", env=env).stderr  # the file is as it was
    fish_body = "mkdir -p $argv[1]; and cd $argv[1]"
    fixed = cli("dotdbg", "fn", "add", "mkcd", "--fish", fish_body, body, env=env)
    assert fixed.returncode == 0 and "warning" not in fixed.stderr.replace("defaults hide", "")
    paths = Paths.from_env(fake_home)
    assert f'function mkcd --description \'mkdir -p "$1" && cd "$1"\'\n{fish_body}\nend' in (
        paths.fish_conf.read_text()
    )
    assert "mkcd" not in cli("dotdbg", "install", env=env).stderr
    aliased = cli("dotdbg", "alias", "add", "time", "date", env=env).stderr
    assert "dotdbg: warning: fish has no alias time: fish reserves the name" in aliased


@pytest.mark.parametrize(
    ("shell", "body", "why"),
    [
        ("zsh", ":; }; touch ~/pwned; g() { :", "does not stay inside its braces in zsh"),
        ("fish", "true; end; touch ~/pwned; function g", "not valid fish on its own"),
    ],
)
def test_a_body_that_escapes_its_function_is_refused_and_nothing_runs(
    tmp_path: Path, shell: str, body: str, why: str
) -> None:
    paths = Paths.from_env(tmp_path)
    paths.config_file.parent.mkdir(parents=True)
    key = "zsh" if shell == "zsh" else "fish"
    paths.config_file.write_text(f"[functions.f]\nbody = 'true'\n{key} = '{body}'\n")
    with pytest.raises(DotdbgError, match=why) as raised:
        install(paths, shells=(shell,))
    assert raised.value.location.startswith(str(paths.config_file))
    assert not (tmp_path / "pwned").exists()
    assert not paths.data_dir.exists()


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_start_up_spawns_no_process(tmp_path: Path, shell: str) -> None:
    """strace counts the processes an interactive start creates, with and without dotdbg."""
    counts = []
    for name, with_dotdbg in (("plain", False), ("dotdbg", True)):
        home = tmp_path / name
        home.mkdir()
        (home / ".zshrc").write_text("# a user's own\n")
        if with_dotdbg:
            install(Paths.from_env(home), shells=(shell,))
        log = tmp_path / f"{name}.strace"
        traced = "trace=execve,fork,vfork,clone,clone3"
        subprocess.run(
            ["strace", "-f", "-qq", "-e", traced, "-o", str(log), shell, "-i", "-c", "exit"],
            env=_env(home),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            check=True,
        )
        counts.append(len(re.findall(r"\b(?:execve|v?fork|clone3?)\(", log.read_text())))
    assert counts[1] == counts[0], f"{shell} starts {counts[1] - counts[0]} more processes"


def test_doctor_says_which_shells_are_set_up_and_whether_shell_is_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dotdbg.home.doctor import check_shells

    paths = Paths.from_env(tmp_path)
    assert not check_shells(paths).ok
    install(paths, shells=("bash", "zsh"))
    monkeypatch.setenv("SHELL", "/usr/bin/zsh")
    check = check_shells(paths)
    assert (check.ok, check.detail) == (
        True,
        "set up for bash, zsh; your login shell (zsh) is one of them",
    )
    monkeypatch.setenv("SHELL", "/usr/bin/fish")
    check = check_shells(paths)
    assert not check.ok
    assert check.fix == "dotdbg install --shell bash,zsh,fish"


@pytest.mark.parametrize(
    ("login", "added", "removed"),
    [
        ("/usr/bin/zsh", "source {data}/dotdbg.zsh", "unfunction wrap"),
        ("/usr/bin/fish", "source {home}/.config/fish/conf.d/dotdbg.fish", "functions -e wrap"),
        ("/bin/bash", "source {data}/dotdbg.bash", "unset -f wrap"),
    ],
)
def test_an_edit_says_how_the_running_shell_sees_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, login: str, added: str, removed: str
) -> None:
    from dotdbg.home.edit import reload_line

    paths = Paths.from_env(tmp_path)
    install(paths, shells=("bash", "zsh", "fish"))
    monkeypatch.setenv("SHELL", login)
    data = paths.data_dir
    assert reload_line(paths, "functions", "wrap", removed=False) == added.format(
        data=data, home=tmp_path
    )
    assert reload_line(paths, "functions", "wrap", removed=True) == removed


def test_status_reports_a_fish_or_zsh_file_edited_by_hand(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    install(paths, shells=("zsh", "fish"))
    assert install(paths, dry_run=True).plan.pending == ()
    with paths.fish_conf.open("a") as fish_file:
        fish_file.write("set -g mine 1\n")
    plan = install(paths, dry_run=True).plan
    assert [change.path for change in plan.pending] == [paths.fish_conf]
    assert plan.notes == (
        "~/.config/fish/conf.d/dotdbg.fish was edited by hand since dotdbg wrote it",
    )


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("bash,tcsh", "dotdbg: error: --shell bash,tcsh: unknown shell 'tcsh'"),
        (",", "dotdbg: error: --shell ,: no shell named"),
    ],
)
def test_a_bad_shell_list_is_one_line_and_changes_nothing(
    tmp_path: Path, value: str, said: str
) -> None:
    from tests.clirun import run_cli

    done = run_cli("dotdbg", "install", "--shell", value, "--home", str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == said
    assert done.stderr.splitlines()[1].startswith("hint: name one or more of bash, zsh, fish")
    assert list(tmp_path.iterdir()) == []


def test_shell_picks_the_shells_from_the_command_line(tmp_path: Path) -> None:
    from tests.clirun import run_cli

    done = run_cli("dotdbg", "install", "--shell", "zsh", "--home", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "done (zsh): open a new shell or run `exec zsh` to use it" in done.stderr
    # no ~/.bashrc: ~/.inputrc and ~/.pdbrc serve readline and pdb, whatever the shell
    # ~/.zshenv: the PATH block (the venv's dotdbg is on no standard PATH)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [".inputrc", ".local", ".pdbrc", ".zshenv", ".zshrc"]
