"""A mixed stack as text: a title per process, then each thread innermost frame first, C and
Python frames tagged, the source line under each Python frame.

Stdlib only, in syntax Python 3.8 reads: gdb's own Python imports it too (``ingdb.py``), so the
stack looks the same at a gdb prompt as in a dump.
"""

from __future__ import annotations

import linecache

from dotdbg.stacks.record import Frame, StackRecord, Thread, title
from dotdbg.visible import one_line


def frame_lines(frame: Frame) -> list[str]:
    if frame.native:
        where = f"at {frame.file}:{frame.line}" if frame.line else f"in {frame.file or '??'}"
        return [f"  C   {frame.function} {where}"]
    lines = [f"  Py  {frame.function} at {frame.file}:{frame.line or '?'}"]
    source = _source_line(frame.file, frame.line) if frame.file and frame.line else ""
    return [*lines, f"          {source}"] if source else lines


def _source_line(file: str, line: int) -> str:
    try:
        return linecache.getline(file, line).strip()
    except (OSError, ValueError):  # the name is the target's: a NUL in it, a file not text
        return ""


def thread_header(thread: Thread) -> str:
    states = ["idle" if thread.idle else "active"]
    if thread.gil is not None:
        states.append("holds the GIL" if thread.gil else "no GIL")
    name = f' "{thread.name}"' if thread.name else ""
    return f"Thread {thread.native_id}{name} ({', '.join(states)}), most recent call first:"


def thread_text(thread: Thread) -> str:
    """Names, file names and source lines are the target's: control characters as escapes."""
    lines = [thread_header(thread)]
    for frame in thread.frames:
        lines += frame_lines(frame)
    if not thread.frames:
        lines.append("  (no frames could be read)")
    return "\n".join(map(one_line, lines))


def record_text(record: StackRecord) -> str:
    head = one_line(title(record))
    if record.error:
        return f"{head}\n[error] {one_line(record.error)}\n"
    body = "\n\n".join(thread_text(thread) for thread in record.threads)
    return f"{head}\n{body}\n"
