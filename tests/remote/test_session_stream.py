"""The session files travel on the session's input, against the real test sshd: no alias body
in any process's arguments or environment (local or remote: the sshd is on this machine), a
200 KB personal sheet arrives through ``dotdbg ssh`` and through ``dotdbg shell -- ssh -t``,
nothing is left behind, and ``kill -9`` of dotdbg at random moments leaves no remote session,
process or directory."""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pexpect
import psutil
import pytest

from tests.infra.procs import wait_for
from tests.infra.sshd import SshServer
from tests.infra.sshd import TestUser as RemoteUser
from tests.remote.test_session_files import big_sheet
from tests.remote.test_ssh_session import DOTDBG, session_dirs, tree_digest, warm_payload
from tests.sweep import kill_moments

TOKEN = f"FAKE-TOKEN-{secrets.token_hex(12)}"  # an alias body no process may show
PROMPT = "SESSION-PROMPT$ "
SEED = 2521  # kill -9 moments: 3 (--fault-sweep: 18), one in each third (...) of a start


@pytest.fixture(scope="module")
def local_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's machine: an alias holding a token, a 200 KB sheet of their own."""
    home = tmp_path_factory.mktemp("local")
    config = home / ".config" / "dotdbg"
    (config / "cheatsheets").mkdir(parents=True)
    (config / "config.toml").write_text(f'[aliases.tok]\ncommand = "echo {TOKEN}"\n')
    (config / "cheatsheets" / "big").write_text(big_sheet())
    assert len(big_sheet()) > 200_000
    warm_payload(home)
    return home


@pytest.fixture(scope="module")
def remote_user(ssh_server: SshServer) -> RemoteUser:
    user = ssh_server.add_user("dotdbgw1")
    (user.home / ".bashrc").write_text(f"PS1='{PROMPT}'\nalias mine='echo from-their-rc'\n")
    return user


def spawn(argv: list[str], home: Path) -> pexpect.spawn:
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "TERM": "xterm", "LANG": "C.UTF-8"}
    return pexpect.spawn(argv[0], argv[1:], env=env, timeout=60, dimensions=(50, 200))


def ssh_words(server: SshServer, user: RemoteUser) -> list[str]:
    return ["-F", str(server.client_config), "-l", user.name]


@contextlib.contextmanager
def session(argv: list[str], home: Path) -> Iterator[pexpect.spawn]:
    child = spawn(argv, home)
    try:
        child.expect_exact("for this session only")
        child.expect_exact(PROMPT)
        yield child
    finally:
        child.close(force=True)


def said(child: pexpect.spawn, command: str) -> str:
    """What ``command`` printed in the session."""
    marker = secrets.token_hex(4)
    child.sendline(f"{command}; echo END-{marker}")
    child.expect_exact(f"\nEND-{marker}")  # not the echo of the line: " END-{marker}"
    text = cast(bytes, child.before).decode(errors="replace")  # pexpect is untyped
    echoed = text.index(f"END-{marker}")  # the line as the terminal echoed it
    return text[text.index("\n", echoed) + 1 :].replace("\r\n", "\n")


def leaks(secret: str) -> list[str]:
    """Every process whose arguments or environment hold ``secret``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        for name in ("cmdline", "environ"):
            with contextlib.suppress(OSError):
                if secret.encode() in (entry / name).read_bytes():
                    found.append(f"{entry.name} {name}: {(entry / 'cmdline').read_bytes()[:200]!r}")
    return found


def processes_of(user: RemoteUser) -> list[str]:
    found = []
    for process in psutil.process_iter(["uids", "cmdline"]):
        uids = process.info["uids"]
        if uids is not None and user.uid in (uids.real, uids.effective):
            found.append(" ".join(process.info["cmdline"] or [])[:120])
    return found


def check_the_session(child: pexpect.spawn, uid: int) -> Path:
    """The alias, the user's own rc and the 200 KB sheet all there; the session dir."""
    assert TOKEN in said(child, "tok")
    assert "from-their-rc" in said(child, "mine")
    assert "run-step-1999 --seed 1999" in said(child, "ch -c entry-1999")
    directory = Path(said(child, "echo $__dotdbg_session").strip())
    assert directory.name.startswith("dotdbg-ssh.") and directory.stat().st_uid == uid
    assert directory.stat().st_mode & 0o777 == 0o700
    return directory


