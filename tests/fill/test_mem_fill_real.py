"""mem-fill for real: RSS measured from outside with psutil, signals, and the OOM killer's choice
inside a real 300 MiB cgroup v1 memory cgroup."""

from __future__ import annotations

import mmap
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from dotdbg.common.child import CHILD_GRACE_SECONDS
from dotdbg.fill import mem as mem_fill
from tests.fill.fill_support import Running, child_named, script

MiB = 2**20
ALLOCATE_FOREVER = (
    "import sys\nblocks = []\nwhile True:\n"
    "    blocks.append(b'\\x01' * (8 << 20))\n"
    "    print(len(blocks) * 8, 'MiB', file=sys.stderr, flush=True)\n"
)


def _rss_while_holding(start: type[Running], size: str) -> int:
    filler = start([script("mem-fill"), size, "--step", "50M"])
    filler.wait_for("holding")
    return int(psutil.Process(filler.process.pid).memory_info().rss)


def test_rss_grows_by_the_asked_size_seen_from_outside(start: type[Running]) -> None:
    baseline = _rss_while_holding(start, "4K")  # one page: the interpreter's own RSS
    filled = _rss_while_holding(start, "200M")
    growth = filled - baseline
    print(f"mem-fill 200M: RSS grew by {growth} bytes ({growth / MiB:.2f} MiB)")
    assert abs(growth - 200 * MiB) <= 2 * MiB  # the two interpreters differ by a few pages


def test_progress_lines_show_each_step_and_the_rate(start: type[Running]) -> None:
    filler = start([script("mem-fill"), "120M", "--step", "40M", "--hold", "0"])
    assert filler.finish() == 0
    steps = [line for line in filler.lines if "committed" in line]
    assert [line.split(" of ")[0].split()[-1] for line in steps] == ["40.00M", "80.00M", "120.00M"]
    assert all("RSS +40.00M this step" in line and "/s)" in line for line in steps)
    assert filler.lines[-1] == "mem-fill: released 120.00M"


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stop_signal_releases_and_exits(
    start: type[Running], signum: signal.Signals, code: int
) -> None:
    filler = start([script("mem-fill"), "64M", "--step", "32M"])
    filler.wait_for("holding 64.00M")
    filler.process.send_signal(signum)
    assert filler.finish(timeout=20) == code
    assert filler.lines[-1] == "mem-fill: released 64.00M"


@pytest.mark.parametrize("method", ["populate-write", "map-populate", "touch"])
def test_every_commit_method_makes_pages_resident(method: str) -> None:
    process = psutil.Process()
    filler = mem_fill.MemoryFiller(incompressible=False, method=method)
    before = process.memory_info().rss
    step = filler.commit(48 * MiB)
    assert process.memory_info().rss - before >= 47 * MiB
    assert step.resident_growth >= 47 * MiB
    filler.release()
    assert process.memory_info().rss - before < 4 * MiB


def test_random_contents_are_resident_too() -> None:
    filler = mem_fill.MemoryFiller(incompressible=True)
    step = filler.commit(16 * MiB)
    assert filler.method == "random-write"
    assert step.resident_growth >= 15 * MiB
    assert filler.blocks[0][:4096] != filler.blocks[0][4096:8192]
    filler.release()


