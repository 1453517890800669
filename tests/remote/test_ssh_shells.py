"""``dotdbg ssh`` to a user whose login shell is zsh or fish, against the real test sshd,
driven in tmux: the session is that shell, with dotdbg's aliases and history search over the
user's own rc files, and their home is byte-identical after ``exit`` and after ``kill -9`` of
the local ssh. A login shell dotdbg does not bring, or one not on the host, falls back to bash
with one line saying so."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.infra.procs import wait_for
from tests.infra.sshd import SshServer
from tests.infra.sshd import TestUser as RemoteUser
from tests.infra.tmux import Tmux
from tests.remote.test_ssh_session import (
    DOTDBG,
    error_lines,
    run_dotdbg_ssh,
    session_dirs,
    tree_digest,
    warm_payload,
)

RECALLED = "python train.py --lr 3e-4"
# What each user's own files hold (a marker their rc sets, a history to search), by shell.
HOMES = {
    "zsh": {  # their zsh files live in ~/.config/zsh, which ~/.zshenv names
        ".zshenv": "export FROM_ZSHENV=yes\nZDOTDIR=$HOME/.config/zsh\n",
        ".config/zsh/.zshrc": "export MINE=from-their-rc\nHISTFILE=$ZDOTDIR/.zsh_history\n",
        ".config/zsh/.zsh_history": f"ls -la\n{RECALLED}\ngit status\n",
    },
    "fish": {
        ".config/fish/config.fish": "set -gx MINE from-their-rc\n",
        # fish ran there before: its first start's set-up (as plain ssh would do it) is done
        ".config/fish/fish_variables": "# This file contains fish universal variable "
        "definitions.\n# VERSION: 3.0\nSETUVAR __fish_initialized:3400\n"
        "SETUVAR fish_key_bindings:fish_default_key_bindings\n",
        ".local/share/fish/generated_completions/ls.fish": "complete -c ls -s a\n",
        ".local/share/fish/fish_history": "".join(
            f"- cmd: {command}\n  when: {1700000000 + n}\n"
            for n, command in enumerate(["ls -la", RECALLED, "git status"])
        ),
    },
}
ALIAS_SHOWN = {
    "zsh": ("type pyt", "pyt is an alias for pytest"),
    "fish": ("functions pyt", "pytest"),
}


def shell_user(server: SshServer, shell: str) -> RemoteUser:
    program = shutil.which(shell)
    if program is None:
        pytest.fail(f"{shell} is required for these tests (apt-get install {shell})")
    user = server.add_user(f"dotdbg{shell[0]}1", shell=program)
    for name, text in HOMES[shell].items():
        path = user.home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for path in [user.home, *user.home.rglob("*")]:
        os.chown(path, user.uid, -1)
    return user


@pytest.fixture(scope="module")
def users(ssh_server: SshServer) -> dict[str, RemoteUser]:
    return {shell: shell_user(ssh_server, shell) for shell in HOMES}


class SessionDriver(Tmux):
    """``dotdbg ssh`` in tmux as ``user``, whose login shell is ``shell``, on a plain prompt."""

    def __init__(self, shell: str, server: SshServer, user: RemoteUser, home: Path) -> None:
        argv = [str(DOTDBG), "ssh", "n1", "-F", str(server.client_config), "-l", user.name]
        env = {"HOME": str(home), "TERM": "xterm-256color", "PATH": os.environ["PATH"]}
        super().__init__(argv, env={**env, "LANG": "C.UTF-8"}, name=shell)
        self.started = self.wait_for(lambda s: "for this session only" in s, "the start message")
        self.wait_for(lambda s: len(s.strip().splitlines()) > 3, "the first prompt")
        self.plain_prompt(shell)

    def local_ssh_pid(self) -> int:
        import psutil

        pane = psutil.Process(self.pane_pid())
        found = [p for p in pane.children(recursive=True) if p.name() == "ssh"]
        assert len(found) == 1, found
        return found[0].pid


@pytest.fixture(scope="module")
def local_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One local home for the module: its cached session payload is built once."""
    home = tmp_path_factory.mktemp("local")
    warm_payload(home)
    return home


@pytest.fixture
def open_session(
    ssh_server: SshServer, users: dict[str, RemoteUser], local_home: Path
) -> Iterator[Callable[[str], SessionDriver]]:
    opened: list[SessionDriver] = []

    def start(shell: str) -> SessionDriver:
        opened.append(SessionDriver(shell, ssh_server, users[shell], local_home))
        return opened[-1]

    yield start
    for driver in opened:
        driver.close()


