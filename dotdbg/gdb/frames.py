"""What the two engines (pystack, gdb) share once they have walked a thread: which native frames
are the interpreter's own plumbing, whether the thread is waiting, and how a frame is written.

Stdlib only, in syntax Python 3.8 reads: gdb's own Python imports it too (``ingdb.py``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from dotdbg.stacks.record import Frame, Thread

UNKNOWN = "??"

# Frames of CPython's own call machinery between two Python frames: they say nothing a reader
# of the stack needs (py-spy and pystack hide them too). The evaluation loop itself is replaced
# by the Python frames it runs, or kept when those cannot be read.
_PLUMBING_PREFIXES = (
    "PyEval",
    "_PyEval",
    "_Py",
    "PyObject_Call",
    "PyObject_Vectorcall",
    "PyVectorcall",
    "call_function",
    "do_call_core",
    "function_call",
    "method_vectorcall",
    "slot_tp_call",
    "type_call",
    "wrapper_call",
    "wrapperdescr_call",
    "methoddescr_call",
    "classmethoddescr_call",
    "cfunction_call",
    "cfunction_vectorcall",
    "vectorcall_",
)

# The innermost native frame of a thread that waits: sleeping, on a lock, on I/O, on a child.
_WAITING = re.compile(
    r"(^|_)(nanosleep|futex|poll|ppoll|select|pselect|epoll_wait|read|recv\w*|accept4?|wait4?|"
    r"waitpid|waitid|pause|sigtimedwait|sigwait\w*|sem_wait|cond_wait|cond_timedwait|"
    r"lll_lock_wait|sem_timedwait)"
)


# CPython's evaluation loop: one call runs one (3.11+: one or more) Python frames.
_EVAL_LOOP = frozenset({"_PyEval_EvalFrameDefault", "PyEval_EvalFrameEx"})


def is_eval_loop(function: str) -> bool:
    return function in _EVAL_LOOP


def is_plumbing(function: str) -> bool:
    return function.startswith(_PLUMBING_PREFIXES) and function not in _EVAL_LOOP


def bare_name(function: str) -> str:
    """``clock_nanosleep@GLIBC_2.2.5`` → ``clock_nanosleep``; ``f.lto_priv.0`` → ``f``."""
    return function.split("@", 1)[0].split(".", 1)[0]


def is_waiting(frames: Iterable[Frame]) -> bool:
    """Whether the innermost frame is a native call that blocks (py-spy's "idle")."""
    for frame in frames:
        return frame.native and _WAITING.search(bare_name(frame.function)) is not None
    return False


def native(function: str | None, file: str | None, line: int | None, library: str | None) -> Frame:
    """A C/C++ frame: its source file and line when known, else the library it is in."""
    function = function if function and function != "???" else UNKNOWN
    if not file or file == "???" or not line:
        return Frame(function, library or None, None, True)
    return Frame(function, file, line, True)


def python(function: str, file: str, line: int | None) -> Frame:
    return Frame(function, file, line if line and line > 0 else None, False)


def main_first(threads: Iterable[Thread], pid: int) -> tuple[Thread, ...]:
    """The main thread (whose id is the pid) first, then the others as they started."""
    return tuple(sorted(threads, key=lambda each: (each.native_id != pid, each.native_id or 0)))


def thread(
    name: str | None, native_id: int | None, gil: bool | None, frames: Iterable[Frame]
) -> Thread:
    frames = tuple(frames)
    return Thread(name, None, native_id, is_waiting(frames), gil, frames)
