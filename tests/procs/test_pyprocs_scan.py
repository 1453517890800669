"""Detection and the two-phase scan against real processes the tests start."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.procs import procfs, pyprocs
from dotdbg.procs.pyprocs import PyProcess, ScanFilter, Scanner
from dotdbg.procs.ranks import Ranks
from tests.infra.spawner import AS_NOBODY, IDLE, IS_ROOT, RENAMED, Spawner, wait_until

REPO = Path(__file__).resolve().parents[2]


def scanner_for(token: str, all_users: bool = False) -> Scanner:
    return Scanner(pyprocs.own_filter(re.compile(re.escape(token)), all_users))


def by_pid(processes: list[PyProcess]) -> dict[int, PyProcess]:
    return {process.pid: process for process in processes}


def test_finds_a_plain_python_child_with_its_numbers(spawn: Spawner) -> None:
    proc = spawn.python(IDLE, env={**os.environ, "RANK": "4", "LOCAL_RANK": "0"})
    found = by_pid(scanner_for(spawn.token).scan())
    assert list(found) == [proc.pid]
    process = found[proc.pid]
    assert process.stat.ppid == os.getpid()
    assert process.stat.threads == 1
    assert process.argv == (sys.executable, "-c", IDLE, spawn.token)
    assert process.environ is not None
    assert process.environ.ranks == Ranks(4, 0, None)
    assert process.environ.env is not None  # the venv these tests run in


def test_shebang_script_is_found_though_its_kernel_name_is_not_python(spawn: Spawner) -> None:
    script = spawn.script("launch_job", IDLE)
    proc = spawn.start([str(script), spawn.token])
    assert procfs.read_stat(proc.pid).name == "launch_job"
    ps_grep = subprocess.run(["pgrep", "-f", "-x", "python.*" + spawn.token], capture_output=True)
    assert ps_grep.stdout == b""  # what a name-based grep sees: nothing
    found = by_pid(scanner_for(spawn.token).scan())
    assert proc.pid in found
    assert found[proc.pid].argv[1] == str(script)


def test_process_renamed_with_prctl_is_found(spawn: Spawner) -> None:
    proc = spawn.python(RENAMED)
    assert procfs.read_stat(proc.pid).name == "pt_data_worker"
    found = by_pid(scanner_for(spawn.token).scan())
    assert found[proc.pid].stat.name == "pt_data_worker"


def test_non_python_processes_and_this_process_are_left_out(spawn: Spawner) -> None:
    sleeper = spawn.start(["sh", "-c", "echo ready; exec sleep 600", spawn.token])
    found = Scanner(pyprocs.own_filter(None, all_users=False)).scan()
    pids = {process.pid for process in found}
    assert sleeper.pid not in pids
    assert os.getpid() not in pids


def test_pattern_filters_on_the_whole_command_line(spawn: Spawner) -> None:
    first = spawn.python(IDLE)
    second = spawn.start([sys.executable, "-c", IDLE, spawn.token + "-second"])
    only_second = scanner_for(spawn.token + "-second").scan()
    assert [process.pid for process in only_second] == [second.pid]
    both = {process.pid for process in scanner_for(spawn.token).scan()}
    assert both == {first.pid, second.pid}


def test_process_that_exits_between_the_phases_is_dropped(spawn: Spawner) -> None:
    proc = spawn.python(IDLE)
    scanner = scanner_for(spawn.token)
    [candidate] = [c for c in scanner.candidates() if c.pid == proc.pid]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()  # reaped: /proc/PID is gone
    assert not Path(f"/proc/{proc.pid}").exists()
    assert scanner.details(candidate) is None


def test_vanished_pids_in_phase_one_are_skipped(spawn: Spawner) -> None:
    proc = spawn.python(IDLE)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    scanner = scanner_for(spawn.token)
    assert scanner.candidates(pids=[proc.pid, 999_999_999]) == []


def test_zombie_is_shown_without_crashing(spawn: Spawner) -> None:
    proc = spawn.python(IDLE)
    os.kill(proc.pid, signal.SIGKILL)  # not reaped: a zombie until cleanup waits for it
    wait_until(lambda: procfs.read_stat(proc.pid).state == "Z")
    [zombie] = [p for p in Scanner(pyprocs.own_filter(None, False)).scan() if p.pid == proc.pid]
    assert zombie.argv == ()
    assert zombie.environ is None
    assert zombie.stat.rss_bytes == 0


def test_exec_into_another_program_is_noticed_by_a_long_lived_scanner(spawn: Spawner) -> None:
    code = (
        "import os, sys; print('ready', flush=True); sys.stdin.readline(); "
        "os.execvp('sleep', ['sleep', '600', sys.argv[1]])"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, spawn.token],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    spawn.started.append(proc)
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    scanner = scanner_for(spawn.token)
    assert [p.pid for p in scanner.scan()] == [proc.pid]
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
    wait_until(lambda: procfs.read_stat(proc.pid).name == "sleep")
    assert scanner.scan() == []


def test_an_environment_read_before_exec_published_it_is_read_again(spawn: Spawner) -> None:
    """The environment read empty (exec half done) is not remembered for the process's life."""
    half = spawn.half_execed("env", env={**os.environ, "RANK": "5"})
    scanner = scanner_for(spawn.token)
    [early] = scanner.scan()
    assert early.environ is not None and early.environ.ranks.rank is None
    half.step()
    [later] = scanner.scan()
    assert later.pid == half.pid
    assert later.environ is not None and later.environ.ranks.rank == 5


