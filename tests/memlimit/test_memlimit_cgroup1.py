"""memlimit on the real cgroup v1 memory controller (skipped where there is none writable)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import psutil
import pytest

from tests.infra.imports import imported_by
from tests.infra.tmux import Tmux
from tests.memlimit.memlimit_fakes import (
    MEMLIMIT,
    NOT_IMPORTED_BY_A_LIMITED_RUN,
    own_v1_dir,
    run_cli,
)

M = 2**20
CGROUP1 = ("--backend", "cgroup1")  # where cgroup v2 or systemd work too, auto would pick those
Cgroups = Callable[[], list[str]]
TOUCH_300M = "x = b'x' * (300 << 20)"
INSPECT = """\
import json, os
from dotdbg.memlimit.cgroupfs import CgroupFS, under_mount
fs = CgroupFS()
mount = next(m for m in fs.mounts() if m.fstype == "cgroup" and "memory" in m.options)
here = under_mount(mount, fs.memberships()["memory"])
def control(name):
    with open(os.path.join(fs.at(here), name)) as control:
        return int(control.read())
held = b"x" * (30 << 20)  # well under the limit
print(json.dumps({
    "MEMLIMIT": os.environ.get("MEMLIMIT"), "cgroup": os.path.basename(here),
    "limit": control("memory.limit_in_bytes"), "memsw": control("memory.memsw.limit_in_bytes"),
    "soft": control("memory.soft_limit_in_bytes"),
}))
"""
# Lists who sent each SIGINT as (si_code, si_pid): 128 (SI_KERNEL) is the terminal's ^C,
# 0 (SI_USER) a kill(2), here memlimit relaying one.
LIST_SIGINTS = """\
import signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
print("ready", flush=True)
infos = [signal.sigwaitinfo({signal.SIGINT})]
while (info := signal.sigtimedwait({signal.SIGINT}, 1.0)) is not None:
    infos.append(info)
