"""``dotdbg push`` against the real test sshd: three "hosts" (n1-n3, one user each, so three
homes), realistic rc files, a round trip, a connection killed mid-push, an unreachable host."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.paths import Paths
from dotdbg.remote import push as pushing
from dotdbg.remote.sshfs import SshFS
from tests.infra.sshd import SshServer
from tests.infra.sshd import TestUser as RemoteUser

DOTDBG = Path(sys.executable).with_name("dotdbg")
BASHRC = (
    "# ~/.bashrc: the user's own\n"
    'case $- in *i*) ;; *) return ;; esac\nHISTSIZE=1000\nalias ll="ls -l"\n'
    "export PATH=$HOME/bin:$PATH\n"
)
INPUTRC = "set bell-style none\n"


@pytest.fixture(scope="module")
def users(ssh_server: SshServer) -> list[RemoteUser]:
    return [ssh_server.add_user(f"dotdbgq{index}") for index in (1, 2, 3)]


def seed(user: RemoteUser) -> dict[str, bytes | None]:
    """The user's own rc files, as they are before any push."""
    files = {".bashrc": BASHRC.encode(), ".inputrc": INPUTRC.encode()}
    for name, data in files.items():
        (user.home / name).write_bytes(data)
        os.chown(user.home / name, user.uid, user.uid)
    (user.home / ".pdbrc").unlink(missing_ok=True)
    return {**files, ".pdbrc": None}


def digests(user: RemoteUser) -> dict[str, str]:
    return {
        name: hashlib.sha256((user.home / name).read_bytes()).hexdigest()
        for name in (".bashrc", ".inputrc", ".pdbrc")
        if (user.home / name).exists()
    }


def push(ssh_server: SshServer, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "HOME": str(tmp_path),
        "PATH": os.environ["PATH"],
        "DOTDBG_SSH_OPTIONS": ssh_server.ssh_options,
    }
    return subprocess.run(
        [str(DOTDBG), "push", *args], capture_output=True, text=True, env=env, timeout=120
    )


def hosts(users: list[RemoteUser]) -> list[str]:
    return [f"{user.name}@n{index}" for index, user in enumerate(users, 1)]


def rows(output: str) -> dict[str, str]:
    """HOST -> RESULT from the table (which ends at the first blank line: the diffs follow)."""
    table = output.split("\n\n", 1)[0].splitlines()[1:]
    return {line.split()[0]: line.split()[1] for line in table if line[:1] != " "}


def test_push_status_uninstall_round_trip(
    ssh_server: SshServer, users: list[RemoteUser], tmp_path: Path
) -> None:
    for user in users:
        seed(user)
    linked = users[2].home / ".bashrc"  # a dotfiles manager's link: edited at its target
    target = users[2].home / "dotfiles" / "bashrc"
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(linked.read_bytes())
    for made in (target.parent, target):
        os.chown(made, users[2].uid, users[2].uid)
    linked.unlink()
    linked.symlink_to(target)
    before = [digests(user) for user in users]
    local_config = tmp_path / ".config" / "dotdbg" / "config.toml"
    local_config.parent.mkdir(parents=True)
    local_config.write_text("# the config on the machine that pushes\n")
    dry = push(ssh_server, tmp_path, "--dry-run", "--diff", *hosts(users))
    assert dry.returncode == 0, dry.stdout + dry.stderr
    assert set(rows(dry.stdout).values()) == {"would"}
    assert "+# >>> dotdbg >>>" in dry.stdout
    assert [digests(user) for user in users] == before  # a dry run writes nothing
    done = push(ssh_server, tmp_path, *hosts(users))
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(rows(done.stdout).values()) == {"installed"}
    for user in users:
        assert "# >>> dotdbg >>>" in (user.home / ".bashrc").read_text()
        assert (user.home / ".bashrc").read_text().startswith(BASHRC)
        generated = (user.home / ".local/share/dotdbg/dotdbg.bash").read_text()
        assert f"from dotdbg's defaults, {local_config}." in generated  # named where it is
        # the pushing machine's config tables are no use to the host's dotdbg: not sent there
        assert not (user.home / ".local/state/dotdbg/parsed").exists()
    status = push(ssh_server, tmp_path, "--status", *hosts(users))
    assert status.returncode == 0 and set(rows(status.stdout).values()) == {"current"}
    by_hand = users[1].home / ".local/share/dotdbg/dotdbg.bash"
    by_hand.write_text(by_hand.read_text() + "alias by_hand=1\n")
    # a hand edit on one host, and one host that cannot be reached: each is its own row
    drifted = push(ssh_server, tmp_path, "--status", *hosts(users), "127.0.0.9")
    assert drifted.returncode == 1
    table = rows(drifted.stdout)
    assert [table[host] for host in hosts(users)] == ["current", "drifted", "current"]
    assert table["127.0.0.9"] == "failed" and "Traceback" not in drifted.stderr
    (unreachable,) = [line for line in drifted.stdout.splitlines() if "127.0.0.9" in line]
    assert "ssh failed: ssh: connect to host 127.0.0.9" in unreachable
    assert linked.is_symlink() and "# >>> dotdbg >>>" in target.read_text()
    gone = push(ssh_server, tmp_path, "--uninstall", *hosts(users))
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert [digests(user) for user in users] == before  # byte-exact
    assert linked.is_symlink()


