"""py-spy's ``dump --json`` output as stack record threads.

py-spy prints a JSON array with one object per thread: ``thread_name``, ``thread_id``,
``os_thread_id``, ``active``, ``owns_gil`` and ``frames`` (innermost first: ``name``,
``filename``, ``module``, ``short_filename``, ``line``). A native frame (``--native``) names its
shared library in ``module``, or has ``filename`` ``"?"`` when py-spy could not symbolise it;
Python frames have no module. The array lists the main thread last; the text dump prints it
first, and so do the records.

Light (json only): the node-side entry (``dotdbg.stacks.node``) writes these dicts as they are.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # typing costs milliseconds of every node's start; mypy knows this name
if TYPE_CHECKING:
    from typing import Any

    from dotdbg.stacks.record import Thread


def thread_dicts(text: str) -> list[dict[str, Any]]:
    """The threads of one ``py-spy dump --json`` as a record's JSON holds them (the keys of
    ``record.Thread`` and ``record.Frame``, in their order); ValueError when it is not that."""
    data = json.loads(text)
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise ValueError("py-spy --json did not print a list of threads")
    return [_thread(item) for item in reversed(data)]


def threads_from_dump(text: str) -> tuple[Thread, ...]:
    """The same as record threads (a RecordError, a ValueError, names what is wrong)."""
    from dotdbg.stacks.record import threads_from_list

    return threads_from_list(thread_dicts(text))


def _thread(item: dict[str, Any]) -> dict[str, Any]:
    frames = item.get("frames") or []
    if not isinstance(frames, list) or not all(isinstance(frame, dict) for frame in frames):
        raise ValueError("py-spy --json gave a thread whose frames are not a list of objects")
    return {
        "name": item.get("thread_name"),
        "id": item.get("thread_id"),
        "native_id": item.get("os_thread_id"),
        "idle": not item.get("active", False),
        "gil": item.get("owns_gil"),
        "frames": [_frame(frame) for frame in frames],
    }


def _frame(frame: dict[str, Any]) -> dict[str, Any]:
    native = frame.get("module") is not None or frame.get("filename") == "?"
    line = frame.get("line")
    return {
        "function": str(frame.get("name", "?")),
        "file": frame.get("filename"),
        "line": line if line else None,  # py-spy says 0 where a native frame has no line
        "native": native,
    }