print("sigints", [(info.si_code, info.si_pid) for info in infos], flush=True)
sys.exit(len(infos))
"""
SLEEP = "import time; print('ready', flush=True); time.sleep(60)"
IGNORE_TERM = (
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    "print('ready', flush=True); time.sleep(60)"
)


def test_a_child_past_the_limit_is_oom_killed_reported_and_137(cgroup_v1: Cgroups) -> None:
    done = run_cli(*CGROUP1, "100M", "--", sys.executable, "-c", TOUCH_300M)
    assert done.returncode == 137
    lines = [line for line in done.stderr.splitlines() if not line.startswith("memlimit: note:")]
    assert len(lines) == 3, done.stderr
    assert re.fullmatch(
        r"memlimit: 100M RAM, no swap, backend cgroup-v1 \(/sys/fs/cgroup/memory/.*"
        r"/dotdbg-memlimit-\d+\)",
        lines[0],
    )
    assert re.fullmatch(
        r"memlimit: a process was OOM-killed at the 100M limit \(cgroup-v1, peak \d+\.\d\dM\)",
        lines[1],
    )
    assert lines[2] == "memlimit: the command itself was killed; exit code 137"


def test_the_child_sees_memlimit_and_its_own_limited_cgroup(cgroup_v1: Cgroups) -> None:
    done = run_cli(*CGROUP1, "100M", "--", sys.executable, "-c", INSPECT)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["MEMLIMIT"] == "100M"
    assert seen["cgroup"].startswith("dotdbg-memlimit-")
    assert (seen["limit"], seen["memsw"]) == (100 * M, 100 * M)  # --swap 0: a pure RAM ceiling
    assert "OOM" not in done.stderr


def test_the_command_is_in_the_cgroup_from_its_first_instruction(cgroup_v1: Cgroups) -> None:
    # cat reads its cgroup at once; a pid moved in after exec would show the parent's here.
    done = run_cli(*CGROUP1, "100M", "--", "cat", "/proc/self/cgroup")
    memory = next(line for line in done.stdout.splitlines() if ":memory:" in line)
    assert re.search(r"/dotdbg-memlimit-\d+$", memory), done.stdout


def test_swap_and_high_become_memsw_and_the_soft_limit(cgroup_v1: Cgroups) -> None:
    done = run_cli(
        *CGROUP1, "100M", "--swap", "50M", "--high", "80M", "--", sys.executable, "-c", INSPECT
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert (seen["limit"], seen["memsw"], seen["soft"]) == (100 * M, 150 * M, 80 * M)
    assert "memlimit: 100M RAM, 50M swap, soft limit 80M, backend cgroup-v1" in done.stderr
    assert "cgroup v1 has no memory.high" in done.stderr


def test_the_command_exit_code_passes_through(cgroup_v1: Cgroups) -> None:
    done = run_cli(*CGROUP1, "100M", "--", "sh", "-c", "exit 3")
    assert done.returncode == 3
    assert "OOM" not in done.stderr


def test_inside_a_smaller_limit_the_kill_names_that_limit(cgroup_v1: Cgroups) -> None:
    inner = [str(MEMLIMIT), *CGROUP1, "200M", "--", sys.executable, "-c", TOUCH_300M]
    done = run_cli(*CGROUP1, "100M", "--", *inner)
    assert done.returncode == 137
    note = re.search(r"note: (\S+) is limited to 100M, below the 200M asked", done.stderr)
    assert note and re.search(r"/dotdbg-memlimit-\d+$", note[1]), done.stderr  # the outer one
    oom = r"a process was OOM-killed at the 100M limit of an enclosing cgroup \(cgroup-v1, peak"
    assert len(re.findall(oom, done.stderr)) == 1, done.stderr


def test_processes_left_behind_are_killed_so_the_cgroup_can_go(cgroup_v1: Cgroups) -> None:
    done = run_cli(*CGROUP1, "100M", "--", "sh", "-c", "sleep 300 & echo $!")
    assert done.returncode == 0
    assert "killed 1 process(es) left in the cgroup after the command" in done.stderr
    straggler = int(done.stdout)
    gone = not psutil.pid_exists(straggler)
    assert gone or psutil.Process(straggler).status() == psutil.STATUS_ZOMBIE


def start(*args: str) -> subprocess.Popen[str]:
    """memlimit with a child that prints ``ready`` once it runs under the limit."""
    proc = subprocess.Popen(
        [str(MEMLIMIT), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "ready\n"
    return proc


def ended(proc: subprocess.Popen[str], timeout: float) -> int:
    """memlimit's exit code; past ``timeout`` a failure that shows, for memlimit and each
    process below it, its state and its signal masks (a signal lost or ignored on the way
    shows there), then what memlimit printed."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        tree = [proc.pid, *(child.pid for child in psutil.Process(proc.pid).children(True))]
        states = [_signal_state(pid) for pid in tree]
        proc.kill()
        _, stderr = proc.communicate()
        pytest.fail(f"memlimit did not end in {timeout} s:\n" + "\n".join([*states, stderr]))


