"""The PATH block (``blocks.PATH``): first in ~/.bashrc and ~/.zshenv, so that the shell sshd
runs a command through (`ssh HOST dotdbg …`) finds dotdbg before the interactive guard returns.
The planner on literal states, then real bash reading the result."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home import blocks, launcher
from dotdbg.home.install import install, restore, uninstall
from dotdbg.home.plan import Plan, plan_install, plan_uninstall
from dotdbg.home.render import Rendered
from dotdbg.home.state import State
from dotdbg.paths import Paths
from dotdbg.shells import posix
from dotdbg.shells.fish import path_lines as fish_path_lines

PATHS = Paths.from_env(Path("/nonexistent/home"))
CONFIG = load_config(PATHS, user_text="")
LOCAL_BIN = PATHS.home / ".local" / "bin"
RENDERED = Rendered(
    {"dotdbg.bash": "alias gs='git status'\n", "inputrc": "", "pdbrc": ""},
    ("bash",),
)
GUARD = "# ~/.bashrc\ncase $- in\n    *i*) ;;\n      *) return;;\nesac\nHISTSIZE=1000\n"
PS1_GUARD = '# ~/.bashrc\n[ -z "$PS1" ] && return\nalias ll="ls -l"\n'


def home_with(bashrc: str | None, folder: Path | None = LOCAL_BIN) -> State:
    return State({PATHS.bashrc: bashrc}, {}, path_dir=folder)


def applied(plan: Plan, state: State) -> State:
    texts = {**state.texts, **{change.path: change.after for change in plan.changes}}
    return State(texts, plan.manifest or {}, path_dir=state.path_dir)


def round_trip(bashrc: str | None) -> tuple[str | None, str | None]:
    """~/.bashrc once installed, and once uninstalled again."""
    installed = applied(plan_install(PATHS, CONFIG, RENDERED, home_with(bashrc)), home_with(bashrc))
    removed = applied(plan_uninstall(PATHS, installed), installed)
    return installed.text(PATHS.bashrc), removed.text(PATHS.bashrc)


@pytest.mark.parametrize("user", [GUARD, PS1_GUARD], ids=["case-guard", "ps1-guard"])
def test_the_block_comes_first_before_the_interactive_guard(user: str) -> None:
    installed, removed = round_trip(user)
    assert installed is not None
    assert installed.startswith(blocks.PATH.start + "\n")
    path_block = blocks.block_text(installed, markers=blocks.PATH) or ""
    assert '*) PATH="${PATH:+$PATH:}""$HOME/.local/bin" ;;' in path_block
    rest = installed.removeprefix(path_block)
    assert rest.startswith(user + "\n" + blocks.START)  # the load block still appended
    assert removed == user


@pytest.mark.parametrize(
    "user",
    ["export A=1\r\nalias ll='ls -l'\r\n", "export EDITOR=vim", "", "\n", "\udcff\udcfe\n"],
    ids=["crlf", "no-newline", "empty", "blank", "invalid-utf8"],
)
def test_uninstall_gives_back_every_byte(user: str) -> None:
    installed, removed = round_trip(user)
    assert installed is not None and installed.count(blocks.PATH.start) == 1
    assert removed == user


def test_a_bashrc_dotdbg_created_is_deleted_again() -> None:
    installed, removed = round_trip(None)
    assert installed is not None and installed.startswith(blocks.PATH.start)
    assert removed is None


def test_no_block_where_dotdbg_is_on_every_path() -> None:
    plan = plan_install(PATHS, CONFIG, RENDERED, home_with(GUARD, folder=None))
    bashrc = next(change.after for change in plan.changes if change.path == PATHS.bashrc)
    assert bashrc is not None and blocks.PATH.start not in bashrc


def test_a_moved_launcher_updates_the_block_in_place_and_a_standard_one_drops_it() -> None:
    first = applied(plan_install(PATHS, CONFIG, RENDERED, home_with(GUARD)), home_with(GUARD))
    venv = Path("/opt/dotdbg venv/bin")
    moved_state = State(first.texts, first.manifest, path_dir=venv)
    moved = applied(plan_install(PATHS, CONFIG, RENDERED, moved_state), moved_state)
    text = moved.text(PATHS.bashrc) or ""
    assert text.startswith(blocks.PATH.start) and "'/opt/dotdbg venv/bin'" in text
    assert text.count(blocks.PATH.start) == 1
    standard = State(moved.texts, moved.manifest, path_dir=None)
    dropped = applied(plan_install(PATHS, CONFIG, RENDERED, standard), standard)
    assert blocks.PATH.start not in (dropped.text(PATHS.bashrc) or "")
    assert blocks.remove(dropped.text(PATHS.bashrc) or "", "\n", markers=blocks.MAIN) == GUARD


def test_zsh_gets_it_in_zshenv_and_only_when_installed_for() -> None:
    rendered = Rendered({**RENDERED.files, "dotdbg.zsh": "alias gs='git status'\n"}, ("zsh",))
    plan = plan_install(PATHS, CONFIG, rendered, home_with(GUARD))
    texts = {change.path.name: change.after for change in plan.changes}
    assert (texts[".zshenv"] or "").startswith(blocks.PATH.start)
    assert ".bashrc" not in texts  # bash is not installed for: its file is left alone


def test_fish_gets_it_in_a_conf_d_file_of_its_own_deleted_again() -> None:
    rendered = Rendered(
        {**RENDERED.files, "dotdbg.fish": "abbr --add gs 'git status'\n"}, ("fish",)
    )
    installed = applied(plan_install(PATHS, CONFIG, rendered, home_with(GUARD)), home_with(GUARD))
    own = PATHS.fish_conf.with_name("dotdbg-path.fish")
    text = installed.text(own) or ""
    assert text.startswith(blocks.PATH.start) and 'set -gx PATH $PATH "$HOME/.local/bin"' in text
    assert installed.text(PATHS.bashrc) == GUARD  # bash is not installed for
    removed = applied(plan_uninstall(PATHS, installed), installed)
    assert removed.text(own) is None and removed.text(PATHS.fish_conf) is None


def test_a_path_block_dotdbg_did_not_write_is_refused() -> None:
    foreign = f"{blocks.PATH.start}\nPATH=/mine:$PATH\n{blocks.PATH.end}\n" + GUARD
    with pytest.raises(DotdbgError, match="records do not know"):
        plan_install(PATHS, CONFIG, RENDERED, home_with(foreign))
    installed = applied(plan_install(PATHS, CONFIG, RENDERED, home_with(GUARD)), home_with(GUARD))
    text = installed.text(PATHS.bashrc) or ""
    edited = State(
        {PATHS.bashrc: text.replace("esac\n", "esac\nexport X=1\n", 1)}, installed.manifest
    )
    with pytest.raises(DotdbgError, match=r"dotdbg PATH block .* was edited by hand"):
        plan_uninstall(PATHS, edited)


def test_without_records_the_block_dotdbg_would_write_is_proven_its_own() -> None:
    installed = applied(plan_install(PATHS, CONFIG, RENDERED, home_with(GUARD)), home_with(GUARD))
    lost = State({PATHS.bashrc: installed.text(PATHS.bashrc)}, {}, path_dir=LOCAL_BIN)
    wanted = blocks.make_block(posix.posix_path_lines(LOCAL_BIN, PATHS.home), blocks.PATH)
    main = blocks.block_text(installed.text(PATHS.bashrc) or "") or ""
    with pytest.raises(DotdbgError, match="records do not know"):  # not proven: refused
        plan_uninstall(PATHS, lost, {PATHS.bashrc: {main}})
    plan = plan_uninstall(PATHS, lost, {PATHS.bashrc: {wanted, main}})
    # without its record, the blank line dotdbg put before the load block is not known
    assert applied(plan, lost).text(PATHS.bashrc) == GUARD + "\n"


@pytest.mark.parametrize(
    "folder", [Path("/h/u/.local/bin"), Path("/opt/it's a $dir/bin"), Path("/h/u/my env")]
)
def test_the_lines_add_the_folder_once_and_append_it(tmp_path: Path, folder: Path) -> None:
    lines = posix.posix_path_lines(folder, Path("/h/u"))
    script = tmp_path / "rc"
    script.write_text(lines)
    for shell in ("bash", "sh", "zsh"):
        if subprocess.run(["sh", "-c", f"command -v {shell}"], capture_output=True).returncode:
            continue
        shown = subprocess.run(
            [shell, "-c", f'. "{script}"; . "{script}"; printf %s "$PATH"'],
            env={"HOME": "/h/u", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert shown == f"/usr/bin:/bin:{folder}", shell
    fish = subprocess.run(["sh", "-c", "command -v fish"], capture_output=True, text=True)
    if fish.returncode == 0:
        script.write_text(fish_path_lines(folder, Path("/h/u")))
        shown = subprocess.run(
            [fish.stdout.strip(), "-c", f'source {script}; source {script}; printf %s "$PATH"'],
            env={"HOME": "/h/u", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert shown == f"/usr/bin:/bin:{folder}", "fish"


def test_the_launcher_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = Paths.from_env(tmp_path)
    monkeypatch.setattr(launcher, "running_launcher_dir", lambda: Path("/opt/venv/bin"))
    assert launcher.path_dir(paths) == Path("/opt/venv/bin")  # a venv not linked anywhere
    linked = tmp_path / ".local/bin/dotdbg"
    linked.parent.mkdir(parents=True)
    linked.symlink_to("/bin/true")  # pipx and uv link their venv's launcher there
    assert launcher.path_dir(paths) == tmp_path / ".local/bin"  # install.sh's link wins
    linked.unlink()
    monkeypatch.setattr(launcher, "running_launcher_dir", lambda: Path("/usr/local/bin"))
    assert launcher.path_dir(paths) is None  # on every PATH already


def test_real_bash_non_interactive_finds_dotdbg_through_a_symlinked_bashrc(tmp_path: Path) -> None:
    """What sshd does (bash -c with a bare PATH; Debian's bash reads ~/.bashrc then), on a
    ~/.bashrc that is a dotfiles manager's link; uninstall leaves the link and every byte."""
    home = tmp_path / "home"
    (home / ".local/bin").mkdir(parents=True)
    (home / ".local/bin/dotdbg").write_text("#!/bin/sh\necho found\n")
    (home / ".local/bin/dotdbg").chmod(0o755)
    target = home / "dotfiles" / "bashrc"
    target.parent.mkdir()
    target.write_text(GUARD)
    (home / ".bashrc").symlink_to(target)
    paths = Paths.from_env(home)
    install(paths, load_config(paths, user_text=""), shells=["bash"])
    assert (home / ".bashrc").is_symlink()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    command = '. "$HOME/.bashrc"; dotdbg'
    found = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True)
    assert found.stdout == "found\n", found.stderr
    uninstall(paths)
    assert (home / ".bashrc").is_symlink() and target.read_text() == GUARD
    restore(paths)  # the install comes back, records and all, and goes again byte-exact
    assert (target.read_text()).startswith(blocks.PATH.start)
    uninstall(paths)
    assert target.read_text() == GUARD
    assert not os.path.exists(home / ".local/share/dotdbg")


