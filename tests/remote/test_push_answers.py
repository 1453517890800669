"""``dotdbg push`` reads what the host says, not what its rc files print: the home comes from a
nonce-delimited record, a home it cannot verify is refused, a lock it cannot open says why, a
note alone is no drift, and ``--json`` follows docs/schemas/push.schema.json."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.errors import DotdbgError
from dotdbg.remote.sshfs import SshFS, prelude_answer
from tests.infra.procs import wait_for
from tests.infra.sshd import SshServer
from tests.infra.sshd import TestUser as RemoteUser
from tests.sweep import kill_moments

DOTDBG = Path(sys.executable).with_name("dotdbg")
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "schemas" / "push.schema.json"
# Text a login's rc prints: without a newline it used to become the first part of "$HOME".
NOISY_RCS = {
    "no newline": "printf 'Welcome to the cluster'\n",
    "lines": "echo 'Welcome'; echo /tmp/elsewhere; echo 022; echo 4242; echo '@@ 0 '\n",
}


def push(server: SshServer, local: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"HOME": str(local), "PATH": os.environ["PATH"], "DOTDBG_SSH_OPTIONS": server.ssh_options}
    return subprocess.run(
        [str(DOTDBG), "push", *args], capture_output=True, text=True, env=env, timeout=120
    )


def own(user: RemoteUser, name: str, text: str) -> Path:
    path = user.home / name
    path.write_text(text)
    os.chown(path, user.uid, user.uid)
    return path


def row(output: str, host: str) -> list[str]:
    (line,) = [line for line in output.splitlines() if line.startswith(host)]
    return line.split(None, 2)


@pytest.fixture(scope="module")
def noisy(ssh_server: SshServer) -> Iterator[RemoteUser]:
    yield ssh_server.add_user("dotdbgn1")


@pytest.mark.parametrize("printed", list(NOISY_RCS), ids=list(NOISY_RCS))
def test_the_home_is_the_real_one_whatever_the_rc_prints(
    ssh_server: SshServer, noisy: RemoteUser, tmp_path: Path, printed: str
) -> None:
    # sshd's bash -c reads ~/.bashrc (Debian's bash does, for ssh); its text goes first
    rc = own(noisy, ".bashrc", NOISY_RCS[printed] + "alias ll='ls -l'\n")
    host = f"{noisy.name}@n1"
    said = ssh_server.ssh(host, "true")
    assert said.stdout.startswith("Welcome"), said  # the rc does print on a command's way in
    done = push(ssh_server, tmp_path, host)
    assert done.returncode == 0, done.stdout + done.stderr
    assert row(done.stdout, host)[1] == "installed"
    assert (noisy.home / ".local/share/dotdbg/dotdbg.bash").is_file()
    assert "# >>> dotdbg >>>" in rc.read_text()
    strays = [path for path in noisy.home.iterdir() if path.name.startswith("Welcome")]
    assert not strays and not Path("/tmp/elsewhere").exists()
    status = push(ssh_server, tmp_path, "--status", host)
    assert status.returncode == 0 and row(status.stdout, host)[1] == "current", status.stdout
    gone = push(ssh_server, tmp_path, "--uninstall", host)
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert "dotdbg" not in rc.read_text()


def test_a_home_that_is_not_a_directory_is_refused(ssh_server: SshServer, tmp_path: Path) -> None:
    user = ssh_server.add_user("dotdbgn2")
    own(user, ".bashrc", "export HOME=/nonexistent/dotdbg-home\n")
    host = f"{user.name}@n2"
    done = push(ssh_server, tmp_path, host)
    assert done.returncode == 1
    _, result, detail = row(done.stdout, host)
    assert result == "failed"
    assert detail.startswith("the remote $HOME (/nonexistent/dotdbg-home) is not a directory"), (
        detail
    )
    assert not Path("/nonexistent").exists()


@pytest.mark.parametrize(
    "said",
    [
        "Welcome/home/u\n022\n42\n",  # the old positional answer
        "<n0nce L2hvbWUvdQ== 1 0022 42 other>\n",  # another connection's nonce
        "<n0nce L2hvbWUvdQ== 1 0022 42 n0nce>\n<n0nce L2V2aWw= 1 0022 43 n0nce>\n",  # two
        "<n0nce cmVsYXRpdmU= 1 0022 42 n0nce>\n",  # "relative"
        "<n0nce L2hvbWUvdQ== 0 0022 42 n0nce>\n",  # not a directory there
    ],
)
def test_an_answer_that_cannot_be_verified_is_refused(said: str) -> None:
    with pytest.raises(DotdbgError):
        prelude_answer(said, "n0nce", "h")


def test_the_record_is_found_after_any_text() -> None:
    said = "Welcome to the cluster<n0nce L2hvbWUvdSAx 1 0027 42 n0nce>\n"
    assert prelude_answer(said, "n0nce", "h") == (Path("/home/u 1"), 0o027, 42)


def test_a_read_only_home_gives_the_real_reason(ssh_server: SshServer, tmp_path: Path) -> None:
    """The home on a read-only mount: the lock cannot be opened; the row says why."""
    user = ssh_server.add_user("dotdbgn3")
    own(user, ".bashrc", "alias ll='ls -l'\n")
    home = str(user.home)
    bound = subprocess.run(["mount", "--bind", home, home], capture_output=True)
    if bound.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {bound.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", home, home], check=True)
        done = push(ssh_server, tmp_path, f"{user.name}@n3")
    finally:
        subprocess.run(["umount", "-l", home], check=False)
    assert done.returncode == 1
    _, result, detail = row(done.stdout, f"{user.name}@n3")
    assert result == "failed"
    assert "Read-only file system" in detail and "ssh failed" not in detail, detail
    assert "Traceback" not in done.stderr


def test_a_lock_the_user_cannot_open_gives_the_real_reason(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    user = ssh_server.add_user("dotdbgn4")
    state = user.home / ".local/state/dotdbg"
    state.mkdir(parents=True)
    (state / "lock").write_text("")
    (state / "lock").chmod(0o400)  # root's file, not the user's: they cannot open it to write
    for path in (user.home / ".local", user.home / ".local/state", state):
        os.chown(path, user.uid, user.uid)
    done = push(ssh_server, tmp_path, f"{user.name}@n1")
    assert done.returncode == 1
    _, result, detail = row(done.stdout, f"{user.name}@n1")
    assert result == "failed"
    assert "cannot open the lock file" in detail and "Permission denied" in detail, detail


def test_a_note_alone_is_current_and_exits_0(ssh_server: SshServer, tmp_path: Path) -> None:
    user = ssh_server.add_user("dotdbgn5")
    own(user, ".profile", "# the user's own: it does not load ~/.bashrc\nexport EDITOR=vi\n")
    host = f"{user.name}@n2"
    done = push(ssh_server, tmp_path, host)
    assert done.returncode == 0, done.stdout + done.stderr
    status = push(ssh_server, tmp_path, "--status", host)
    assert status.returncode == 0, status.stdout
    assert row(status.stdout, host)[1] == "current"
    assert "does not load ~/.bashrc" in status.stdout and "drifted" not in status.stdout


def test_status_json_follows_the_schema(ssh_server: SshServer, tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads(SCHEMA.read_text())
    current, drifted = ssh_server.add_user("dotdbgn6"), ssh_server.add_user("dotdbgn7")
    hosts = [f"{current.name}@n1", f"{drifted.name}@n2"]
    installed = push(ssh_server, tmp_path, "--json", *hosts)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    jsonschema.validate(json.loads(installed.stdout), schema)
    generated = drifted.home / ".local/share/dotdbg/dotdbg.bash"
    generated.write_text(generated.read_text() + "alias by_hand=1\n")
    status = push(ssh_server, tmp_path, "--status", "--json", *hosts, "127.0.0.9")
    assert status.returncode == 1
    document = json.loads(status.stdout)
    jsonschema.validate(document, schema)
    assert document["action"] == "status" and document["dry_run"] is False
    by_host = {entry["host"]: entry for entry in document["hosts"]}
    assert [entry["host"] for entry in document["hosts"]] == [*hosts, "127.0.0.9"]
    assert by_host[hosts[0]]["result"] == "current" and by_host[hosts[0]]["ok"] is True
    assert by_host[hosts[1]]["result"] == "drifted"
    assert by_host[hosts[1]]["files"] == ["~/.local/share/dotdbg/dotdbg.bash"]
    assert by_host["127.0.0.9"]["result"] == "failed"
    assert by_host["127.0.0.9"]["detail"].startswith("ssh failed")
    with pytest.raises(jsonschema.ValidationError):  # the schema does reject a wrong document
        jsonschema.validate({**document, "hosts": [{"host": 1}]}, schema)


SEED = 2153  # kill -9 moments: 3 (--fault-sweep: 24), one in each third (eighth...) of a push


def left_in_tmp(user: RemoteUser) -> list[str]:
    """What ``user`` owns in /tmp: the remote helper's temp dir, if a push left it."""
    found = []
    for path in Path("/tmp").iterdir():
        with contextlib.suppress(FileNotFoundError):
            if path.lstat().st_uid == user.uid:
                found.append(path.name)
    return found


