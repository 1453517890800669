"""py-spy's ``dump --json`` output as stack record threads.

py-spy prints a JSON array with one object per thread: ``thread_name``, ``thread_id``,
``os_thread_id``, ``active``, ``owns_gil`` and ``frames`` (innermost first: ``name``,
``filename``, ``module``, ``short_filename``, ``line``). A native frame (``--native``) names its
shared library in ``module``, or has ``filename`` ``"?"`` when py-spy could not symbolise it;
Python frames have no module. The array lists the main thread last; the text dump prints it
first, and so do the records.
"""

from __future__ import annotations

import json
from typing import Any

from dotdbg.stacks.record import Frame, Thread


def threads_from_dump(text: str) -> tuple[Thread, ...]:
    """The threads of one ``py-spy dump --json``; ValueError when it is not that."""
    data = json.loads(text)
    if not isinstance(data, list):
        raise ValueError("py-spy --json did not print a list of threads")
    return tuple(_thread(item) for item in reversed(data))


def _thread(item: dict[str, Any]) -> Thread:
    return Thread(
        name=item.get("thread_name"),
        id=item.get("thread_id"),
        native_id=item.get("os_thread_id"),
        idle=not item.get("active", False),
        gil=item.get("owns_gil"),
        frames=tuple(_frame(frame) for frame in item.get("frames") or ()),
    )


def _frame(frame: dict[str, Any]) -> Frame:
    native = frame.get("module") is not None or frame.get("filename") == "?"
    line = frame.get("line")
    return Frame(
        function=str(frame.get("name", "?")),
        file=frame.get("filename"),
        line=line if line else None,  # py-spy says 0 where a native frame has no line
        native=native,
    )
