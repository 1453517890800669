"""One mixed-stack dump of a live process or a core file: pystack first (fast, needs neither
python-gdb.py nor gdb), gdb with CPython's extension where pystack cannot read the target.

A live target is attached only inside ``tracee.kept_running``, and pystack runs in a forked
child with a deadline, so neither a timeout nor Ctrl-C leaves the process stopped.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from dotdbg.errors import DotdbgError
from dotdbg.gdb import corefile, driver, forked, frames, interpreter, needs, pystack_dump, tracee
from dotdbg.gdb.driver import Target
from dotdbg.gdb.interpreter import Interpreter
from dotdbg.gdb.pystack_dump import DumpFailure
from dotdbg.procs import procfs, pycmdline
from dotdbg.stacks import identity
from dotdbg.stacks.record import StackRecord, Thread

_FINAL = frozenset({"denied", "gone", "timeout"})  # gdb would fare no better


@dataclass(frozen=True)
class Result:
    record: StackRecord
    notes: tuple[str, ...] = ()  # what is missing and how to get it, one line each
    failure: str | None = None  # denied, gone, timeout, unreadable...


def process_record(pid: int) -> StackRecord:
    """The record's identity fields for a live process (no threads yet)."""
    try:
        stat = procfs.read_stat(pid)
        argv = procfs.read_argv(pid)
    except OSError:
        raise DotdbgError(f"there is no process {pid}", hint="list them: watch-python") from None
    environ = procfs.read_environ(pid) if stat.state != "Z" else None
    return identity.of_process(pid, stat, argv, environ, "pystack")


def dump_process(pid: int, via: str, timeout: float) -> Result:
    record = process_record(pid)
    if not tracee.alive(pid):
        return _failed(record, "gone", "the process has exited (its parent has not reaped it)")
    with tracee.kept_running(pid) as guard:
        result = _read_process(record, pid, via, timeout)
        if result.failure == "timeout":  # the tracer was killed, maybe mid-attach
            guard.killed_tracer()
    if result.failure is not None and not tracee.alive(pid):  # ptrace says EPERM to a zombie
        return _failed(result.record, "gone", "the process exited during the dump", result.notes)
    traced = procfs.tracer_of(pid) if result.failure == "denied" else None
    if traced is not None:  # root or not: one tracer at a time, no advice would help
        from dotdbg.pyspy.outcome import already_traced

        return _failed(result.record, "traced", already_traced(*traced), result.notes)
    return result


def _read_process(record: StackRecord, pid: int, via: str, timeout: float) -> Result:
    notes: tuple[str, ...] = ()
    python = True
    if via != "gdb":
        result = _through_pystack(record, pystack_dump.threads_of_pid, (pid,), timeout)
        if result.failure is None or result.failure in _FINAL or via == "pystack":
            return result
        notes, python = (_handed_to_gdb(result),), result.failure != "not-python"
    found = interpreter.of_process(pid)
    return _through_gdb(record, Target(pid=pid), found, timeout, notes, python)


def dump_core(core: str, exe: str | None, via: str, timeout: float) -> Result:
    facts = corefile.inspect(core, exe)
    argv = tuple(facts.command.split())  # the kernel's psargs: argv joined, cut at 80 bytes
    command = pycmdline.short_command(argv) if argv else facts.command
    record = StackRecord(
        identity.host_name(), facts.pid, facts.ppid, None, None, None, command, "pystack"
    )
    notes = _missing_libraries(facts)
    found = interpreter.describe(facts.executable, facts.mapped)
    target = Target(core=core, executable=facts.executable)
    if via != "gdb":
        args = (core, facts.executable)
        result = _through_pystack(record, pystack_dump.threads_of_core, args, timeout)
        if result.failure is None or via == "pystack":
            return replace(result, notes=notes)
        notes = (*notes, _handed_to_gdb(result))
    return _through_gdb(record, target, found, timeout, notes)


def _handed_to_gdb(result: Result) -> str:
    return f"{result.record.error}: the stacks come from gdb"


def _missing_libraries(facts: corefile.CoreFacts) -> tuple[str, ...]:
    if not facts.missing:
        return ()
    shown = ", ".join(facts.missing[:3]) + (" …" if len(facts.missing) > 3 else "")
    return (f"libraries of the core not on this machine (their frames show as ??): {shown}",)


def _through_pystack(
    record: StackRecord, reader: Callable[..., list[Thread]], args: Sequence[object], timeout: float
) -> Result:
    try:
        threads = forked.call(reader, *args, timeout=timeout)
    except forked.ChildTimeout:
        return _failed(record, "timeout", f"pystack did not finish within {timeout:g}s")
    except DumpFailure as failure:
        if failure.kind in _FINAL:
            return _failed(record, failure.kind, failure.reason)
        return _failed(record, failure.kind, failure.reason)
    return Result(record._replace(threads=frames.main_first(threads, record.pid)))


def _through_gdb(
    record: StackRecord,
    target: Target,
    found: Interpreter | None,
    timeout: float,
    notes: tuple[str, ...] = (),
    python: bool = True,  # False: pystack found no Python in it, nothing of gdb's to explain
) -> Result:
    record = record._replace(source="gdb", error=None)
    what = needs.of(found if python else None)
    argv = driver.dump_argv(needs.find_gdb(), what, target)
    try:
        dump = driver.run_dump(argv, timeout)
    except subprocess.TimeoutExpired:
        return _failed(record, "timeout", f"gdb did not finish within {timeout:g}s", notes)
    except DumpFailure as failure:
        return _failed(record, failure.kind, failure.reason, notes)
    if python and not _has_python_frames(dump.threads):
        notes = (*notes, *what.notes, "no Python frames: the native stack only")
    return Result(record._replace(threads=frames.main_first(dump.threads, record.pid)), notes)


def _has_python_frames(threads: Sequence[Thread]) -> bool:
    return any(not frame.native for thread in threads for frame in thread.frames)


def _failed(record: StackRecord, kind: str, reason: str, notes: tuple[str, ...] = ()) -> Result:
    return Result(record._replace(threads=(), error=reason), notes, kind)