@pytest.mark.parametrize("shell", list(HOMES))
def test_session_is_the_login_shell_with_aliases_history_search_and_their_rc(
    shell: str, open_session: Callable[[str], SessionDriver], users: dict[str, RemoteUser]
) -> None:
    user = users[shell]
    before = tree_digest(user.home)
    session = open_session(shell)
    assert "not this session: pdb aliases" in session.started
    command, shown = ALIAS_SHOWN[shell]
    assert shown in session.run(command)
    assert session.run("echo $MINE").strip() == "from-their-rc"  # their own rc loaded
    if shell == "zsh":
        said = session.run("echo $FROM_ZSHENV $ZDOTDIR").strip()
        assert said == f"yes {user.home}/.config/zsh"  # as their .zshenv left it
    directory = Path(session.run("echo $__dotdbg_session").strip())
    assert directory.name.startswith("dotdbg-ssh.") and directory.stat().st_mode & 0o777 == 0o700
    if shell == "zsh":  # TAB completes dotdbg: its compinit ran, its dump in the session dir
        completion = session.run("echo ${_comps[dotdbg]} ${__dotdbg_zcompdump:h}").split()
        assert completion == ["_dotdbg", str(directory)]
    # readline programs (python, pdb) read the user's inputrc, then dotdbg's
    assert session.run("cat $INPUTRC").split("\n")[-1] == f"$include {directory}/inputrc"
    assert "tar -xf <archive.tar.xz>" in session.run("ch -c tar xz")  # the travelling cheat code
    pick_with_ctrl_g(session, "tar xz", "tar -xf <archive.tar.xz>")
    session.keys("C-e", "C-u")
    session.type("python t")
    session.keys("Up")
    session.wait_for(lambda s: s.rstrip().endswith(f"$ {RECALLED}"), "Up to recall by prefix")
    session.keys("C-e", "C-u")
    session.type("exit")
    session.keys("Enter")
    wait_for(lambda: not directory.exists(), 10, "the session dir to go after exit")
    assert tree_digest(user.home) == before  # the session's history went with it


@pytest.mark.parametrize("shell", list(HOMES))
def test_session_dir_goes_when_the_local_ssh_is_killed(
    shell: str, open_session: Callable[[str], SessionDriver], users: dict[str, RemoteUser]
) -> None:
    user = users[shell]
    before = tree_digest(user.home)
    session = open_session(shell)
    directory = Path(session.run("echo $__dotdbg_session").strip())
    session.run("echo a-command-for-history")
    os.kill(session.local_ssh_pid(), signal.SIGKILL)
    wait_for(lambda: not directory.exists(), 10, "the session dir to go after kill -9")
    assert tree_digest(user.home) == before


PICK_FROM_LIST = {
    "zsh": "export DOTDBG_CHEAT_PICKER=list",
    "fish": "set -gx DOTDBG_CHEAT_PICKER list",
}


def pick_with_ctrl_g(session: SessionDriver, words: str, wanted: str) -> None:
    """The Ctrl-G picker's numbered list (fzf is not on every host) puts ``wanted`` on the line."""
    session.run(PICK_FROM_LIST[session.name])
    session.keys("C-e", "C-u", "C-g")
    session.wait_for(lambda screen: "cheat: search words" in screen, "the search question")
    session.type(words)
    session.keys("Enter")
    screen = session.wait_for(lambda screen: "cheat: number" in screen, "the numbered list")
    rows = [line.split(None, 1) for line in screen.splitlines() if line[:4].strip().isdigit()]
    session.type(next(number for number, text in rows if wanted in text))
    session.keys("Enter")
    session.wait_for(lambda s: session.line().endswith(wanted), "the pick on the line")


# -- login shells a session does not start: bash, and one line saying why --------------------
def fallback_said(server: SshServer, home: Path, name: str, login: str) -> list[str]:
    """What ``dotdbg ssh`` says (with no terminal: the bash session reads end of input) as a
    new user ``name`` whose login shell is ``login``: a program, or the lines of an sh
    wrapper that sets the scene, then runs sh."""
    assert server.shared is not None
    if not login.startswith("/"):
        wrapper = server.shared / f"{name}-login"
        wrapper.write_text(f'#!/bin/sh\n{login}\nexec /bin/sh "$@"\n')
        wrapper.chmod(0o755)
        login = str(wrapper)
    user = server.add_user(name, shell=login)
    result = run_dotdbg_ssh("n2", "-F", str(server.client_config), "-l", user.name, home=home)
    assert result.returncode == 0, result.stderr
    wait_for(lambda: not session_dirs(user), 10, "the session dir to go")
    said = result.stderr.splitlines()
    assert any("for this session only" in line for line in said), said  # a bash session
    return said


