from __future__ import annotations

import os
import subprocess
import sys

import pytest

from dotdbg.procs import procfs, pycmdline
from dotdbg.procs.ranks import Ranks


def test_parse_stat_with_spaces_and_parens_in_the_name() -> None:
    fields = ["S", "41", *["0"] * 9, "250", "150", *["0"] * 4, "7", "0", "12345", "0", "100"]
    raw = b"42 (a (b) c) " + " ".join(fields).encode() + b" 0 0\n"
    stat = procfs.parse_stat(raw)
    assert stat.name == "a (b) c"
    assert (stat.state, stat.ppid, stat.threads, stat.start_ticks) == ("S", 41, 7, 12345)
    assert stat.cpu_seconds == 400 / procfs.CLOCK_TICKS
    assert stat.rss_bytes == 100 * procfs.PAGE_SIZE
    assert not stat.kernel_thread
    fields[6] = str(0x00200000 | 0x40)  # PF_KTHREAD among other flags
    assert procfs.parse_stat(b"2 (kthreadd) " + " ".join(fields).encode()).kernel_thread


def test_kernel_threads_are_told_apart() -> None:
    assert not procfs.read_stat(os.getpid()).kernel_thread
    try:
        kthreadd = procfs.read_stat(2)
    except FileNotFoundError:
        pytest.skip("no kernel thread is visible here (a PID namespace of its own)")
    assert kthreadd.kernel_thread == (kthreadd.name == "kthreadd")


def test_read_stat_of_this_process_agrees_with_the_os() -> None:
    stat = procfs.read_stat(os.getpid())
    assert stat.ppid == os.getppid()
    assert stat.state == "R"
    assert stat.threads >= 1


def test_parse_environ_picks_rank_and_env() -> None:
    raw = b"PATH=/bin\0RANK=3\0LOCAL_RANK=1\0VIRTUAL_ENV=/p/proj/.venv\0XRANK=9\0"
    assert procfs.parse_environ(raw) == procfs.EnvFacts("proj/.venv", Ranks(3, 1, None))
    assert procfs.parse_environ(b"") == procfs.EnvFacts(None, settled=False)


def test_read_bytes_reads_past_the_first_page() -> None:
    big = "x" * 100_000  # two of them: more than one read's worth
    code = "import sys; print('ready', flush=True); sys.stdin.read()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "BIG": big, "BIG2": big, "RANK": "5"},
    )
    try:
        # Only the program itself knows exec is done: before, the child shows pytest's argv and
        # environ; then, for a moment, its own argv and an empty environ (the kernel publishes
        # the arguments first, and walking 200 kB of environment takes a while).
        assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        facts = procfs.read_environ(proc.pid)
        raw = procfs.read_bytes(f"/proc/{proc.pid}/environ")
    finally:
        proc.communicate(b"")
    assert f"BIG={big}".encode() in raw and f"BIG2={big}".encode() in raw
    assert facts is not None and facts.ranks.rank == 5


def test_smaps_rollup_parsing() -> None:
    raw = b"Rss: 900 kB\nPss: 500 kB\nPrivate_Clean: 100 kB\nPrivate_Dirty: 300 kB\n"
    assert procfs.parse_smaps_rollup(raw) == (500 * 1024, 400 * 1024)
    assert procfs.parse_smaps_rollup(b"") is None


def test_pss_of_this_process() -> None:
    sizes = procfs.read_pss_uss(os.getpid())
    assert sizes is not None
    pss, uss = sizes
    assert 0 < uss <= pss <= procfs.read_stat(os.getpid()).rss_bytes + 2**20


def test_descendants_walks_the_tree() -> None:
    parents = {1: 0, 10: 1, 11: 10, 12: 10, 13: 12, 20: 1}
    assert procfs.descendants(10, parents) == {10, 11, 12, 13}
    assert procfs.descendants(99, parents) == {99}


def test_parent_map_knows_this_process() -> None:
    assert procfs.parent_map()[os.getpid()] == os.getppid()


def test_env_of_interpreter_finds_a_venv() -> None:
    venv_python = os.path.join(sys.prefix, "bin", "python")
    assert procfs.env_of_interpreter(venv_python) == pycmdline.env_label(sys.prefix)
    assert procfs.env_of_interpreter("/usr/bin/python3") is None
