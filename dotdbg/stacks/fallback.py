"""``--native`` where py-spy cannot dump a process: ``dotdbg gdb --json`` dumps it instead.

A node may have no py-spy (dotdbg installed without its dependencies, a platform py-spy has no
wheel for), or py-spy may fail on a process (an interpreter it does not know) or be refused
where gdb is let in. pystack, else gdb with CPython's extension, gives the same mixed Python and
native stack, so the process keeps its place in the merged tree with its rank. A process
another tracer holds, or one whose dump ran out of time, is not tried again: gdb would fare no
better. Each ``dotdbg gdb`` is a child of its own (up to ``MAX_PARALLEL`` at a time): it stops
its target only inside its own guard, so ending one never leaves a rank stopped.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Sequence

from dotdbg.procs.pyprocs import PyProcess
from dotdbg.pyspy.dump import MAX_PARALLEL
from dotdbg.pyspy.outcome import RETRIED
from dotdbg.stacks.jsonlines import read
from dotdbg.stacks.record import RecordError, StackRecord

# on top of the dump's own time: dotdbg's start, and its gdb's grace to detach when stopped
SLACK = 5.0
TERM_GRACE = 2.0  # seconds ``dotdbg gdb`` gets to let its target go after SIGTERM


def gdb_argv(pid: int, timeout: float) -> list[str]:
    """``dotdbg gdb --json`` by this very dotdbg (a node's PATH may not have one), done within
    ``timeout``: pystack, then gdb where pystack fails, each gets half."""
    return [*own_command(), "gdb", "--json", "--timeout", f"{timeout / 2:g}", str(pid)]


def own_command() -> list[str]:
    """The interpreter and script that run this dotdbg, else ``python -m dotdbg``."""
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script).startswith("dotdbg") and os.path.isfile(script):
        return [sys.executable, script]
    return [sys.executable, "-m", "dotdbg"]


def retried(
    targets: Sequence[PyProcess], records: Sequence[StackRecord], timeout: float
) -> list[StackRecord]:
    """``records`` (one per target, in order) with each that py-spy could not take dumped by
    ``dotdbg gdb --json``; where gdb fails too, both reasons are kept."""
    again = [at for at, record in enumerate(records) if (record.error or "").startswith(RETRIED)]
    found = list(records)
    redone = _in_parallel([targets[at].pid for at in again], timeout)
    for at, (record, why) in zip(again, redone, strict=True):
        if record is not None and record.error is None:
            found[at] = found[at]._replace(threads=record.threads, source=record.source, error=None)
        else:
            found[at] = found[at]._replace(error=f"{found[at].error}; dotdbg gdb: {why}")
    return found


def _in_parallel(pids: Sequence[int], timeout: float) -> list[tuple[StackRecord | None, str]]:
    results: list[tuple[StackRecord | None, str]] = [(None, "not run")] * len(pids)
    children: list[subprocess.Popen[str]] = []
    lock = threading.Lock()
    queue = list(enumerate(pids))

    def worker() -> None:
        while True:
            with lock:
                if not queue:
                    return
                at, pid = queue.pop(0)
                child = _start(pid, timeout)
                children.append(child)
            results[at] = _finish(child, timeout)

    threads = [threading.Thread(target=worker) for _ in range(min(MAX_PARALLEL, len(pids)))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    finally:  # a stop signal: each dotdbg gdb lets its target go on SIGTERM
        with lock:
            queue.clear()
            for child in children:
                if child.poll() is None:
                    child.terminate()
    return results


def _start(pid: int, timeout: float) -> subprocess.Popen[str]:
    return subprocess.Popen(
        gdb_argv(pid, timeout),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
    )


def _finish(child: subprocess.Popen[str], timeout: float) -> tuple[StackRecord | None, str]:
    """The record ``dotdbg gdb --json`` printed, or None; and why there is no stack. Its
    deadline keeps the node within the time the caller gives it (``stacks.job``)."""
    try:
        out, err = child.communicate(timeout=timeout + SLACK)
    except subprocess.TimeoutExpired:
        child.terminate()
        try:
            child.communicate(timeout=TERM_GRACE)
        except subprocess.TimeoutExpired:
            child.kill()
            child.communicate()
        return None, f"did not finish within {timeout + SLACK:g}s"
    try:
        record = next(iter(read(out.splitlines(), "dotdbg gdb")), None)
    except RecordError as error:
        return None, f"printed no record ({error})"
    if record is not None:
        return record, record.error or ""
    return None, _last_line(err) or f"exit {child.returncode}"


def _last_line(text: str) -> str:
    """dotdbg's error line where there is one (a hint follows it), else the last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("dotdbg: error: ")]
    return (errors or lines or [""])[-1].removeprefix("dotdbg: ")