def test_other_login_shell_gets_a_bash_session_and_one_line(
    ssh_server: SshServer, local_home: Path
) -> None:
    said = fallback_said(ssh_server, local_home, "dotdbgo1", "/bin/sh")
    assert said[0] == (
        "dotdbg ssh: n2: your login shell is /bin/sh; dotdbg ssh brings bash, zsh or fish: "
        "this session is bash"
    )


def test_login_shell_not_on_the_host_gets_a_bash_session_and_one_line(
    ssh_server: SshServer, local_home: Path
) -> None:
    gone = "SHELL=/opt/gone/bin/zsh; export SHELL"  # $SHELL names a zsh this host lacks
    said = fallback_said(ssh_server, local_home, "dotdbgo2", gone)
    assert said[0] == (
        "dotdbg ssh: n2: your login shell is /opt/gone/bin/zsh, which is not on this host: "
        "this session is bash"
    )


def without_base64(server: SshServer, name: str, shell: str) -> RemoteUser:
    """A user whose login shell (``shell``, through a wrapper of that name) finds on PATH what
    a session needs but base64."""
    assert server.shared is not None
    tools = server.shared / "nobase64-bin"
    tools.mkdir(mode=0o755, exist_ok=True)
    for tool in ("sh", "bash", "zsh", "mktemp", "head", "gzip", "tar", "mkfifo", "rm", "cat"):
        target = shutil.which(tool, path="/usr/bin:/bin")
        assert target is not None
        (tools / tool).unlink(missing_ok=True)
        (tools / tool).symlink_to(target)
    for tool in ("mkdir", "mv", "chmod", "sleep"):
        (tools / tool).unlink(missing_ok=True)
        (tools / tool).symlink_to(str(shutil.which(tool, path="/usr/bin:/bin")))
    login = server.shared / name / shell  # $SHELL names the shell: the session is that one
    login.parent.mkdir(mode=0o755, exist_ok=True)
    login.write_text(f'#!/bin/sh\nPATH={tools}; export PATH\nexec {tools / shell} "$@"\n')
    login.chmod(0o755)
    return server.add_user(name, shell=str(login))


def test_a_bash_session_starts_where_the_archive_cannot_unpack_and_ch_says_why(
    ssh_server: SshServer, local_home: Path
) -> None:
    """bash's files travel as printf commands: the session needs no base64, gzip or tar; the
    cheat code does, and ``dotdbg cheat`` says so in one line."""
    user = without_base64(ssh_server, "dotdbgo3", "bash")
    before = tree_digest(user.home)
    commands = (
        'for i in {1..100}; do [ -e "$__dotdbg_session/bin/dotdbg" ] && break; sleep 0.1; done\n'
        "alias pyt\ndotdbg cheat tar; echo cheat-exit=$?\n"
    )
    argv = [str(DOTDBG), "ssh", "n2", "-F", str(ssh_server.client_config), "-l", user.name]
    env = {"HOME": str(local_home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
    result = subprocess.run(
        argv, input=commands, capture_output=True, text=True, timeout=60, env=env
    )
    assert result.returncode == 0, result.stderr
    said = result.stdout + result.stderr
    assert "alias pyt='pytest" in result.stdout and "cheat-exit=2" in result.stdout, said
    assert error_lines(result) == [
        "dotdbg: error: n2: cannot unpack the session files (base64, gzip, tar): "
        "dotdbg-ssh: 1: base64: not found"
    ], said
    wait_for(lambda: not session_dirs(user), 10, "the session dir to go")
    assert tree_digest(user.home) == before


def test_a_zsh_session_where_the_archive_cannot_unpack_is_one_line_and_leaves_nothing(
    ssh_server: SshServer, local_home: Path
) -> None:
    """zsh's files travel in the archive: its session waits for it, and stops."""
    user = without_base64(ssh_server, "dotdbgo4", "zsh")
    config = str(ssh_server.client_config)
    result = run_dotdbg_ssh("n2", "-F", config, "-l", user.name, home=local_home)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "dotdbg: error: n2: cannot unpack the session files (base64, gzip, tar): "
        "dotdbg-ssh: 1: base64: not found"
    ]
    wait_for(lambda: not session_dirs(user), 10, "the session dir to go")