def test_a_command_line_not_published_yet_is_not_shown(spawn: Spawner) -> None:
    half = spawn.half_execed("arg")
    scanner = Scanner(pyprocs.own_filter(None, all_users=False))
    assert half.pid not in {process.pid for process in scanner.scan()}
    half.step()
    assert half.pid in {process.pid for process in scanner.scan()}


@pytest.mark.skipif(not IS_ROOT, reason="needs root to scan as another user")
def test_another_users_process_caught_mid_exec_is_found_once_exec_is_done(
    spawn: Spawner,
) -> None:
    """As another user, only argv tells a renamed Python process; while exec has not published
    it, the scanner must not decide "not Python" for good."""
    half = spawn.half_execed("arg")
    code = (
        "import re, sys\n"
        "from dotdbg.procs.pyprocs import Scanner, own_filter\n"
        "scanner = Scanner(own_filter(re.compile(sys.argv[1]), all_users=True))\n"
        "for _ in range(2):\n"
        "    print(*(p.pid for p in scanner.candidates()), flush=True)\n"
        "    sys.stdin.readline()\n"
    )
    scan = subprocess.Popen(
        [*AS_NOBODY, "/usr/bin/python3", "-c", code, spawn.token],
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert scan.stdin is not None and scan.stdout is not None
    try:
        assert str(half.pid) not in scan.stdout.readline().split()
        half.step()
        scan.stdin.write("\n")
        scan.stdin.flush()
        assert str(half.pid) in scan.stdout.readline().split()
    finally:
        scan.kill()
        scan.wait()


@pytest.mark.skipif(not IS_ROOT, reason="needs root to start a process as another user")
def test_other_users_processes_need_all_users(spawn: Spawner) -> None:
    proc = spawn.start([*AS_NOBODY, "/usr/bin/python3", "-c", IDLE, spawn.token])
    assert [p.pid for p in scanner_for(spawn.token).scan()] == []
    [other] = scanner_for(spawn.token, all_users=True).scan()
    assert other.pid == proc.pid
    assert other.uid == 65534


@pytest.mark.skipif(not IS_ROOT, reason="needs root to run a scan as another user")
def test_scan_by_an_unprivileged_user_shows_na_for_what_it_cannot_read(spawn: Spawner) -> None:
    """Run as nobody, the scan sees root's Python process but not its environment or exe."""
    proc = spawn.python(IDLE, env={**os.environ, "RANK": "2"})
    code = (
        "import re, sys\n"
        "from dotdbg.procs.pyprocs import Scanner, own_filter\n"
        "[p] = Scanner(own_filter(re.compile(sys.argv[1]), all_users=True)).scan()\n"
        "print(p.pid, p.environ, p.exe, p.uid)\n"
    )
    result = subprocess.run(
        [*AS_NOBODY, "/usr/bin/python3", "-c", code, spawn.token],
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == [str(proc.pid), "None", "None", "0"]


def test_a_second_scan_does_not_examine_kernel_threads_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A kernel thread has no executable and no command line, as a process mid-exec has not,
    yet the scanner's verdict on it holds."""
    kernel_threads = {key for key, is_kernel in visible().items() if is_kernel}
    if not kernel_threads:
        pytest.skip("no kernel thread is visible here (a PID namespace of its own)")
    scanner = Scanner(pyprocs.own_filter(None, all_users=True))
    scanner.scan()
    examined: list[tuple[int, int, str]] = []
    real = pyprocs.classify

    def spy(pid: int, stat: procfs.Stat, wanted: ScanFilter) -> tuple[pyprocs.Verdict, bool]:
        examined.append((pid, stat.start_ticks, stat.name))
        return real(pid, stat, wanted)

    monkeypatch.setattr(pyprocs, "classify", spy)
    scanner.scan()
    # a kernel worker that renamed itself (kworker/0:1-events) counts as another
    assert not kernel_threads & set(examined)


def visible() -> dict[tuple[int, int, str], bool]:
    """Every process's (pid, start time, name), and whether it is a kernel thread."""
    found = {}
    for pid in procfs.all_pids():
        try:
            stat = procfs.read_stat(pid)
        except OSError:
            continue
        found[(pid, stat.start_ticks, stat.name)] = stat.kernel_thread
    return found


def test_scan_filter_uid() -> None:
    wanted = ScanFilter(uid=os.getuid(), pattern=None, exclude=frozenset())
    assert wanted.wants_argv(("anything",))
    assert not ScanFilter(None, re.compile("x+y"), frozenset()).wants_argv(("x", "y"))