def test_no_process_shows_the_payload_and_a_200_kb_sheet_arrives(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    before = tree_digest(remote_user.home)
    argv = [str(DOTDBG), "ssh", "n1", *ssh_words(ssh_server, remote_user)]
    with session(argv, local_home) as child:
        directory = check_the_session(child, remote_user.uid)
        assert leaks(TOKEN) == []  # local dotdbg and ssh, sshd, the remote sh and bash
        child.sendline("exit")
        child.expect(pexpect.EOF)
    wait_for(lambda: not directory.exists(), 30, "the session dir to go after exit")
    assert tree_digest(remote_user.home) == before


def test_the_generic_form_through_ssh(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    """``dotdbg shell -- ssh -t HOST``: the line typed into the login shell ssh gives."""
    before = tree_digest(remote_user.home)
    argv = [str(DOTDBG), "shell", "--", "ssh", "-t", *ssh_words(ssh_server, remote_user), "n1"]
    with session(argv, local_home) as child:
        directory = check_the_session(child, remote_user.uid)
        assert leaks(TOKEN) == []
        child.sendline("exit 7")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 7
    wait_for(lambda: not directory.exists(), 30, "the session dir to go after exit")
    assert tree_digest(remote_user.home) == before


@pytest.mark.timeout(900)  # a few kills and waits: 110 s measured alone at load 20
def test_kill_9_at_random_moments_leaves_nothing_remote(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    argv = [str(DOTDBG), "ssh", "n1", *ssh_words(ssh_server, remote_user)]
    begin = time.monotonic()
    with session(argv, local_home):  # the payload cached, and how long a start takes here
        pass
    start = time.monotonic() - begin
    wait_for(lambda: not session_dirs(remote_user), 30, "the first session to end")
    before = tree_digest(remote_user.home)
    for delay in kill_moments(start * 1.2, SEED, default=3, sweep=18):
        child = spawn(argv, local_home)
        time.sleep(delay)
        os.kill(child.pid, signal.SIGKILL)
        child.close(force=True)
        wait_for(lambda: not session_dirs(remote_user), 30, f"no session dir ({delay:.2f} s)")
        wait_for(lambda: not processes_of(remote_user), 30, f"no process left ({delay:.2f} s)")
        assert not [p for p in psutil.process_iter(["name"]) if _orphaned_ssh(p, remote_user)]
    assert tree_digest(remote_user.home) == before


def _orphaned_ssh(process: psutil.Process, user: RemoteUser) -> bool:
    with contextlib.suppress(psutil.Error):
        return process.info["name"] == "ssh" and f"-l {user.name}" in " ".join(process.cmdline())
    return False


def test_the_terminal_echo_of_the_stream_is_not_shown(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    """No ``stty -echo`` runs on the host: the relay drops what the terminal echoed of the
    stream, between the script's two markers, and echo is on in the session."""
    argv = [str(DOTDBG), "ssh", "n1", *ssh_words(ssh_server, remote_user)]
    child = spawn(argv, local_home)
    try:
        child.expect_exact(PROMPT)
        shown = cast(bytes, child.before).decode(errors="replace")
        assert "printf" not in shown and not re.search("[A-Za-z0-9+/]{64}", shown), shown[-500:]
        assert "for this session only" in shown
        modes = said(child, "stty -a").split()
        assert "echo" in modes and "-echo" not in modes
        assert "ch-ok" in said(child, "ch -c tar >/dev/null && echo ch-ok")
    finally:
        child.close(force=True)


def test_the_cheat_archive_comes_at_the_first_use_and_only_on_its_key(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    """On a terminal, the session starts with bash's files alone; the archive (cheat code and
    sheets) comes when the session first needs it, here from TAB in readline, asked for with
    a key no argument holds: the nonce that ``ps`` shows asks for nothing."""
    argv = [str(DOTDBG), "ssh", "n1", *ssh_words(ssh_server, remote_user)]
    with session(argv, local_home) as child:
        directory = Path(said(child, "echo $__dotdbg_session").strip())
        assert (directory / "fetch").is_file() and not (directory / "py").exists()
        shell = psutil.Process(int(said(child, "echo $$")))
        words = " ".join(" ".join(process.cmdline()) for process in shell.parents())
        (nonce,) = set(re.findall(r"DOTDBG%sREADY. ([0-9a-f]+)", words))  # the script's
        forged = said(child, f"printf 'DOTDBG%sSEND' {nonce}; echo; echo still-here")
        assert "still-here" in forged and not (directory / "py").exists()
        child.send("ch bi\t\t")  # the sheet's name completed: dotdbg cheat --names, in readline
        child.expect_exact("big")
        child.sendcontrol("u")
        assert (directory / "py").is_dir()
        shown = said(child, "ch -c entry-1999")
        assert shown.strip() == "run-step-1999 --seed 1999", shown
        assert not re.search("[A-Za-z0-9+/]{64}", shown)


def test_the_guard_removes_the_dir_when_the_script_is_killed(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    """The guard reads a pipe that only the script's main part holds: ``kill -9`` of that part
    (not of dotdbg: the connection stays) wakes it, and the session dir goes."""
    argv = [str(DOTDBG), "ssh", "n1", *ssh_words(ssh_server, remote_user)]
    with session(argv, local_home) as child:
        directory = Path(said(child, "echo $__dotdbg_session").strip())
        main = psutil.Process(int(said(child, "echo $$"))).parent()
        assert main is not None and "DOTDBG%sREADY" in " ".join(main.cmdline())
        main.kill()
        wait_for(lambda: not directory.exists(), 30, "the guard to remove the session dir")


def test_kill_9_of_a_dotdbg_started_under_nohup_leaves_nothing_remote(
    ssh_server: SshServer, remote_user: RemoteUser, local_home: Path
) -> None:
    """dotdbg started with SIGHUP ignored (nohup, a detached test run): ssh must not inherit
    that, or it outlives the terminal dotdbg ran it on, and the remote session with it."""
    argv = [str(DOTDBG), "ssh", "n1", *ssh_words(ssh_server, remote_user)]
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        child = spawn(argv, local_home)
    finally:
        signal.signal(signal.SIGHUP, previous)
    try:
        child.expect_exact(PROMPT)
        directory = Path(said(child, "echo $__dotdbg_session").strip())
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.close(force=True)
    wait_for(lambda: not directory.exists(), 30, "the session dir to go")
    wait_for(lambda: not processes_of(remote_user), 30, "no remote process left")
    assert not [p for p in psutil.process_iter(["name"]) if _orphaned_ssh(p, remote_user)]
