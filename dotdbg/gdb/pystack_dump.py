"""Reading a live process or a core file through pystack's Python API, into stack records' threads.

pystack (PyPI) stops the process, reads the interpreter's memory and unwinds the native stacks
with the debug information it finds (libdw), then lets it run on. Its threads come with the
native frames outermost first and the Python frames as a chain; the evaluation loop's native
frames mark where each run of Python frames goes, which is what ``merge`` follows.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType
from typing import TYPE_CHECKING

from dotdbg.gdb import frames
from dotdbg.stacks.record import Frame, Thread

if TYPE_CHECKING:
    from pystack.types import PyFrame, PyThread


class DumpFailure(Exception):
    """Why pystack gave no stacks. ``kind``: denied, gone, not-python, unreadable, missing."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(kind, reason)
        self.kind = kind
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def threads_of_pid(pid: int) -> list[Thread]:
    """Every thread of ``pid``, native and Python frames merged; the process runs on afterwards."""
    engine = _engine()
    try:
        found = engine.get_process_threads(
            pid, stop_process=True, native_mode=engine.NativeReportingMode.ALL
        )
    except Exception as error:
        raise _failure(error) from None
    return [to_thread(thread) for thread in found]


def threads_of_core(core: str, executable: str) -> list[Thread]:
    engine = _engine()
    try:
        found = engine.get_process_threads_for_core(
            core, executable, native_mode=engine.NativeReportingMode.ALL
        )
    except Exception as error:
        raise _failure(error) from None
    return [to_thread(thread) for thread in found]


def _engine() -> ModuleType:  # pystack.engine, imported only when a dump is asked
    try:
        from pystack import engine
    except ImportError as error:
        raise DumpFailure("missing", f"pystack cannot be imported ({error})") from None
    return engine


def _failure(error: Exception) -> DumpFailure:
    text = str(error.args[0]) if error.args else str(error)  # without "Engine error: "
    if "Operation not permitted" in text or isinstance(error, PermissionError):
        return DumpFailure("denied", "ptrace refused: pystack may not attach")
    if isinstance(error, ProcessLookupError) or "No such process" in text or "/task" in text:
        return DumpFailure("gone", "the process exited")
    if "python version" in text or type(error).__name__ == "InvalidPythonProcess":
        return DumpFailure("not-python", f"pystack finds no Python in it ({text})")
    return DumpFailure("unreadable", f"pystack: {text}")


def to_thread(thread: PyThread) -> Thread:
    gil = None if thread.holds_the_gil < 0 else bool(thread.holds_the_gil)
    return frames.thread(thread.name, thread.tid, gil, reversed(list(merge(thread))))


def merge(thread: PyThread) -> Iterator[Frame]:
    """Outermost first: each evaluation-loop frame stands for the run of Python frames it ran.

    When the two do not line up (an interpreter pystack reads only partly), the Python frames
    alone, as pystack shows them.
    """
    from pystack.types import NativeFrame, frame_type

    python_frames = [frame for frame in thread.all_frames if not frame.is_shim]
    kinds = [frame_type(native, thread.python_version) for native in thread.native_frames]
    evals = sum(kind == NativeFrame.FrameType.EVAL for kind in kinds)
    if evals != sum(frame.is_entry for frame in python_frames) or not thread.native_frames:
        yield from map(_python_frame, python_frames)
        return
    runs = iter(_runs(python_frames))
    for native, kind in zip(thread.native_frames, kinds, strict=True):
        if kind == NativeFrame.FrameType.EVAL:
            yield from map(_python_frame, next(runs, []))
        elif not frames.is_plumbing(native.symbol):
            yield frames.native(native.symbol, native.path, native.linenumber, native.library)


def _runs(python_frames: list[PyFrame]) -> list[list[PyFrame]]:
    """The Python frames cut where each evaluation-loop call began (its entry frame)."""
    runs: list[list[PyFrame]] = []
    for frame in python_frames:
        if frame.is_entry or not runs:
            runs.append([frame])
        else:
            runs[-1].append(frame)
    return runs


def _python_frame(frame: PyFrame) -> Frame:
    return frames.python(frame.code.scope, frame.code.filename, frame.code.location.lineno)
