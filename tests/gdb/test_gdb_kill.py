"""``kill -9`` of ``dotdbg gdb`` at any moment leaves the target running (stopped, when it was
stopped before), and no gdb, pystack child or keeper behind (issue 21.5).

The random moments come from a seed printed with any failure; DOTDBG_KILL_SEED replays one.
"""

from __future__ import annotations

import ast
import contextlib
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.gdb import keeper, tracee
from tests.gdb.gdb_procs import DOTDBG, SYSTEM_PYTHON, gdb_wrapper, start, stop, wait_until

SEED = int(os.environ.get("DOTDBG_KILL_SEED") or random.randrange(2**32))
SETTLE_SECONDS = 40.0  # measured: 0.01-0.6 s on a quiet machine (gdb's SIGTERM detach the longest)
TRIES = 24
SLEEPER = textwrap.dedent(
    """\
    import sys, threading, time
    for _ in range(int(sys.argv[1])):
        threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    print("ready", flush=True)
    time.sleep(3600)
    """
)


@pytest.fixture
def sleeper(real_gdb: None) -> Iterator[int]:
    """A Python process sleeping in 4 threads, the way a job waits on I/O."""
    proc = start([SYSTEM_PYTHON, "-c", SLEEPER, "3"])
    yield proc.pid
    end_leftovers(proc.pid)
    stop(proc)


@pytest.fixture
def many_threads(real_gdb: None) -> Iterator[int]:
    """200 threads: attaching to each takes the tracer long enough to be killed half-way."""
    proc = start([SYSTEM_PYTHON, "-c", SLEEPER, "200"])
    yield proc.pid
    end_leftovers(proc.pid)
    stop(proc)


