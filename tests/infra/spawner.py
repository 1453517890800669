"""Real processes for the watch-python, pyspy and process-scanner tests, each killed with its
whole session (the `spawn` fixture, tests/infra/fixtures.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.procs import pycmdline
from dotdbg.procs.procfs import EnvFacts, Stat
from dotdbg.procs.pyprocs import PyProcess
from dotdbg.watch.rows import Row

BIN = Path(sys.executable).parent
PR_SET_NAME = 15

# Prints "ready" once it is what the test wants, then idles.
IDLE = "import sys, time; print('ready', flush=True); time.sleep(600)"
RENAMED = textwrap.dedent(
    f"""
    import ctypes, sys, time
    ctypes.CDLL(None).prctl({PR_SET_NAME}, b"pt_data_worker", 0, 0, 0)
    print("ready", flush=True)
    time.sleep(600)
    """
)
# Holds 20 MB, then 100 MB more after its step.
GROWS = textwrap.dedent(
    """
    import sys
    held = [b"x" * (20 * 2**20)]
    print("ready", flush=True)
    sys.stdin.readline()
    held.append(b"y" * (100 * 2**20))
    print("ready", flush=True)
    sys.stdin.readline()
    """
)
HOLDS_300MB = "import time; b = b'x' * (300 * 2**20); print('ready', flush=True); time.sleep(600)"

# A rank: forks a DataLoader-like worker that renames itself, then idles.
TRAIN = textwrap.dedent(
    f"""
    import ctypes, os, sys, time
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        ctypes.CDLL(None).prctl({PR_SET_NAME}, b"pt_data_worker", 0, 0, 0)
        os.write(write_end, b"x")
        time.sleep(600)
        os._exit(0)
    os.read(read_end, 1)
    print("ready", flush=True)
    time.sleep(600)
    """
)

# A launcher run by its shebang, so the kernel names it "torchrun": starts two ranks.
TORCHRUN = textwrap.dedent(
    """
    import os, subprocess, sys, time
    train, token = sys.argv[1], sys.argv[2]
    ranks = []
    for rank in range(2):
        env = dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE="2")
        ranks.append(subprocess.Popen(
            [sys.executable, train, "--token", token], env=env, stdout=subprocess.PIPE
        ))
    for proc in ranks:
        proc.stdout.readline()
    print("ready", flush=True)
    time.sleep(600)
    """
)

# Holds, until told on stdin, the state a process is in for a moment while the kernel execs it:
# its command line ("arg") or its environment ("env") not published yet. It empties that region
# of its own memory map (prctl PR_SET_MM_MAP, no capability needed) and renames itself so that
# its kernel name does not say Python; prints "ready", restores the region when a line comes in
# (its step) and prints "ready" again. Prints "unsupported…" where the kernel refuses that.
HALF_EXECED = textwrap.dedent(
    f"""
    import ctypes, sys
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sbrk.restype = ctypes.c_void_p
    PR_SET_MM, PR_SET_MM_MAP = 35, 14
    FIELDS = ("start_code end_code start_data end_data start_brk brk start_stack "
              "arg_start arg_end env_start env_end auxv").split()

    class MmMap(ctypes.Structure):
        _fields_ = [*((name, ctypes.c_uint64) for name in FIELDS),
                    ("auxv_size", ctypes.c_uint32), ("exe_fd", ctypes.c_uint32)]

    def current():
        stat = open("/proc/self/stat").read().rsplit(")", 1)[1].split()
        field = lambda number: int(stat[number - 3])  # numbered as in man 5 proc
        return MmMap(field(26), field(27), field(45), field(46), field(47), libc.sbrk(0),
                     field(28), field(48), field(49), field(50), field(51), 0, 0, 0xFFFFFFFF)

    def set_end(region, address):
        mm = current()
        setattr(mm, region + "_end", address)
        return libc.prctl(PR_SET_MM, PR_SET_MM_MAP, ctypes.byref(mm), ctypes.sizeof(mm), 0) == 0

    region = sys.argv[1]
    original = current()
    libc.prctl({PR_SET_NAME}, b"launch_job", 0, 0, 0)
    if not set_end(region, getattr(original, region + "_start")):
        print("unsupported: the kernel refuses prctl(PR_SET_MM_MAP), errno", ctypes.get_errno(),
              flush=True)
        sys.exit(0)
    print("ready", flush=True)
    sys.stdin.readline()
    set_end(region, getattr(original, region + "_end"))
    print("ready", flush=True)
    sys.stdin.readline()
    """
)

AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
IS_ROOT = os.getuid() == 0


def wait_until(condition: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {condition}")
        time.sleep(0.05)


class Stepped:
    """A child that takes one more step each time it is told, and says "ready" after each."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.pid = proc.pid

    def step(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline() == "ready\n"


class Spawner:
    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.token = f"dotdbgtest{uuid.uuid4().hex[:12]}"
        self.started: list[subprocess.Popen[str]] = []

    def start(self, argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        """Start argv in a session of its own and wait until it prints "ready"."""
        proc = self._popen(argv, env, stdin=None)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", f"{argv} did not start"
        return proc

    def _popen(
        self, argv: list[str], env: dict[str, str] | None, stdin: int | None
    ) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            argv, stdin=stdin, stdout=subprocess.PIPE, text=True, start_new_session=True, env=env
        )
        self.started.append(proc)
        return proc

    def python(self, code: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
        """A Python child whose command line carries this test's token."""
        return self.start([sys.executable, "-c", code, self.token], env)

    def stepped(self, argv: list[str], env: dict[str, str] | None = None) -> Stepped:
        """Start argv, which prints "ready" and then one more "ready" per ``step``."""
        proc = self._popen(argv, env, stdin=subprocess.PIPE)
        assert proc.stdout is not None
        answer = proc.stdout.readline()
        if answer.startswith("unsupported"):
            pytest.skip(answer.strip())
        assert answer == "ready\n", f"{argv} did not start"
        return Stepped(proc)

    def half_execed(self, region: str, env: dict[str, str] | None = None) -> Stepped:
        """A Python process whose command line or environment reads empty until its ``step``."""
        return self.stepped([sys.executable, "-c", HALF_EXECED, region, self.token], env)

    def script(self, name: str, body: str) -> Path:
        path = self.tmp_path / name
        path.write_text(f"#!{sys.executable}\n{body}")
        path.chmod(0o755)
        return path

    def torchrun(self) -> subprocess.Popen[str]:
        """torchrun → two ranks (RANK/LOCAL_RANK set) → one renamed worker each."""
        train = self.tmp_path / "train.py"
        train.write_text(TRAIN)
        launcher = self.script("torchrun", TORCHRUN)
        return self.start([str(launcher), str(train), self.token])

    def cleanup(self) -> None:
        for proc in self.started:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()


NO_ENV = EnvFacts(None)


def make_row(
    pid: int,
    ppid: int = 1,
    rss: int = 0,
    cpu: float = 0.0,
    gpu: int | None = None,
    argv: tuple[str, ...] = ("python", "train.py"),
    environ: EnvFacts | None = NO_ENV,
    name: str = "python",
    threads: int = 1,
) -> Row:
    """A table row for the pure tests: a process that need not exist."""
    stat = Stat(name, "S", ppid, 1.0, threads, 100 + pid, rss)
    process = PyProcess(pid, 0, "/usr/bin/python3", argv, stat, environ)
    return Row(
        process=process,
        user="root",
        cpu_percent=cpu,
        elapsed_seconds=65.0,
        command=pycmdline.short_command(argv, name),
        launcher=pycmdline.launcher_of(argv),
        gpu_bytes=gpu,
    )
