"""A mixed stack as text: a title per process, then each thread innermost frame first, C and
Python frames tagged, the source line under each Python frame.

Stdlib only, in syntax Python 3.8 reads: gdb's own Python imports it too (``ingdb.py``), so the
stack looks the same at a gdb prompt as in a dump.
"""

from __future__ import annotations

import linecache

from dotdbg.stacks.record import Frame, StackRecord, Thread, title


def frame_lines(frame: Frame) -> list[str]:
    if frame.native:
        where = f"at {frame.file}:{frame.line}" if frame.line else f"in {frame.file or '??'}"
        return [f"  C   {frame.function} {where}"]
    lines = [f"  Py  {frame.function} at {frame.file}:{frame.line or '?'}"]
    source = linecache.getline(frame.file, frame.line).strip() if frame.file and frame.line else ""
    return [*lines, f"          {source}"] if source else lines


def thread_header(thread: Thread) -> str:
    states = ["idle" if thread.idle else "active"]
    if thread.gil is not None:
        states.append("holds the GIL" if thread.gil else "no GIL")
    name = f' "{thread.name}"' if thread.name else ""
    return f"Thread {thread.native_id}{name} ({', '.join(states)}), most recent call first:"


def thread_text(thread: Thread) -> str:
    lines = [thread_header(thread)]
    for frame in thread.frames:
        lines += frame_lines(frame)
    if not thread.frames:
        lines.append("  (no frames could be read)")
    return "\n".join(lines)


def record_text(record: StackRecord) -> str:
    if record.error:
        return f"{title(record)}\n[error] {record.error}\n"
    body = "\n\n".join(thread_text(thread) for thread in record.threads)
    return f"{title(record)}\n{body}\n"
