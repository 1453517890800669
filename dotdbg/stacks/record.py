"""The process stack record: one JSON object per line per process.

``dotdbg pyspy --json`` and ``dotdbg gdb --json`` print these; ``dotdbg stacks`` merges them,
whatever their source. Frames are innermost first, as py-spy and gdb print them. ``error`` is
set, and ``threads`` empty, when the process could not be dumped (the reason in words).

Stdlib only, and no syntax newer than Python 3.8 outside annotations: the Python inside gdb
imports it too (``dotdbg/gdb/ingdb.py``).
"""

from __future__ import annotations

import json
from collections import namedtuple
from collections.abc import Iterable
from dataclasses import asdict, dataclass

TYPE_CHECKING = False  # typing costs milliseconds of every node's start; mypy knows this
if TYPE_CHECKING:
    from typing import IO, Any

SOURCES = ("py-spy", "pystack", "gdb")


@dataclass(frozen=True)
class Frame:
    """One frame of a stack; ``native`` for a C/C++ one."""

    function: str
    file: str | None
    line: int | None
    native: bool = False


@dataclass(frozen=True)
class Thread:
    """One thread's stack, innermost frame first."""

    name: str | None
    id: int | None
    native_id: int | None
    idle: bool
    gil: bool | None  # holds the GIL; None when the dumper cannot tell
    frames: tuple[Frame, ...] = ()


if TYPE_CHECKING:
    from typing import NamedTuple
else:

    class _NamedTupleMaker(type):
        """``class X(NamedTuple)`` as typing makes it (a tuple subclass from the annotated
        fields, their defaults and the methods), without importing typing."""

        def __new__(cls, name, bases, body):
            if not bases:
                return super().__new__(cls, name, bases, body)
            fields = list(body.get("__annotations__", {}))
            defaults = [body[field] for field in fields if field in body]
            made = namedtuple(name, fields, defaults=defaults, module=body["__module__"])
            for key, value in body.items():
                if key not in fields and key not in _MADE_BY_NAMEDTUPLE:
                    setattr(made, key, value)
            return made

    _MADE_BY_NAMEDTUPLE = {"__module__", "__qualname__", "__slots__"}

    class NamedTuple(metaclass=_NamedTupleMaker):
        pass


class StackRecord(NamedTuple):
    """One process's stacks and who it is; ``error`` (and no threads) when it could not be
    dumped. A named tuple, not a dataclass: a million of them are read for a job's merge, and a
    tuple is made in a fifth of the time (``record._replace(...)`` is a changed copy)."""

    host: str
    pid: int
    ppid: int | None
    rank: int | None
    local_rank: int | None
    launcher: str | None
    command: str
    source: str
    threads: tuple[Thread, ...] = ()
    error: str | None = None
    world_size: int | None = None  # as the process's launcher said: how many ranks to expect

    def to_json(self) -> str:
        fields = self._asdict()
        fields["threads"] = [asdict(thread) for thread in self.threads]
        return json.dumps(fields, separators=(",", ":"))

    @property
    def label(self) -> str:
        """``rank 3`` where the process has a rank, else ``host:pid``."""
        return f"rank {self.rank}" if self.rank is not None else f"{self.host}:{self.pid}"


TITLE_WIDTH = 72  # without a terminal; on one (or with $COLUMNS), its width


def title_width() -> int:
    import os

    text = os.environ.get("COLUMNS", "")
    if text.isdigit() and int(text) > 0:
        return int(text)
    try:
        return os.get_terminal_size(1).columns
    except OSError:
        return TITLE_WIDTH


def title(record: StackRecord) -> str:
    """The one title of a process in every dump dotdbg prints (pyspy, stacks, gdb):
    ``── pid 4711 · rank 3 · train.py --lr 1 · node1 · py-spy ─────``."""
    parts = [f"pid {record.pid}"]
    if record.rank is not None:
        parts.append(f"rank {record.rank}")
    parts += [record.command, record.host, record.source]
    return f"── {' · '.join(part for part in parts if part)} ".ljust(title_width(), "─")


class RecordError(ValueError):
    """A line that is not a stack record; the message says which field is wrong."""


MAX_FRAMES = 5_000  # per thread: Python's own recursion limit is 1,000 frames