def running_as(user: RemoteUser) -> list[str]:
    import psutil

    return [
        " ".join(process.info["cmdline"] or [])
        for process in psutil.process_iter(["uids", "cmdline"])
        if process.info["uids"] is not None and user.uid in process.info["uids"][:2]
    ]


@pytest.mark.timeout(900)  # a few kills and waits: 110 s measured alone at load 20
def test_kill_9_of_push_at_random_moments_leaves_nothing_behind(
    ssh_server: SshServer, tmp_path: Path
) -> None:
    user = ssh_server.add_user("dotdbgn8")
    host = f"{user.name}@n3"
    env = {
        "HOME": str(tmp_path),
        "PATH": os.environ["PATH"],
        "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options,
    }
    begin = time.monotonic()
    assert push(ssh_server, tmp_path, host).returncode == 0
    took = time.monotonic() - begin
    assert push(ssh_server, tmp_path, "--uninstall", host).returncode == 0
    before = left_in_tmp(user)  # a uid used before by a user of another run may have some
    for delay in kill_moments(took, SEED, default=3, sweep=24):
        pushing = subprocess.Popen(
            [str(DOTDBG), "push", host],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(delay)
        pushing.kill()
        pushing.wait()
        wait_for(lambda: not running_as(user), 30, f"the remote shell to end ({delay:.2f} s)")
        assert left_in_tmp(user) == before, delay
    done = push(ssh_server, tmp_path, host)  # finishes or rolls back what a kill cut short
    assert done.returncode == 0, done.stdout + done.stderr
    assert not list(user.home.rglob("*.dotdbg-tmp"))
    status = push(ssh_server, tmp_path, "--status", host)
    assert status.returncode == 0 and row(status.stdout, host)[1] == "current", status.stdout


def test_a_connection_dropped_mid_answer_leaves_no_temp_dir(ssh_server: SshServer) -> None:
    """The remote helper writing when its connection goes (the local ssh gone with a killed
    push): SIGPIPE ends it, and its temp dir goes too."""
    user = ssh_server.add_user("dotdbgn9")
    before = left_in_tmp(user)
    fs = SshFS("n1", [*ssh_server.ssh_options.split(), "-l", user.name])
    assert left_in_tmp(user) != before  # its temp dir is there meanwhile
    process = fs._process
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"head -c 200000000 /dev/zero | base64; printf 'more\\n'\n")
    process.stdin.flush()
    assert process.stdout.readline()  # the answer is flowing
    fs.kill()
    wait_for(lambda: not running_as(user), 30, "the remote shell to end")
    assert left_in_tmp(user) == before
