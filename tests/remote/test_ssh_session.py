"""``dotdbg ssh`` against the real test sshd (tests/infra/sshd.py), driven in tmux.

The remote user has a home of its own; every test checks that home is byte-identical after
the session, and that the session's private directory is gone: after ``exit``, and after the
local ssh is killed with SIGKILL (the remote side sees the connection drop).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.procs import wait_for
from tests.infra.sshd import SshServer
from tests.infra.sshd import TestUser as RemoteUser
from tests.infra.tmux import Tmux, need_tmux

DOTDBG = Path(sys.executable).with_name("dotdbg")
REMOTE_HISTORY = "ls -la\npython train.py --lr 3e-4\ngit status\n"
PROFILE = "# the user's own login file\nexport FROM_PROFILE=yes\n. ~/.bashrc\n"


@pytest.fixture(scope="module")
def remote_user(ssh_server: SshServer) -> RemoteUser:
    user = ssh_server.add_user("dotdbgs1")
    (user.home / ".bash_history").write_text(REMOTE_HISTORY)
    (user.home / ".profile").write_text(PROFILE)
    (user.home / ".bashrc").write_text("alias mine='echo from-remote-bashrc'\n")
    (user.home / ".inputrc").write_text("set bell-style none\n")
    return user


def tree_digest(home: Path) -> dict[str, str]:
    """Every path below ``home`` with its mode, and the contents' digest for files."""
    found: dict[str, str] = {}
    for path in sorted(home.rglob("*")):
        status = path.lstat()
        content = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
        found[str(path.relative_to(home))] = f"{status.st_mode:o} {status.st_size} {content}"
    return found


def session_dirs(user: RemoteUser) -> list[Path]:
    """The session dirs of ``user`` in /tmp (other sessions' may go while they are listed)."""
    found = []
    for path in Path("/tmp").glob("dotdbg-ssh.*"):
        with contextlib.suppress(FileNotFoundError):
            if path.lstat().st_uid == user.uid:
                found.append(path)
    return found


@pytest.fixture
def session(ssh_server: SshServer, remote_user: RemoteUser, tmp_path: Path) -> Iterator[Tmux]:
    need_tmux()  # before the payload's seconds of work
    local_home = tmp_path / "local"
    local_home.mkdir()
    warm_payload(local_home)
    argv = [str(DOTDBG), "ssh", "n1", "-F", str(ssh_server.client_config), "-l", remote_user.name]
    shell = Tmux.bash(local_home, argv)
    yield shell
    shell.close()


def warm_payload(home: Path) -> None:
    """The session payload built and cached for ``home``, as after a user's first session: a
    render and shellcheck take seconds on a loaded machine, more than Tmux.bash waits."""
    build = "from dotdbg.remote.session import session_payload, CACHE_NAME; import os; "
    build += "from dotdbg.cheat.fast import cache_dir; "
    build += "session_payload(os.path.join(cache_dir(os.environ), CACHE_NAME))"
    env = {"HOME": str(home), "PATH": os.environ["PATH"]}
    subprocess.run([sys.executable, "-c", build], env=env, check=True, timeout=300)


def test_session_has_aliases_history_search_and_leaves_the_home_as_it_was(
    session: Tmux, remote_user: RemoteUser
) -> None:
    before = tree_digest(remote_user.home)
    assert "pyt is aliased to `pytest" in session.run("type pyt")
    assert "from-remote-bashrc" in session.run("mine")  # the user's own dotfiles still load
    assert session.run("echo $FROM_PROFILE").strip() == "yes"
    inputrc = session.run('cat "$INPUTRC"')
    assert f"$include {remote_user.home}/.inputrc" in inputrc
    session.keys("C-u")
    session.type("python t")
    session.keys("Up")
    session.wait_for(
        lambda screen: screen.rstrip().endswith("$ python train.py --lr 3e-4"), "Up to recall"
    )
    session.keys("C-u")
    # the cheat code and the sheets travelled along
    assert "tar -xf <archive.tar.xz>" in session.run("ch -c tar xz")
    pick_with_ctrl_g(session, "tar xz", "tar -xf <archive.tar.xz>")
    session.keys("C-e", "C-u")  # the cursor was left on the placeholder
    session.type("exit")
    session.keys("Enter")
    wait_for(lambda: not session_dirs(remote_user), 10, "the session dir to go")
    assert tree_digest(remote_user.home) == before


def pick_with_ctrl_g(session: Tmux, words: str, wanted: str) -> None:
    """The Ctrl-G picker's numbered list (fzf is not on every host) puts ``wanted`` on the line."""
    session.run("export DOTDBG_CHEAT_PICKER=list")
    session.keys("C-u")
    session.keys("C-g")
    session.wait_for(lambda screen: "cheat: search words" in screen, "the search question")
    session.type(words)
    session.keys("Enter")
    screen = session.wait_for(lambda screen: "cheat: number" in screen, "the numbered list")
    rows = [line.split(None, 1) for line in screen.splitlines() if line[:4].strip().isdigit()]
    session.type(next(number for number, text in rows if wanted in text))
    session.keys("Enter")
    session.wait_for(lambda screen: screen.rstrip().endswith(f"$ {wanted}"), "the pick")


