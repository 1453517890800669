"""disk-fill --tmpfs SIZE -- CMD for real: CMD's /tmp (and $TMPDIR) is a private tmpfs of SIZE,
as root and as an unprivileged user, and a kernel that refuses user namespaces gets a clear error.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.fill import private_tmp
from tests.fill.fill_support import Running, child_named, script

MiB = 2**20

# Run inside the private /tmp: report its size, whether 20 MiB fit, and leave a marker behind.
PROBE = """
import json, os, sys
tmp = os.environ.get("TMPDIR") or "/tmp"
stats = os.statvfs(tmp)
try:
    with open(os.path.join(tmp, "big"), "wb") as big:
        big.write(b"x" * (20 << 20))
    fits = True
except OSError:
    fits = False
open(os.path.join(tmp, sys.argv[1]), "w").close()
print(json.dumps({"size": stats.f_blocks * stats.f_frsize, "fits": fits,
                  "same_fs_as_tmp": os.stat(tmp).st_dev == os.stat("/tmp").st_dev,
                  "uid": os.getuid()}))
sys.exit(5)
"""


# The probe needs only the standard library. The real interpreter, not the venv's link: a
# checkout under /tmp (as in a CI clone) is hidden by the private tmpfs the command runs on.
BASE_PYTHON = os.path.realpath(sys.executable)


def run_probe(
    size: str, marker: str, prefix: list[str] | None = None, python: str = BASE_PYTHON
) -> tuple[subprocess.CompletedProcess[str], dict[str, object]]:
    argv = [*(prefix or []), script("disk-fill"), "--tmpfs", size, "--"]
    done = subprocess.run(
        [*argv, python, "-c", PROBE, marker], capture_output=True, text=True, timeout=60
    )
    report = json.loads(done.stdout) if done.stdout else {}
    return done, report


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A TMPDIR that is not under /tmp, so it needs its own (bind) mount."""
    directory = Path(tempfile.mkdtemp(prefix="dotdbg-test-", dir="/var/tmp"))
    yield directory
    shutil.rmtree(directory)


@pytest.mark.skipif(os.geteuid() != 0, reason="the root way needs root")
def test_the_command_gets_a_small_private_tmp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    done, report = run_probe("16M", "marker-root")
    assert done.returncode == 5, done.stderr
    assert report == {"size": 16 * MiB, "fits": False, "same_fs_as_tmp": True, "uid": 0}
    assert not Path("/tmp/marker-root").exists()  # the host's /tmp never saw it
    assert "private 16.00M tmpfs on /tmp, as root" in done.stderr


def test_tmpdir_elsewhere_shares_the_same_small_tmpfs(
    outside_tmp: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(outside_tmp))
    done, report = run_probe("24M", "marker-tmpdir")
    assert done.returncode == 5, done.stderr
    assert report["size"] == 24 * MiB and report["same_fs_as_tmp"] is True
    assert report["fits"] is True  # 20M fits in 24M
    assert list(outside_tmp.iterdir()) == []


def test_tmpdir_under_tmp_is_created_inside_the_tmpfs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path / "job"))  # tmp_path lives under /tmp
    done, report = run_probe("8M", "marker-inner")
    assert done.returncode == 5, done.stderr
    assert report["size"] == 8 * MiB and report["fits"] is False
    assert not (tmp_path / "job").exists()


# This machine's root-owned pyenv interpreter cannot be run by nobody inside a user namespace.
SYSTEM_PYTHON = shutil.which("python3", path="/usr/bin:/bin")


@pytest.mark.skipif(
    shutil.which("setpriv") is None or SYSTEM_PYTHON is None,
    reason="needs setpriv and a system python3 that nobody may run",
)
def test_an_unprivileged_user_gets_it_through_a_user_namespace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.chdir("/")
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    done, report = run_probe("12M", "marker-nobody", nobody, python=str(SYSTEM_PYTHON))
    if "CLONE_NEWUSER" in done.stderr:
        pytest.skip(f"this kernel refuses unprivileged user namespaces: {done.stderr}")
    assert done.returncode == 5, done.stderr
    assert report == {"size": 12 * MiB, "fits": False, "same_fs_as_tmp": True, "uid": 65534}
    assert "through a user namespace" in done.stderr