def _whole(value: Any, name: str, optional: bool = True) -> int | None:
    """A whole number (or its decimal text, as environments hold ranks)."""
    if type(value) is int or (value is None and optional):  # bool is not: True is no pid
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{name} is {_shown(value)}, not a whole number")
    return value


def _text(value: Any, name: str, optional: bool = True) -> str | None:
    if (value is None and optional) or isinstance(value, str):
        return value
    raise RecordError(f"{name} is {_shown(value)}, not text")


def _flag(value: Any, name: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise RecordError(f"{name} is {_shown(value)}, not true or false")


def _items(value: Any, name: str) -> list[dict[str, Any]]:
    """A list of JSON objects (absent or null: none)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise RecordError(f"{name} is not a list of objects")
    return value


def _shown(value: Any) -> str:
    text = json.dumps(value)  # Infinity, NaN and nested values as the record wrote them
    return text if len(text) <= 40 else text[:39] + "…"


def from_dict(data: dict[str, Any], threads: tuple[Thread, ...] | None = None) -> StackRecord:
    """The record of one JSON object (``threads``: already read from it); RecordError names
    the first field that is wrong."""
    if threads is None:
        threads = threads_from_list(data.get("threads"))
    host = _text(data.get("host"), "host", optional=False)
    return StackRecord(
        host=interned(host),
        pid=_whole(data.get("pid"), "pid", optional=False),  # type: ignore[arg-type]
        ppid=_whole(data.get("ppid"), "ppid"),
        rank=_whole(data.get("rank"), "rank"),
        local_rank=_whole(data.get("local_rank"), "local_rank"),
        launcher=interned(_text(data.get("launcher"), "launcher")),
        command=interned(_text(data.get("command"), "command") or ""),
        source=interned(_text(data.get("source"), "source") or "py-spy"),
        threads=threads,
        error=_text(data.get("error"), "error"),
        world_size=_whole(data.get("world_size"), "world_size"),
    )


def threads_from_list(value: Any) -> tuple[Thread, ...]:
    return tuple(thread_from_dict(item) for item in _items(value, "threads"))


def thread_from_dict(data: dict[str, Any]) -> Thread:
    frames = _items(data.get("frames"), "a thread's frames")
    if len(frames) > MAX_FRAMES:
        raise RecordError(f"a thread has {len(frames)} frames (at most {MAX_FRAMES} are read)")
    return Thread(
        name=_text(data.get("name"), "a thread's name"),
        id=_whole(data.get("id"), "a thread's id"),
        native_id=_whole(data.get("native_id"), "a thread's native_id"),
        idle=bool(_flag(data.get("idle"), "a thread's idle")),
        gil=_flag(data.get("gil"), "a thread's gil"),
        frames=tuple(_frame(frame) for frame in frames),
    )


# The same frame recurs in every rank's stack, and so do host names and commands: one shared
# object for each saves building (and hashing) millions of equal ones when a job is merged.
_frames: dict[tuple[Any, ...], Frame] = {}
_strings: dict[str, str] = {}
_CACHE_LIMIT = 200_000


def interned(text: str | None) -> Any:
    if text is None:
        return None
    found = _strings.get(text)
    if found is None and len(_strings) < _CACHE_LIMIT:
        found = _strings[text] = text
    return found or text


def _frame(data: dict[str, Any]) -> Frame:
    key = (data.get("function"), data.get("file"), data.get("line"), data.get("native", False))
    try:
        frame = _frames.get(key)
    except TypeError:  # a list or an object where a value belongs
        frame = None
    if frame is None:
        frame = Frame(
            _text(key[0], "a frame's function", optional=False),  # type: ignore[arg-type]
            _text(key[1], "a frame's file"),
            _whole(key[2], "a frame's line"),
            bool(_flag(key[3], "a frame's native")),
        )
        if len(_frames) < _CACHE_LIMIT:
            _frames[key] = frame
    return frame


def from_json(line: str) -> StackRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    except RecursionError:
        raise RecordError("not a stack record: JSON nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError("not a JSON object")
    return from_dict(data)


def write(records: Iterable[StackRecord], out: IO[str]) -> None:
    for record in records:
        out.write(record.to_json() + "\n")
