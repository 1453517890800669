"""Stuck, busy, idle, moving: what several samples of real processes say, both ways.

* a process that waits in the same place of its own code every time: stuck;
* a 100%-CPU spin at one line: busy, not stuck (it runs; whether it gets anywhere, the stack
  cannot tell);
* torchrun's agent sleeping in its monitor loop, and a multiprocessing pool's idle worker:
  idle, not stuck;
* a process whose stack changes: moving.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.stacks import states
from dotdbg.stacks.record import Frame, Thread
from tests.stacks.stacks_support import run_dotdbg, stacks_json

WAITS = "import time\ndef wait():\n    time.sleep(600)\nprint('ready', flush=True)\nwait()\n"
SPINS = "def spin():\n    while True: pass\nprint('ready', flush=True)\nspin()\n"
POOL = textwrap.dedent(
    """
    import multiprocessing, time
    def hold():
        time.sleep(600)
    if __name__ == "__main__":
        pool = multiprocessing.get_context("fork").Pool(1)
        pool.apply(abs, (1,))  # the worker is up and back in its loop
        print("ready", flush=True)
        hold()
    """
)
# The shape of torch.distributed.elastic's agent: _invoke_run sleeps between looks at workers.
AGENT = textwrap.dedent(
    """
    import time
    class SimpleElasticAgent:
        def _invoke_run(self):
            print("ready", flush=True)
            while True:
                time.sleep(600)
    """
)
TORCHRUN = "from torch.distributed.elastic.agent.server.api import SimpleElasticAgent\n"
TORCHRUN += "SimpleElasticAgent()._invoke_run()\n"


@pytest.fixture
def programs(tmp_path: Path) -> Iterator[tuple[str, dict[str, int]]]:
    agent = tmp_path / "torch/distributed/elastic/agent/server"
    agent.mkdir(parents=True)
    (agent / "api.py").write_text(AGENT)
    for package in [agent, *agent.relative_to(tmp_path).parents][:-1]:
        # regular packages: they come before a real torch installed in site-packages
        (tmp_path / package / "__init__.py").touch()
    token = f"dotdbgstates{os.getpid()}"
    sources = {"waits": WAITS, "spins": SPINS, "pool": POOL, "torchrun": TORCHRUN}
    procs = {}
    try:
        for name, source in sources.items():
            script = tmp_path / f"{name}.py"
            script.write_text(source)
            procs[name] = subprocess.Popen(
                [sys.executable, str(script), token], stdout=subprocess.PIPE, text=True,
                cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)},
                start_new_session=True,
            )  # fmt: skip
        for proc in procs.values():
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        yield token, {name: proc.pid for name, proc in procs.items()}
    finally:
        for proc in procs.values():
            os.killpg(proc.pid, signal.SIGKILL)  # the pool's worker too
            proc.wait()


def test_stuck_busy_and_idle_told_apart(programs: tuple[str, dict[str, int]]) -> None:
    token, pids = programs
    report = stacks_json("--samples", "3", "--interval", "0.3", token, env=dict(os.environ))
    state = {p["pid"]: c["state"] for c in report["classes"] for p in c["processes"]}
    worker = next(pid for pid in state if pid not in pids.values())  # the pool's worker
    assert state == {
        pids["waits"]: "stuck",
        pids["pool"]: "stuck",  # its main thread waits in its own hold()
        worker: "idle",
        pids["spins"]: "busy",
        pids["torchrun"]: "idle",
    }
    assert {c["state"]: c["stuck"] for c in report["classes"]} == {
        "stuck": True,
        "busy": False,
        "idle": False,
    }


def test_the_tree_marks_each_state(programs: tuple[str, dict[str, int]]) -> None:
    token, _ = programs
    done = run_dotdbg("stacks", "--samples", "2", "--interval", "0.2", token, env=dict(os.environ))
    lines = done.stdout.splitlines()
    assert any(line.endswith("[busy]") and "spin (spins.py:2)" in line for line in lines)
    assert any(line.endswith("[stuck]") and "wait (waits.py:3)" in line for line in lines)
    assert any(line.endswith("[idle]") and "_invoke_run" in line for line in lines)


def _thread(*frames: Frame, idle: bool = True) -> Thread:
    return Thread("MainThread", 1, 1, idle, False, frames)


def py(function: str, file: str) -> Frame:
    return Frame(function, file, 1)


LIB = "/usr/lib/python3.11/"
POOL_WORKER = py("worker", LIB + "multiprocessing/pool.py")
AGENT_API = "/x/torch/distributed/elastic/agent/server/api.py"


@pytest.mark.parametrize(
    ("thread", "idle"),
    [
        # a pool worker waiting for a task: its own frames end in the stdlib's waits
        (_thread(Frame("read", "libc.so.6", None, True),
                 py("_recv", LIB + "multiprocessing/connection.py"),
                 py("get", LIB + "multiprocessing/queues.py"), POOL_WORKER), True),
        # the same worker running a task that hangs in the user's code: stuck, not idle
        (_thread(py("hang", "/job/task.py"), POOL_WORKER), False),
        # on a CPU: never idle
        (_thread(POOL_WORKER, idle=False), False),
        (_thread(py("SimpleElasticAgent._invoke_run", AGENT_API)), True),
        (_thread(py("_invoke_run", "/x/my/api.py")), False),
    ],
)  # fmt: skip
def test_known_loops(thread: Thread, idle: bool) -> None:
    assert states.in_known_loop(thread) is idle


def test_unchanged_stacks_on_a_cpu_in_every_sample_are_busy() -> None:
    on = _thread(py("spin", "/a.py"), idle=False)
    off = _thread(py("spin", "/a.py"))
    assert states.unchanged([[on], [on], [on]]) == states.BUSY
    assert states.unchanged([[on], [off], [on]]) == states.STUCK  # it waited there once
    assert states.unchanged([[off], [off]]) == states.STUCK
