"""The stack record every dumper prints with ``--json``: one JSON object per line per process.

``dotdbg pyspy --json``, ``dotdbg gdb --json`` and ``dotdbg stacks`` share it, whatever dumped
the process (``source``: py-spy, pystack or gdb). Frames are innermost first, as py-spy and gdb
print them; ``native`` tells a C/C++ frame from a Python one. A process that could not be dumped
has ``error`` set (the reason in words) and no threads.

Stdlib only, in syntax Python 3.8 reads: gdb's own Python imports it too (``dotdbg/gdb/ingdb.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO


@dataclass(frozen=True)
class Frame:
    function: str
    file: str | None
    line: int | None
    native: bool


@dataclass(frozen=True)
class Thread:
    name: str | None
    id: int | None  # the interpreter's thread id (threading.get_ident), when known
    native_id: int | None  # the kernel's (the LWP gdb shows)
    idle: bool
    gil: bool | None  # holds the GIL; None when the dumper cannot tell
    frames: tuple[Frame, ...] = ()


@dataclass(frozen=True)
class StackRecord:
    host: str
    pid: int
    ppid: int | None
    rank: int | None
    local_rank: int | None
    launcher: str | None
    command: str
    source: str
    threads: tuple[Thread, ...] = field(default=())
    error: str | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StackRecord:
        threads = tuple(thread_from_dict(thread) for thread in data.get("threads") or ())
        return cls(**{**data, "threads": threads})

    @classmethod
    def from_json(cls, line: str) -> StackRecord:
        return cls.from_dict(json.loads(line))


def thread_from_dict(data: dict[str, Any]) -> Thread:
    frames = tuple(Frame(**frame) for frame in data.get("frames") or ())
    return Thread(**{**data, "frames": frames})


def write_lines(records: Iterable[StackRecord], stream: TextIO) -> None:
    for record in records:
        stream.write(record.to_json() + "\n")
        stream.flush()


def read_lines(lines: Iterable[str]) -> Iterator[StackRecord]:
    for line in lines:
        if line.strip():
            yield StackRecord.from_json(line)
