"""Which faults the sweep tries at each traced call (on a written trace), and that the sweep's
own interpreter changes none of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.shells.bashcheck import shellcheck_program
from tests.faults.faultrun import STRACE, points_of
from tests.faults.sweep import ROOT, sweep_python

HOME = Path("/h")
TRACE = """\
100 openat(AT_FDCWD</w>, "/h/.bashrc", O_RDONLY|O_CLOEXEC) = 3</h/.bashrc>
100 read(3</h/.bashrc>, "x", 4096) = 1
100 close(3</h/.bashrc>) = 0
100 newfstatat(AT_FDCWD</w>, "/h/.config", {st_mode=S_IFDIR|0755}, 0) = 0
100 openat(AT_FDCWD</w>, "/h/.b-tmp", O_WRONLY|O_CREAT|O_EXCL, 0600) = 3</h/.b-tmp>
100 write(3</h/.b-tmp>, "y", 1) = 1
100 write(2<pipe:[7]>, "note", 4) = 4
100 newfstatat(AT_FDCWD</w>, "/h/.bashrc", {st_mode=S_IFREG|0644}, 0) = 0
100 read(4</usr/lib/x.py>, "z", 4096) = 1
100 close(3</h/.b-tmp>) = 0
100 rename("/h/.b-tmp", "/h/.bashrc") = 0
100 lseek(5</h/.local/state/dotdbg/journal>, 0, SEEK_SET) = 0
101 read(0<pipe:[9]>, "", 1) = 0
"""


def test_errors_where_a_call_can_return_them_and_one_kill_per_disk_state() -> None:
    points = {f"{p.syscall}#{p.nth}": p.faults for p in points_of(TRACE.splitlines(), HOME)}
    assert points == {
        # (a read-only open is no point) before the first change of the disk: only the last
        # point is killed
        "read#1": ("EIO",),
        "close#1": ("EIO",),  # a file opened read-only: no write-back to fail
        "newfstatat#1": ("EIO", "SIGKILL"),
        # the open that creates changes the disk: killed, and it can take space
        "openat#2": ("EIO", "ENOSPC", "EDQUOT", "SIGKILL"),
        "write#1": ("EIO", "ENOSPC", "EDQUOT", "SIGKILL"),
        # the write to a pipe changes no disk: newfstatat#2 and close#2 share one disk state
        "newfstatat#2": ("EIO",),
        "close#2": ("EIO", "ENOSPC", "EDQUOT", "SIGKILL"),
        "rename#1": ("EIO", "ENOSPC", "EDQUOT", "SIGKILL"),
        "lseek#1": ("EIO", "SIGKILL"),  # the last point: killed
    }
    alone = {p.syscall for p in points_of(TRACE.splitlines(), HOME) if p.alone}
    assert alone == {"rename"}  # a call no child makes; the others come too early


def test_every_point_is_killed_when_another_process_writes_in_the_home() -> None:
    other = TRACE + '102 write(6</h/.cache/x>, "w", 1) = 1\n'
    assert all("SIGKILL" in p.faults for p in points_of(other.splitlines(), HOME))


def test_a_call_past_what_any_child_makes_runs_with_children_traced() -> None:
    reads = "".join('100 read(3</h/f>, "x", 1) = 1\n' for _ in range(40))
    child = "".join('101 read(0<pipe:[9]>, "x", 1) = 1\n' for _ in range(4))
    points = points_of((child + reads).splitlines(), HOME)
    # strace counts when=N per process: a child making its 40th read would take the fault
    assert [p.nth for p in points if p.alone] == [n for n in range(1, 41) if n > 2 * 4 + 32]


@pytest.mark.skipif(STRACE is None, reason="strace is not installed")
@pytest.mark.skipif(shellcheck_program() is None, reason="no shellcheck: nothing to leave out")
@pytest.mark.parametrize("operation", ["install", "fn rm"])
def test_the_sweeps_interpreter_makes_the_same_calls_in_the_home(
    tmp_path: Path, operation: str
) -> None:
    """The sweep leaves shellcheck out for speed (tests/faults/sweep.py): that must change none
    of its cases, in a render of every shell and in an edit that checks a function again."""
    lean = sweep_python(tmp_path / "venv")

    def points(python: Path | str) -> list[str]:
        argv = [str(python), "-m", "tests.faults.sweep", "--points", operation, "zsh-fish"]
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.splitlines()

    assert len(points(sys.executable)) > 300
    assert points(lean) == points(sys.executable)