def test_a_lazy_mapping_would_not_have_passed() -> None:
    """The control for the tests above: an untouched mapping adds (almost) nothing to RSS."""
    before = mem_fill.resident_bytes()
    lazy = mmap.mmap(-1, 48 * MiB, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    assert mem_fill.resident_bytes() - before < MiB
    lazy.close()


def test_the_command_gets_oom_score_adj_and_its_exit_code_passes_through() -> None:
    shell = "cat /proc/self/oom_score_adj; exit 7"
    done = subprocess.run(
        [script("mem-fill"), "8M", "--", "sh", "-c", shell], capture_output=True, text=True
    )
    assert done.returncode == 7
    assert done.stdout == "1000\n"
    assert "sh exited with 7" in done.stderr


def test_too_much_is_refused_in_one_line() -> None:
    done = subprocess.run([script("mem-fill"), "100T"], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("mem-fill: error: 100.00T is more than the ")
    assert "Traceback" not in done.stderr


def _in_cgroup(group: Path, argv: list[str]) -> list[str]:
    return ["sh", "-c", f'echo $$ > {group}/cgroup.procs && exec "$@"', "sh", *argv]


def _oom_kills(group: Path) -> int:
    for line in (group / "memory.oom_control").read_text().splitlines():
        if line.startswith("oom_kill "):
            return int(line.split()[1])
    raise AssertionError("memory.oom_control has no oom_kill counter")


def test_the_budget_counts_the_cgroup_limit(memory_cgroup: Path) -> None:
    argv = _in_cgroup(memory_cgroup, [script("mem-fill"), "200M"])
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 2
    assert "cgroup" in done.stderr and "--force" in done.stderr


@pytest.mark.slow
def test_the_command_not_the_filler_is_the_oom_victim(
    memory_cgroup: Path, start: type[Running]
) -> None:
    victim = [sys.executable, "-c", ALLOCATE_FOREVER]
    filler = start(
        _in_cgroup(memory_cgroup, [script("mem-fill"), "200M", "--force", "--", *victim])
    )
    assert filler.finish(timeout=90) == 137
    assert "was killed by SIGKILL" in filler.output
    assert filler.lines[-1] == "mem-fill: released 200.00M"
    assert _oom_kills(memory_cgroup) == 1


@pytest.mark.slow
def test_without_the_raised_score_the_bigger_filler_would_die(
    memory_cgroup: Path, start: type[Running]
) -> None:
    """The control: the same run with oom_score_adj 0; the OOM killer takes the bigger filler."""
    victim = [sys.executable, "-c", ALLOCATE_FOREVER]
    argv = [script("mem-fill"), "200M", "--force", "--oom-score-adj", "0", "--", *victim]
    filler = start(_in_cgroup(memory_cgroup, argv))
    assert filler.finish(timeout=90) == -signal.SIGKILL
    assert "released" not in filler.output


def test_sigterm_in_the_middle_of_filling_releases_what_was_committed(
    start: type[Running],
) -> None:
    filler = start([script("mem-fill"), "4G", "--step", "32M"])
    filler.wait_for(r"32\.00M of 4\.00G committed")
    filler.process.send_signal(signal.SIGTERM)
    assert filler.finish(timeout=30) == 143
    assert filler.lines[-1].startswith("mem-fill: released ")
    assert not any("4.00G of 4.00G" in line for line in filler.lines)


def test_sigterm_reaches_the_command_too(start: type[Running]) -> None:
    filler = start([script("mem-fill"), "8M", "--", "sleep", "60"])
    filler.wait_for("while running sleep 60")
    sleeper = child_named(filler.process.pid, "sleep")
    filler.process.send_signal(signal.SIGTERM)
    assert filler.finish(timeout=30) == 143
    assert not sleeper.is_running()
    assert filler.lines[-1] == "mem-fill: released 8.00M"


@pytest.mark.slow
def test_a_command_that_ignores_sigterm_is_killed_after_the_grace_period(
    start: type[Running],
) -> None:
    stubborn = ["sh", "-c", "trap '' TERM; exec sleep 60"]
    filler = start([script("mem-fill"), "8M", "--", *stubborn])
    filler.wait_for("while running")
    sleeper = child_named(filler.process.pid, "sleep")  # the trap is set by then
    started = time.monotonic()
    filler.process.send_signal(signal.SIGTERM)
    assert filler.finish(timeout=30) == 143
    assert CHILD_GRACE_SECONDS <= time.monotonic() - started < 20
    assert not sleeper.is_running()


def test_sigterm_right_as_the_command_starts_leaves_no_orphan(start: type[Running]) -> None:
    """The signal lands between fork and wait as often as the timing allows; none may escape."""
    marker = ["sleep", "61.37"]
    for _ in range(5):
        filler = start([script("mem-fill"), "4M", "--", *marker])
        filler.wait_for("while running")
        filler.process.send_signal(signal.SIGTERM)
        assert filler.finish(timeout=30) == 143
    orphans = [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == marker]
    assert orphans == []


def test_random_contents_can_be_forced_and_are_still_counted(start: type[Running]) -> None:
    filler = start([script("mem-fill"), "48M", "--step", "16M", "--random"])
    filler.wait_for(r"committing 48\.00M .*\(random-write\)")
    filler.wait_for("holding 48.00M")
    assert psutil.Process(filler.process.pid).memory_info().rss >= 48 * MiB
    filler.process.send_signal(signal.SIGINT)
    assert filler.finish() == 130