def test_doctor_says_whether_ssh_host_dotdbg_finds_it(tmp_path: Path) -> None:
    from tests.clirun import run_cli

    def ssh_line(shell: str) -> str:
        done = run_cli("dotdbg", "doctor", "--home", str(tmp_path), env={"SHELL": shell})
        return next(line for line in done.stdout.splitlines() if "ssh HOST dotdbg" in line)

    venv = launcher.running_launcher_dir()
    assert venv is not None and venv not in launcher.STANDARD_PATH  # this test's own dotdbg
    assert ssh_line("/bin/bash").startswith(
        f"!!  ssh HOST dotdbg: ~/.bashrc does not put {venv} on PATH"
    )
    assert (
        run_cli("dotdbg", "install", "--shell", "bash,zsh", "--home", str(tmp_path)).returncode == 0
    )
    assert ssh_line("/bin/bash") == f"ok  ssh HOST dotdbg: finds it: ~/.bashrc puts {venv} on PATH"
    assert (
        ssh_line("/usr/bin/zsh") == f"ok  ssh HOST dotdbg: finds it: ~/.zshenv puts {venv} on PATH"
    )
    assert ssh_line("/usr/bin/fish").startswith(  # not installed for fish
        f"!!  ssh HOST dotdbg: ~/.config/fish/conf.d/dotdbg-path.fish does not put {venv} on PATH"
    )


def test_zsh_gets_it_in_the_zshenv_sshd_starts_zsh_with(tmp_path: Path) -> None:
    """sshd gives zsh no $ZDOTDIR: it reads ~/.zshenv, which sets $ZDOTDIR for the files after."""
    paths = Paths.from_env(env={"HOME": str(tmp_path), "ZDOTDIR": str(tmp_path / "zsh")})
    assert paths.zshenv == tmp_path / ".zshenv"
    assert paths.zshrc == tmp_path / "zsh" / ".zshrc"
