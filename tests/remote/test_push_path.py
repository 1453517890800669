"""`ssh HOST dotdbg …` after `dotdbg push`, against the real test sshd: the remote user's
Debian-style ~/.bashrc returns at its interactive guard (a zsh user's ~/.zshrc is not read at
all, fish's dotdbg.fish returns at once) and ~/.local/bin is on no non-interactive PATH, yet
the dotdbg in ~/.local/bin is found (the PATH block); `push --uninstall` leaves the home
byte-identical."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import dotdbg
from tests.faults.faultrun import DEBIAN, snapshot
from tests.infra.sshd import ADDRESSES, SshServer
from tests.infra.sshd import TestUser as RemoteUser

DOTDBG = Path(sys.executable).with_name("dotdbg")
SYSTEM_PYTHON = Path("/usr/bin/python3")  # what the test user can run (the venv's is root's)
REPO = Path(dotdbg.__file__).resolve().parents[1]
# A launcher as pipx or uv links into ~/.local/bin: dotdbg's own entry point, run by a Python
# the remote user has (`dotdbg --version` needs none of dotdbg's dependencies).
LAUNCHER = (
    "#!/bin/sh\n"
    f"exec {SYSTEM_PYTHON} -c 'import sys; sys.path[0:0] = [sys.argv.pop(1)]; "
    "from dotdbg.cli.entry import main; sys.exit(main())' "
    f'{REPO} "$@"\n'
)


def push(server: SshServer, local_home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(local_home), "PATH": os.environ["PATH"]}
    env["DOTDBG_SSH_OPTIONS"] = server.ssh_options
    return subprocess.run(
        [str(DOTDBG), "push", *args], capture_output=True, text=True, env=env, timeout=120
    )


def remote_dotdbg(server: SshServer, target: str) -> subprocess.CompletedProcess[str]:
    """What the user types: ssh in batch mode, the command alone (no login, no terminal)."""
    argv = ["ssh", "-F", str(server.client_config), "-o", "BatchMode=yes", target]
    return subprocess.run(
        [*argv, "dotdbg", "--version"],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )


RC_WITH_PATH = {
    "bash": ".bashrc",
    "zsh": ".zshenv",
    "fish": ".config/fish/conf.d/dotdbg-path.fish",
}
ZSHRC = b"# ~/.zshrc\n[[ -o interactive ]] || return\nbindkey -e\n"


def remote_user(server: SshServer, shell: str) -> RemoteUser:
    """A user whose login shell is ``shell``, with Debian's ~/.bashrc, a ~/.zshrc that returns
    when not interactive, and dotdbg's launcher in ~/.local/bin."""
    program = shutil.which(shell)
    assert program is not None
    user = server.add_user(f"dotdbgp{shell}", shell=program)
    (user.home / ".bashrc").write_bytes(DEBIAN)
    (user.home / ".zshrc").write_bytes(ZSHRC)
    launcher = user.home / ".local/bin/dotdbg"
    launcher.parent.mkdir(parents=True)
    launcher.write_text(LAUNCHER)
    launcher.chmod(0o755)
    subprocess.run(["chown", "-R", f"{user.uid}:{user.uid}", str(user.home)], check=True)
    return user


@pytest.mark.skipif(not SYSTEM_PYTHON.exists(), reason=f"no {SYSTEM_PYTHON} for the test user")
def test_ssh_host_dotdbg_finds_it_after_push_and_uninstall_gives_the_home_back(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    shells = [shell for shell in ("bash", "zsh", "fish") if shutil.which(shell)]
    users = {shell: remote_user(ssh_server, shell) for shell in shells}
    before = {shell: snapshot(user.home) for shell, user in users.items()}
    targets = {shell: f"{user.name}@{ADDRESSES[0]}" for shell, user in users.items()}
    for target in targets.values():
        missed = remote_dotdbg(ssh_server, target)
        assert missed.returncode == 127, missed.stdout + missed.stderr  # the problem is real

    done = push(ssh_server, tmp_path, "--diff", *targets.values())  # both hosts in one push
    assert done.returncode == 0, done.stdout + done.stderr
    assert "+# >>> dotdbg path >>>" in done.stdout
    assert "need dotdbg installed there" not in done.stdout  # it is, in ~/.local/bin
    for shell, user in users.items():
        rc = (user.home / RC_WITH_PATH[shell]).read_text()
        assert rc.startswith("# >>> dotdbg path >>>\n") and '"$HOME/.local/bin"' in rc
        found = remote_dotdbg(ssh_server, targets[shell])
        assert found.returncode == 0, found.stderr
        assert found.stdout == f"dotdbg {dotdbg.__version__}\n"
    status = push(ssh_server, tmp_path, "--status", *targets.values())
    assert status.returncode == 0, status.stdout + status.stderr

    gone = push(ssh_server, tmp_path, "--uninstall", *targets.values())
    assert gone.returncode == 0, gone.stdout + gone.stderr
    for shell, user in users.items():  # byte-identical, dotdbg's backups aside
        assert snapshot(user.home) == before[shell], shell
