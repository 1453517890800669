"""The rlimit backend really limits: RLIMIT_DATA per process, the watchdog on the tree's RSS."""

from __future__ import annotations

import re
import sys

from tests.memlimit.memlimit_fakes import run_cli

# RLIMIT_DATA makes a too-large heap allocation fail in the process itself.
HEAP_300M = """\
try:
    x = b"x" * (300 << 20)
except MemoryError:
    print("MemoryError")
    raise SystemExit(3)
"""
# Shared anonymous memory is not "data", so only the watchdog can catch it.
SHARED_150M = """\
import mmap, time
block = mmap.mmap(-1, 150 << 20)
for offset in range(0, len(block), 1 << 20):
    block[offset:offset + (1 << 20)] = b"x" * (1 << 20)
time.sleep(30)
"""
# Two children of 70M each: neither is over 100M, the tree is.
TREE_2x70M = """\
import subprocess, sys, time
hold = "x = b'x' * (70 << 20); import time; time.sleep(30)"
kids = [subprocess.Popen([sys.executable, "-c", hold]) for _ in range(2)]
while all(kid.poll() is None for kid in kids):
    time.sleep(0.05)
for kid in kids:
    if kid.poll() is None:
        kid.terminate()
print(sorted(kid.wait() for kid in kids))
"""


def test_rlimit_makes_a_big_allocation_fail_in_the_process() -> None:
    done = run_cli("--backend", "rlimit", "100M", "--", sys.executable, "-c", HEAP_300M)
    assert (done.returncode, done.stdout) == (3, "MemoryError\n")
    lines = done.stderr.splitlines()
    assert lines[0] == "memlimit: 100M RAM, no swap, backend rlimit (RLIMIT_DATA + RSS watchdog)"
    assert lines[1].startswith("memlimit: note: rlimit is per process and approximate")


def test_the_watchdog_kills_the_command_past_the_limit_with_137() -> None:
    done = run_cli("--backend", "rlimit", "100M", "--", sys.executable, "-c", SHARED_150M)
    assert done.returncode == 137
    assert re.search(
        r"memlimit: a process was killed by the watchdog at the 100M limit "
        r"\(rlimit, peak 1\d\d\.\d\dM\)",
        done.stderr,
    )
    assert "memlimit: the command itself was killed; exit code 137" in done.stderr


def test_the_watchdog_adds_up_the_whole_tree() -> None:
    done = run_cli("--backend", "rlimit", "100M", "--", sys.executable, "-c", TREE_2x70M)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[-15, -9]\n"  # the watchdog SIGKILLed one, the parent ended the other
    assert "a process was killed by the watchdog at the 100M limit" in done.stderr
    assert "the command itself was killed" not in done.stderr