def dotdbg_gdb(*args: str, path: str | None = None) -> subprocess.Popen[bytes]:
    """``dotdbg gdb`` in a process group of its own, as a shell's job is."""
    env = {key: value for key, value in os.environ.items() if key != "DEBUGINFOD_URLS"}
    env["PATH"] = path or env["PATH"]
    return subprocess.Popen(
        [DOTDBG, "gdb", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )


def kill_9(dump: subprocess.Popen[bytes], group: bool) -> None:
    """SIGKILL to dotdbg alone, or to its whole job (dotdbg, gdb, pystack's child)."""
    try:
        if group:
            os.killpg(dump.pid, signal.SIGKILL)
        else:
            dump.kill()
    except ProcessLookupError:
        pass
    dump.wait()


def attached(target: int, dump: subprocess.Popen[bytes]) -> Callable[[], bool]:
    return lambda: tracee.tracer_of(target) != 0 or dump.poll() is not None


def leftovers(target: int) -> list[str]:
    """Processes other than the target that name it in their arguments: dotdbg, its pystack
    child (dotdbg's own argv), gdb (``-p PID``) and the keeper (``keeper.py PID …``)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (target, os.getpid()):
            continue
        try:
            words = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if str(target).encode() in words:
            found.append(f"{entry}: {b' '.join(words).decode(errors='replace')}")
    return found


def end_leftovers(target: int) -> None:
    """What a failed test left (a gdb still attached, its shell): it started them."""
    for line in leftovers(target):
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(line.split(":")[0]), signal.SIGKILL)


def settled(target: int, stopped: bool) -> Callable[[], bool]:
    """Untraced, nothing of dotdbg's left, and every thread running (or, ``stopped``, in T)."""

    def check() -> bool:
        states = set(tracee.thread_states(target).values())
        wanted = states == {"T"} if stopped else not states & {"t", "T"}
        return wanted and tracee.tracer_of(target) == 0 and not leftovers(target)

    return check


def assert_settles(target: int, stopped: bool, said: str) -> float:
    """Seconds it took; a failure says what was left, the seed and the try."""
    started = time.monotonic()
    while not settled(target, stopped)():
        if time.monotonic() - started > SETTLE_SECONDS:
            states = sorted(set(tracee.thread_states(target).values()))
            pytest.fail(
                f"{said} (DOTDBG_KILL_SEED={SEED}): after {SETTLE_SECONDS:g}s the target's "
                f"threads are in {states}, traced by {tracee.tracer_of(target)}, "
                f"left behind: {leftovers(target)}"
            )
        time.sleep(0.01)
    return time.monotonic() - started


def test_kill_9_at_random_moments_leaves_the_target_running(sleeper: int) -> None:
    rng = random.Random(SEED)
    for attempt in range(TRIES):
        args = rng.choice([(), ("--json",), ("--via", "gdb")])
        delay, group = rng.uniform(0, 0.5), rng.random() < 0.5
        dump = dotdbg_gdb(*args, str(sleeper))
        time.sleep(delay)
        kill_9(dump, group)
        said = f"try {attempt}: dotdbg gdb {' '.join(args)} killed after {delay:.3f}s"
        assert_settles(sleeper, False, said + (" with its process group" if group else ""))


def test_kill_9_of_the_job_while_pystack_attaches(many_threads: int) -> None:
    """The worst moment, every time: the tracer dies with dotdbg half-way through attaching to
    200 threads, whose queued SIGSTOPs stop them once the kernel lets go."""
    for attempt in range(3):
        dump = dotdbg_gdb(str(many_threads))
        wait_until(attached(many_threads, dump), 60)
        kill_9(dump, group=True)
        assert_settles(many_threads, False, f"try {attempt}: killed with pystack attached")


def test_kill_9_of_dotdbg_ends_its_gdb_prompt(sleeper: int) -> None:
    """``dotdbg gdb -i``: gdb waits at its prompt, attached; dotdbg dies; the keeper ends gdb,
    which detaches, rather than leave it holding the process and reading the terminal."""
    env = {key: value for key, value in os.environ.items() if key != "DEBUGINFOD_URLS"}
    prompt = subprocess.Popen(
        [DOTDBG, "gdb", "-i", str(sleeper)],
        stdin=subprocess.PIPE,  # open and silent: a person who has not typed yet
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    try:
        wait_until(attached(sleeper, prompt), 60)
        kill_9(prompt, group=False)
        assert_settles(sleeper, False, "killed with its gdb prompt open")
    finally:
        assert prompt.stdin is not None
        prompt.stdin.close()


def test_kill_9_of_dotdbg_alone_ends_its_gdb(sleeper: int, tmp_path: Path) -> None:
    """gdb runs on after dotdbg, here attached for good (a gdb that hangs in a Python sleep
    after the dump); the keeper ends it."""
    hang = '-ex "python import time; time.sleep(600)"'
    path = f"{gdb_wrapper(tmp_path / 'bin', after=hang)}:{os.environ['PATH']}"
    dump = dotdbg_gdb("--via", "gdb", str(sleeper), path=path)
    wait_until(attached(sleeper, dump), 60)
    kill_9(dump, group=False)
    assert_settles(sleeper, False, "killed with gdb attached")


def test_a_target_stopped_before_stays_stopped(sleeper: int) -> None:
    os.kill(sleeper, signal.SIGSTOP)
    wait_until(lambda: set(tracee.thread_states(sleeper).values()) == {"T"})
    rng = random.Random(SEED)
    try:
        for attempt in range(6):
            dump = dotdbg_gdb(str(sleeper))
            delay, group = rng.uniform(0, 0.5), rng.random() < 0.5
            time.sleep(delay)
            kill_9(dump, group)
            assert_settles(sleeper, True, f"try {attempt}: stopped target, killed at {delay:.3f}s")
    finally:
        os.kill(sleeper, signal.SIGCONT)


def test_the_keeper_imports_only_what_starts_fast() -> None:
    """It runs as a script of its own at every dump: os, select, sys and time, nothing else
    (``signal`` would cost 20 ms of enum, dotdbg's modules more)."""
    tree = ast.parse(Path(keeper.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}  # fmt: skip
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"__future__", "os", "select", "sys", "time"}


def test_the_keepers_signal_numbers_are_this_systems() -> None:
    assert (keeper.SIGKILL, keeper.SIGTERM, keeper.SIGCONT, keeper.SIGSTOP) == (
        signal.SIGKILL,
        signal.SIGTERM,
        signal.SIGCONT,
        signal.SIGSTOP,
    )


def test_the_keeper_ends_only_the_holders_of_its_pipe(tmp_path: Path) -> None:
    """The keeper's parent dies: a process holding the pipe's write end is ended; one holding
    its read end, or none of it, is not."""
    read_end, write_end = os.pipe()
    sleep = [sys.executable, "-c", "import time; time.sleep(600)"]
    holder = subprocess.Popen(sleep, pass_fds=(write_end,))
    bystander = subprocess.Popen(sleep, pass_fds=(read_end,))
    parent = subprocess.Popen(
        [sys.executable, "-c", KEEPER_PARENT, keeper.__file__, str(bystander.pid)],
        stdin=read_end,
        pass_fds=(write_end,),
    )
    os.close(read_end)
    os.close(write_end)
    try:
        assert parent.wait(timeout=60) == 0
        assert holder.wait(timeout=60) == -signal.SIGTERM
        assert bystander.poll() is None
    finally:
        for proc in (holder, bystander):
            proc.kill()
            proc.wait()


# Starts the keeper on its stdin (the pipe), then exits at once as a killed dotdbg would.
KEEPER_PARENT = textwrap.dedent(
    """\
    import os, subprocess, sys
    subprocess.Popen([sys.executable, "-I", "-S", sys.argv[1], sys.argv[2], str(os.getpid()),
                      "running"], stdin=0, start_new_session=True)
    os._exit(0)
    """
)
