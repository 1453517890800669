"""Real processes for the ``dotdbg gdb`` tests, and the checks every test ends with."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from dotdbg.gdb import tracee
from dotdbg.stacks.record import Frame, StackRecord, from_json
from tests.infra.spawner import BIN

DOTDBG = str(BIN / "dotdbg")
# Debian's interpreter: python3-dbg gives it its gdb extension and debug symbols
SYSTEM_PYTHON = "/usr/bin/python3"
# the venv's base interpreter (pyenv's here): its own python-gdb.py sits beside it
VENV_BASE_PYTHON = os.path.realpath(sys.executable)
WITHOUT_PTRACE = ["setpriv", "--bounding-set=-sys_ptrace", "--inh-caps=-sys_ptrace"]

# Blocked inside a C call on two threads: the main thread sorts with libc's qsort, whose
# comparison (a ctypes callback) sleeps; a second thread waits on a lock the main thread holds.
BLOCKED = textwrap.dedent(
    """\
    import ctypes, threading, time

    libc = ctypes.CDLL(None)
    COMPARE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
    held = threading.Lock()
    held.acquire()

    def compare(a, b):
        time.sleep(600)
        return 0

    def sort_in_c():
        numbers = (ctypes.c_int * 2)(2, 1)
        libc.qsort(numbers, 2, ctypes.sizeof(ctypes.c_int), COMPARE(compare))

    def wait_for_lock():
        held.acquire()

    threading.Thread(target=wait_for_lock, name="waiter", daemon=True).start()
    print("ready", flush=True)
    sort_in_c()
    """
)

# Many threads, all waiting: dumping it takes pystack a while (timeouts, Ctrl-C mid-dump).
MANY_THREADS = textwrap.dedent(
    """\
    import sys, threading, time
    done = threading.Event()
    for _ in range(int(sys.argv[1])):
        threading.Thread(target=done.wait, daemon=True).start()
    print("ready", flush=True)
    time.sleep(600)
    """
)

TRAPS = textwrap.dedent(
    """\
    import os, signal, sys

    def stop_here():
        print("before the trap", flush=True)
        os.kill(os.getpid(), signal.SIGTRAP)
        print("resumed after the trap", flush=True)

    stop_here()
    sys.exit(3)
    """
)


def start(argv: Sequence[str], timeout: float = 20.0) -> subprocess.Popen[str]:
    """Start argv in a session of its own and wait until it prints "ready"."""
    proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, text=True, start_new_session=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.strip() == "ready", f"{argv} did not start: {line!r}"
    return proc


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def assert_running(pid: int) -> None:
    """Not left stopped: no thread in state t or T, and nothing tracing it."""
    states = tracee.thread_states(pid)
    assert states, f"process {pid} has gone"
    assert not {tid: s for tid, s in states.items() if s in "tT"}, states
    assert tracee.tracer_of(pid) == 0


def dotdbg(
    *args: str, env: dict[str, str] | None = None, prefix: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **(env or {})}
    environment.pop("DEBUGINFOD_URLS", None)  # never ask the internet from a test
    return subprocess.run(
        [*prefix, DOTDBG, "gdb", *args],
        capture_output=True,
        text=True,
        timeout=90,
        env=environment,
    )


def record_of(done: subprocess.CompletedProcess[str]) -> StackRecord:
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout + done.stderr
    return from_json(lines[0])


Match = Callable[[Frame], bool]


def py(name: str) -> Match:
    return lambda frame: not frame.native and frame.function == name


def c(*names: str) -> Match:
    return lambda frame: frame.native and any(name in frame.function for name in names)


def assert_in_order(frames: Iterable[Frame], *wanted: Match) -> None:
    """Each wanted frame is there, below (inner to) the next one, innermost first."""
    frames = list(frames)
    position = -1
    for number, match in enumerate(wanted):
        later = [i for i, frame in enumerate(frames) if i > position and match(frame)]
        assert later, f"frame #{number} of the wanted order is missing after #{position}: {frames}"
        position = later[0]


def wait_until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    """tests.infra.spawner's, polled ten times as often: a tracer may stay attached briefly."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {condition}"
        time.sleep(0.005)


def gdb_wrapper(directory: Path, before: str = "", after: str = "") -> Path:
    """A ``gdb`` for PATH that runs shell ``before``, then the real gdb with ``after`` added."""
    real = shutil.which("gdb")
    assert real is not None
    directory.mkdir(exist_ok=True)
    wrapper = directory / "gdb"
    wrapper.write_text(f'#!/bin/sh\n{before}\nexec {real} "$@" {after}\n')
    wrapper.chmod(0o755)
    return directory