@pytest.mark.skipif(
    shutil.which("unshare") is None or shutil.which("setpriv") is None,
    reason="needs util-linux unshare and setpriv",
)
def test_a_kernel_that_refuses_user_namespaces_gets_a_clear_error() -> None:
    """Inside a user namespace whose user.max_user_namespaces is 0, without capabilities."""
    inner = f"{script('disk-fill')} --tmpfs 8M -- true"
    shell = (
        f"echo 0 > /proc/sys/user/max_user_namespaces && exec setpriv --bounding-set=-all {inner}"
    )
    done = subprocess.run(
        ["unshare", "-U", "-r", "sh", "-c", shell], capture_output=True, text=True
    )
    if "unshare failed" in done.stderr:
        pytest.skip(f"cannot make the refusing namespace: {done.stderr.strip()}")
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines[-2] == "disk-fill: error: cannot give true a private /tmp: " + (
        "unshare(CLONE_NEWUSER): No space left on device"
    )
    assert lines[-1].startswith("hint: this kernel does not let unprivileged users")


def test_a_missing_command_is_a_one_line_error() -> None:
    argv = [script("disk-fill"), "--tmpfs", "8M", "--", "no-such-command-xyz"]
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 2
    # refused before the namespace and the tmpfs are made
    assert done.stderr.splitlines() == [
        "disk-fill: error: command 'no-such-command-xyz' not found",
        "hint: check the name, or give its full path after --",
    ]


@pytest.mark.parametrize(
    ("tmpdir", "mount_points", "inner"),
    [
        (None, ("/tmp",), ()),
        ("/tmp", ("/tmp",), ()),
        ("/tmp/job", ("/tmp",), ("/tmp/job",)),
        ("/scratch/me", ("/tmp", "/scratch/me"), ()),
    ],
)
def test_plan_covers_tmp_and_tmpdir(
    tmpdir: str | None, mount_points: tuple[str, ...], inner: tuple[str, ...]
) -> None:
    plan = private_tmp.plan_private_tmp(MiB, tmpdir, privileged=True)
    assert (plan.mount_points, plan.inner_dirs) == (mount_points, inner)


def test_cap_sys_admin_is_read_from_the_effective_set() -> None:
    assert private_tmp.has_cap_sys_admin("CapInh:\t0\nCapEff:\t000001ffffffffff\n")
    assert not private_tmp.has_cap_sys_admin("CapEff:\t0000000000000000\n")
    assert not private_tmp.has_cap_sys_admin("CapEff:\t00000000001fffff\n")  # bits 0-20 only
    mine = private_tmp.has_cap_sys_admin(Path("/proc/self/status").read_text())
    assert mine == (os.geteuid() == 0)


def test_sigterm_reaches_the_command_in_its_namespace(start: type[Running]) -> None:
    filler = start([script("disk-fill"), "--tmpfs", "8M", "--", "sleep", "60"])
    filler.wait_for("running sleep 60")
    sleeper = child_named(filler.process.pid, "sleep")
    filler.process.send_signal(signal.SIGTERM)
    assert filler.finish(timeout=30) == 143
    assert not sleeper.is_running()


def test_a_working_directory_and_a_venv_under_tmp_are_said_to_be_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tmpfs covers /tmp: a checkout or a venv there vanishes for the command (issue 28.1)."""
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / ".venv"))
    argv = [script("disk-fill"), "--tmpfs", "8M", "--", "sh", "-c", "ls -a /tmp; exit 3"]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=60)
    warnings = [line for line in done.stderr.splitlines() if "warning:" in line]
    assert warnings == [
        f"disk-fill: warning: the tmpfs on /tmp hides the working directory, {tmp_path}: the "
        "command finds nothing there (start it from outside /tmp, with its venv outside /tmp)",
        f"disk-fill: warning: the tmpfs on /tmp hides the active virtualenv, {tmp_path}/.venv: "
        "the command finds nothing there (start it from outside /tmp, with its venv outside /tmp)",
    ]
    if done.returncode == 2 and "CLONE_NEWUSER" in done.stderr:
        pytest.skip(f"this kernel refuses user namespaces: {done.stderr}")
    assert done.returncode == 3, done.stderr
    assert done.stdout.split() == [".", ".."]  # what the warning says: /tmp is empty for it


def test_nothing_is_said_when_nothing_is_under_tmp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    done = subprocess.run(
        [script("disk-fill"), "--tmpfs", "8M", "--", "true"],
        cwd="/",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "warning" not in done.stderr


def test_hidden_places_follow_the_plan() -> None:
    plan = private_tmp.plan_private_tmp(MiB, "/scratch/me", privileged=True)
    places = [("a", "/tmp/x"), ("b", "/scratch/me/job"), ("c", "/scratchy"), ("d", "")]
    assert private_tmp.hidden_places(plan, places) == [
        ("a", "/tmp/x", "/tmp"),
        ("b", "/scratch/me/job", "/scratch/me"),
    ]