def _signal_state(pid: int) -> str:
    wanted = ("Name", "State", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
    try:
        status = Path(f"/proc/{pid}/status").read_text().splitlines()
        waits_in = Path(f"/proc/{pid}/wchan").read_text()
    except OSError as error:
        return f"{pid}: {error}"
    shown = [line.replace("\t", " ") for line in status if line.split(":")[0] in wanted]
    return f"{pid}: {'; '.join(shown)}; waits in {waits_in}"


def test_sigterm_is_relayed_then_the_cgroup_is_removed(cgroup_v1: Cgroups) -> None:
    before = cgroup_v1()
    proc = start(*CGROUP1, "100M", "--", sys.executable, "-c", SLEEP)
    assert len(cgroup_v1()) == len(before) + 1
    proc.send_signal(signal.SIGTERM)
    assert ended(proc, 10) == 128 + signal.SIGTERM
    assert cgroup_v1() == before


def test_a_cgroup_left_by_a_memlimit_killed_9_goes_at_the_next_run(cgroup_v1: Cgroups) -> None:
    before = cgroup_v1()
    proc = start(*CGROUP1, "100M", "--", sys.executable, "-c", SLEEP)
    command = psutil.Process(proc.pid).children()[0]
    proc.kill()  # memlimit cannot clean up after this
    proc.wait()
    command.kill()
    left = [name for name in cgroup_v1() if name not in before]
    assert left == [f"dotdbg-memlimit-{proc.pid}"]
    deadline = time.monotonic() + 10
    while (Path(own_v1_dir()) / left[0] / "cgroup.procs").read_text().strip():
        assert time.monotonic() < deadline, "the killed command stayed in its cgroup"
        time.sleep(0.05)
    done = run_cli(*CGROUP1, "100M", "--", "true")
    assert done.returncode == 0
    assert "removed 1 empty cgroup(s) left by memlimit runs killed -9" in done.stderr
    assert cgroup_v1() == before


def test_a_command_left_running_by_a_memlimit_killed_9_is_reported(
    cgroup_v1: Cgroups, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 16.11: the next run and `dotdbg doctor` name the cgroup, the command, and how to
    end it; once it is ended, the next run removes the cgroup."""
    before = cgroup_v1()
    proc = start(*CGROUP1, "100M", "--", sys.executable, "-c", SLEEP)
    command = psutil.Process(proc.pid).children()[0]
    proc.kill()
    proc.wait()
    left = f"{own_v1_dir()}/dotdbg-memlimit-{proc.pid}"
    said = f"a memlimit run killed -9 left 1 process(es) running under its limit in {left}: "
    try:
        done = run_cli(*CGROUP1, "100M", "--", "true")
        assert done.returncode == 0
        note = next(line for line in done.stderr.splitlines() if "killed -9 left" in line)
        assert note.startswith(f"memlimit: note: {said}{command.pid} ({sys.executable} -c ")
        assert note.endswith(
            f"end them with `kill {command.pid}` (the next memlimit run then removes the cgroup)"
        )
        from dotdbg.cli.entry import main

        assert main(["doctor"]) == 1
        doctor = capsys.readouterr().out
        assert f"!!  memlimit leftovers: {said}{command.pid} (" in doctor
        assert f"     fix: kill {command.pid}" in doctor
    finally:
        command.kill()
        command.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (Path(left) / "cgroup.procs").read_text().strip():
        assert time.monotonic() < deadline, "the killed command stayed in its cgroup"
        time.sleep(0.05)
    assert "removed 1 empty cgroup(s)" in run_cli(*CGROUP1, "100M", "--", "true").stderr
    assert cgroup_v1() == before


def test_sigint_from_kill_is_relayed_once(cgroup_v1: Cgroups) -> None:
    proc = start(*CGROUP1, "100M", "--", sys.executable, "-c", LIST_SIGINTS)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=10)
    assert out == f"sigints [(0, {proc.pid})]\n"
    assert proc.returncode == 1


def test_sigint_ends_a_sleeping_python_with_130(cgroup_v1: Cgroups) -> None:
    proc = start(*CGROUP1, "100M", "--", sys.executable, "-c", SLEEP)
    proc.send_signal(signal.SIGINT)
    assert ended(proc, 10) == 130


@pytest.mark.slow
def test_a_command_ignoring_sigterm_is_killed_after_the_grace(cgroup_v1: Cgroups) -> None:
    proc = start(*CGROUP1, "100M", "--", sys.executable, "-c", IGNORE_TERM)
    proc.send_signal(signal.SIGTERM)
    assert ended(proc, 20) == 137
    assert proc.stderr is not None
    assert "the command ignored the signal for 5s; killing it" in proc.stderr.read()


@pytest.mark.e2e
def test_ctrl_c_in_the_terminal_reaches_the_command_once(cgroup_v1: Cgroups) -> None:
    term = pexpect.spawn(
        str(MEMLIMIT),
        [*CGROUP1, "100M", "--", sys.executable, "-c", LIST_SIGINTS],
        encoding="utf-8",
    )
    term.expect("ready", timeout=10)
    term.sendcontrol("c")
    term.expect_exact("sigints [(128, 0)]", timeout=10)
    term.expect(pexpect.EOF, timeout=10)
    term.close()
    assert term.exitstatus == 1


@pytest.mark.e2e
def test_default_command_is_the_users_shell_with_live_oom_reports(
    cgroup_v1: Cgroups, tmp_path: Path
) -> None:
    env = {**os.environ, "SHELL": "/bin/bash", "TERM": "dumb"}
    term = pexpect.spawn(str(MEMLIMIT), [*CGROUP1, "100M"], env=env, encoding="utf-8", cwd=tmp_path)
    term.logfile_read = seen = io.StringIO()
    try:
        term.expect("backend cgroup-v1", timeout=10)
        term.sendline("echo MEM=$MEMLIMIT")
        term.expect_exact("MEM=100M", timeout=10)
        term.sendline(f'{sys.executable} -c "{TOUCH_300M}"; echo status=$?')
        term.expect_exact("status=137", timeout=20)  # the shell survived its child's OOM kill
        # the report comes before the prompt (test_..._reported_before_the_prompt checks where)
        term.sendline("sleep 1; echo waited-$((1+1))")
        term.expect_exact("waited-2", timeout=10)
        term.sendline("exit 7")
        term.expect(pexpect.EOF, timeout=10)
    finally:
        term.close(force=True)
    assert term.exitstatus == 7
    oom = "memlimit: a process was OOM-killed at the 100M limit (cgroup-v1, peak"
    assert seen.getvalue().count(oom) == 1
    assert "the command itself was killed" not in seen.getvalue()


@pytest.mark.e2e
def test_an_oom_kill_in_the_memlimit_shell_is_reported_before_the_prompt(
    cgroup_v1: Cgroups, tmp_path: Path
) -> None:
    (tmp_path / ".bashrc").write_text("FROM_BASHRC=yes\nPROMPT_COMMAND='history -a'\n")
    scratch = tmp_path / "tmp"  # where memlimit keeps the shell's rcfile and FIFO
    scratch.mkdir()
    shell = Tmux.bash(tmp_path, ["env", f"TMPDIR={scratch}", str(MEMLIMIT), *CGROUP1, "100M"])
    try:
        assert shell.run("echo $FROM_BASHRC") == "yes"  # ~/.bashrc is read as without memlimit
        shell.type(f'{sys.executable} -c "{TOUCH_300M}"')
        shell.keys("Enter")
        screen = shell.wait_for(
            lambda s: "OOM-killed" in s and s.rstrip().endswith("$"), "the report", wrapped=True
        )
        lines = screen.rstrip().splitlines()
        assert lines[-3] == "Killed"  # bash's word, then memlimit's, then the prompt
        oom = r"memlimit: a process was OOM-killed at the 100M limit \(cgroup-v1, peak .*\)"
        assert re.fullmatch(oom, lines[-2])
        assert lines[-1] == "$ " or lines[-1] == "$"
        assert shell.cursor() == (2, len(lines) - 1)  # on the prompt line, after "$ "
        assert len(list(scratch.iterdir())) == 1
    finally:
        shell.type("exit")
        shell.keys("Enter")
        shell.close()  # and the terminal goes, while memlimit cleans up: SIGHUP then
    deadline = time.monotonic() + 10
    while list(scratch.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert list(scratch.iterdir()) == []  # memlimit finished its clean-up all the same


@pytest.mark.usefixtures("cgroup_v1")
def test_a_limited_run_imports_only_what_it_uses() -> None:
    found = imported_by("memlimit", "100M", "--", "true")
    assert {"dotdbg.memlimit.run", "dotdbg.memlimit.backends.cgroup1"} <= found
    assert found & NOT_IMPORTED_BY_A_LIMITED_RUN == set()