def test_session_dir_is_private_and_goes_when_the_local_ssh_is_killed(
    session: Tmux, remote_user: RemoteUser
) -> None:
    before = tree_digest(remote_user.home)
    directory = Path(session.run("echo $__dotdbg_session").strip())
    assert directory.parent == Path("/tmp") and directory.name.startswith("dotdbg-ssh.")
    assert directory.stat().st_mode & 0o777 == 0o700
    session.run("echo a-command-for-history")
    os.kill(local_ssh_pid(session), signal.SIGKILL)
    wait_for(lambda: not directory.exists(), 10, "the remote session dir to go after kill -9")
    assert tree_digest(remote_user.home) == before


def local_ssh_pid(session: Tmux) -> int:
    import psutil

    pane = psutil.Process(session.pane_pid())
    found = [p for p in pane.children(recursive=True) if p.name() == "ssh"]
    assert len(found) == 1, found
    return found[0].pid


# -- faults: one line naming the host, a non-zero exit ---------------------------------------
def run_dotdbg_ssh(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8"}
    return subprocess.run(
        [str(DOTDBG), "ssh", *args],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        env=env,
    )


def error_lines(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("dotdbg: error:")]


def test_unreachable_host_is_one_line_naming_it(ssh_server: SshServer, tmp_path: Path) -> None:
    config = str(ssh_server.client_config)
    result = run_dotdbg_ssh("127.0.0.2", "-F", config, "-p", "1", home=tmp_path)
    assert result.returncode != 0
    (line,) = error_lines(result)
    assert line.startswith("dotdbg: error: 127.0.0.2: ssh failed:") and "refused" in line
    assert "Traceback" not in result.stderr


def test_refused_key_is_one_line_naming_the_host(ssh_server: SshServer, tmp_path: Path) -> None:
    config = str(ssh_server.client_config)
    result = run_dotdbg_ssh("n2", "-F", config, "-l", "nobody", home=tmp_path)
    assert result.returncode != 0
    (line,) = error_lines(result)
    assert line.startswith("dotdbg: error: n2: ssh failed:") and "Permission denied" in line


NO_BASH_TOOLS = ("sh", "mktemp", "head", "base64", "gzip", "tar", "mkfifo", "rm", "cat")


def test_remote_without_bash_is_one_line_and_leaves_nothing(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    assert ssh_server.shared is not None
    tools = ssh_server.shared / "nobash-bin"
    tools.mkdir(mode=0o755, exist_ok=True)
    for tool in NO_BASH_TOOLS:
        target = shutil.which(tool, path="/usr/bin:/bin")
        assert target is not None
        (tools / tool).unlink(missing_ok=True)
        (tools / tool).symlink_to(target)
    login = ssh_server.shared / "nobash-login"
    login.write_text(f'#!/bin/sh\nPATH={tools}\nexport PATH\nexec /bin/sh "$@"\n')
    login.chmod(0o755)
    user = ssh_server.add_user("dotdbgs2", shell=str(login))
    before = tree_digest(user.home)
    config = str(ssh_server.client_config)
    result = run_dotdbg_ssh("n3", "-F", config, "-l", user.name, home=tmp_path)
    assert result.returncode != 0
    (line,) = error_lines(result)
    assert line.startswith("dotdbg: error: n3: no bash on this host"), result.stderr
    wait_for(lambda: not session_dirs(user), 10, "the session dir to go")
    assert tree_digest(user.home) == before


def test_a_remote_command_is_a_usage_error(tmp_path: Path) -> None:
    result = run_dotdbg_ssh("n1", "-p", "22", "uptime", home=tmp_path)
    assert result.returncode == 2
    assert error_lines(result) == [
        "dotdbg: error: dotdbg ssh starts an interactive shell; it runs no command ('uptime')"
    ]


# -- dotdbg found on a host without anyone editing an rc file (13.3) --------------------------
LOCAL_BIN_DOTDBG = '#!/bin/sh\necho "the dotdbg in ~/.local/bin: $*"\n'


def test_fanout_finds_dotdbg_in_local_bin_when_the_path_asked_for_is_not_there(
    ssh_server: SshServer,
) -> None:
    from dotdbg.fanout import ssh

    user = ssh_server.add_user("dotdbgs3")
    local_bin = user.home / ".local" / "bin"
    local_bin.mkdir(parents=True)
    (local_bin / "dotdbg").write_text(LOCAL_BIN_DOTDBG)
    (local_bin / "dotdbg").chmod(0o755)
    os.chown(local_bin / "dotdbg", user.uid, -1)
    options = f"-F {ssh_server.client_config} -l {user.name}"
    argv = ["/no/such/venv/bin/dotdbg", "stacks", "--json"]
    (found,) = ssh.run_on_nodes(["n1"], argv, timeout=20, ssh_options=options)
    assert found.ok, found
    assert found.stdout.strip() == "the dotdbg in ~/.local/bin: stacks --json"
    (local_bin / "dotdbg").unlink()
    (missing,) = ssh.run_on_nodes(["n2"], argv, timeout=20, ssh_options=options)
    assert missing.returncode == 127
    assert "dotdbg: not found at /no/such/venv/bin/dotdbg, on PATH or in ~/.local/bin" in (
        missing.stderr
    )
