"""What several samples of one process say about it.

A process whose shown stacks (the main thread and the busy ones) changed between samples is
*moving*. One whose stacks were the same in every sample is

* *busy* when one of those threads was on a CPU in every sample (py-spy's ``active``; gdb's
  innermost frame is not a blocking call): a hot loop, or one long computation, not a wait;
* *idle* when every thread waits in a known launcher or worker loop (torchrun's agent
  monitoring its workers, a DataLoader or pool worker waiting for work, a server's
  ``serve_forever``): healthy, whatever the rest of the job does;
* *stuck* otherwise: it waits, in the same place, every time it was looked at.

With a single sample nothing is said, except *idle* for a process in a known loop.
"""

from __future__ import annotations

from collections.abc import Sequence

from dotdbg.stacks.record import Frame, Thread

STUCK, BUSY, IDLE, MOVING = "stuck", "busy", "idle", "moving"
NAMES = (STUCK, BUSY, IDLE, MOVING)

# (file ending, function): loops whose wait is the healthy state of a process or thread
KNOWN_LOOPS = frozenset(
    {
        ("torch/distributed/elastic/agent/server/api.py", "_invoke_run"),  # torchrun's agent
        ("torch/utils/data/_utils/worker.py", "_worker_loop"),
        ("torch/utils/data/_utils/pin_memory.py", "_pin_memory_loop"),
        ("multiprocessing/pool.py", "worker"),
        ("multiprocessing/pool.py", "_handle_workers"),
        ("multiprocessing/pool.py", "_handle_tasks"),
        ("multiprocessing/pool.py", "_handle_results"),
        ("multiprocessing/managers.py", "serve_forever"),
        ("concurrent/futures/process.py", "_process_worker"),
        ("concurrent/futures/thread.py", "_worker"),
        ("socketserver.py", "serve_forever"),
        ("asyncio/base_events.py", "_run_once"),
    }
)
# standard-library modules a loop waits through (a queue's get, a connection's poll)
WAIT_MODULES = (
    "/threading.py",
    "/queue.py",
    "/selectors.py",
    "/socket.py",
    "/subprocess.py",
    "/multiprocessing/connection.py",
    "/multiprocessing/queues.py",
    "/multiprocessing/synchronize.py",
    "/multiprocessing/popen_fork.py",
)


def _bare_function(frame: Frame) -> str:
    return frame.function.rsplit(".", 1)[-1]  # py-spy 3.11+: ``Class.method``


def _is_known_loop(frame: Frame) -> bool:
    file = frame.file or ""
    return any(
        file.endswith(end) and _bare_function(frame) == function for end, function in KNOWN_LOOPS
    )


def in_known_loop(thread: Thread) -> bool:
    """Waiting, and below its innermost frame of its own only waits of the standard library."""
    if not thread.idle:
        return False
    for frame in thread.frames:  # innermost first
        if frame.native or (frame.file or "").endswith(WAIT_MODULES):
            continue
        return _is_known_loop(frame)
    return False


def idle_loop(threads: Sequence[Thread]) -> bool:
    return bool(threads) and all(in_known_loop(thread) for thread in threads)


def unchanged(samples: Sequence[Sequence[Thread]]) -> str:
    """The state of a process whose shown threads had the same stacks in every sample (each
    sample's threads in the same order)."""
    width = min(len(threads) for threads in samples)
    if any(all(not threads[i].idle for threads in samples) for i in range(width)):
        return BUSY
    if all(idle_loop(threads) for threads in samples):
        return IDLE
    return STUCK