def test_a_connection_killed_mid_push_leaves_every_file_old_or_new(
    ssh_server: SshServer, users: list[RemoteUser], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dotdbg.home import install as installer

    user = users[0]
    old = seed(user)
    monkeypatch.setenv("HOME", str(tmp_path))
    config = load_config(Paths.from_env())
    fs = SshFS("n1", [*ssh_server.ssh_options.split(), "-l", user.name])
    writes = 0
    write_atomic = fs.write_atomic

    def dropping(path: Path, data: bytes, mode: int | None = None, *, follow: bool = True) -> None:
        nonlocal writes
        writes += 1
        if writes == 3:  # after the generated files, before the rc files are all done
            fs.kill()
        write_atomic(path, data, mode, follow=follow)

    monkeypatch.setattr(fs, "write_atomic", dropping)
    with pytest.raises(Exception, match="ssh failed"):
        installer.install(Paths.from_env(fs.home).on(fs), config)
    fresh = SshFS("n1", [*ssh_server.ssh_options.split(), "-l", user.name])
    new = installer.install(Paths.from_env(fresh.home).on(fresh), config, dry_run=True)
    fresh.close()
    for change in new.plan.changes:
        if change.path.name in old:
            now = change.path.read_bytes() if change.path.exists() else None
            new_bytes = None if change.after is None else change.after.encode()
            assert now in (old[change.path.name], new_bytes), change.path
    done = push(ssh_server, tmp_path, f"{user.name}@n1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not list(user.home.rglob("*.dotdbg-tmp"))
    assert push(ssh_server, tmp_path, "--status", f"{user.name}@n1").returncode == 0


def test_the_table_lines_up() -> None:
    results = [pushing.HostResult("a", True, "installed", "3 files changed")]
    results.append(pushing.HostResult("long-host", False, "failed", "ssh failed: x", ("n",)))
    assert pushing.table(results) == [
        "HOST       RESULT     DETAIL",
        "a          installed  3 files changed",
        "long-host  failed     ssh failed: x",
        "           note: n",
    ]


def test_a_read_only_home_is_one_row_and_nothing_is_half_written(
    ssh_server: SshServer, users: list[RemoteUser], tmp_path: Path
) -> None:
    user = users[1]
    seed(user)
    push(ssh_server, tmp_path, "--uninstall", f"{user.name}@n2")
    before = digests(user)
    user.home.chmod(0o555)
    try:
        done = push(ssh_server, tmp_path, f"{user.name}@n2")
    finally:
        user.home.chmod(0o755)
    assert done.returncode == 1
    (row,) = done.stdout.splitlines()[1:2]
    assert row.split()[1] == "failed" and "cannot write in" in row, done.stdout
    assert "changed nothing" in row
    assert digests(user) == before


def test_a_full_home_is_one_row_and_nothing_is_half_written(
    ssh_server: SshServer, users: list[RemoteUser], tmp_path: Path
) -> None:
    """The remote home on a 512 KiB tmpfs, filled but for a few KiB: push cannot finish there.
    The host gets one failed row; its rc files stay as they were and no temp file is left."""
    user = users[2]
    seed(user)
    push(ssh_server, tmp_path, "--uninstall", f"{user.name}@n3")
    before = digests(user)
    saved = tmp_path / "saved-home"
    subprocess.run(["cp", "-a", f"{user.home}/.", str(saved)], check=True)
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size=512k,mode=0755,uid={user.uid}", "tmpfs", user.home],
        capture_output=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        subprocess.run(["cp", "-a", f"{saved}/.", str(user.home)], check=True)
        filler = user.home / "filler"
        subprocess.run(["dd", "if=/dev/zero", f"of={filler}", "bs=4k"], capture_output=True)
        os.truncate(filler, filler.stat().st_size - 8192)  # room for a login, not for a push
        done = push(ssh_server, tmp_path, f"{user.name}@n3")
        assert done.returncode == 1, done.stdout + done.stderr
        (row,) = done.stdout.splitlines()[1:2]
        assert row.split()[:2] == [f"{user.name}@n3", "failed"], done.stdout
        assert "(No space left on device), so dotdbg changed nothing" in row, row
        assert "base64" not in row, row  # the remote program's words are not a file name
        assert "Traceback" not in done.stderr
        assert digests(user) == before
        left = [path.name for path in user.home.rglob("*.dotdbg-tmp")]
        assert not left, left
    finally:
        subprocess.run(["umount", "-l", str(user.home)], check=False)
    assert digests(user) == before


def refuse(*args: object) -> list[str]:
    raise AssertionError("rendered or checked again")


def test_push_renders_and_checks_once_for_every_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dotdbg.home import install as installer
    from dotdbg.home.install import checked_render, install
    from dotdbg.shells import bashcheck

    config = load_config(Paths.from_env(tmp_path / "local"))
    once = checked_render(Paths.from_env(Path(pushing.ANY_HOME)), config)
    monkeypatch.setattr(bashcheck, "shellcheck_errors", refuse)
    monkeypatch.setattr(installer, "render_all", refuse)
    for home in ("first", "second"):
        paths = Paths.from_env(tmp_path / home)
        install(paths, config, prerendered=once)
        assert (paths.data_dir / "dotdbg.bash").read_text() == once.files["dotdbg.bash"]
