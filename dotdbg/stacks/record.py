"""The process stack record: one JSON object per line per process.

``dotdbg pyspy --json`` and ``dotdbg gdb --json`` print these; ``dotdbg stacks`` merges them,
whatever their source. Frames are innermost first, as py-spy and gdb print them. ``error`` is
set, and ``threads`` empty, when the process could not be dumped (the reason in words).

Stdlib only, and no syntax newer than Python 3.8 outside annotations: the Python inside gdb
imports it too (``dotdbg/gdb/ingdb.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass

TYPE_CHECKING = False  # typing costs milliseconds of every node's start; mypy knows this
if TYPE_CHECKING:
    from typing import IO, Any

SOURCES = ("py-spy", "pystack", "gdb")


@dataclass(frozen=True)
class Frame:
    function: str
    file: str | None
    line: int | None
    native: bool = False


@dataclass(frozen=True)
class Thread:
    name: str | None
    id: int | None
    native_id: int | None
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
    threads: tuple[Thread, ...] = ()
    error: str | None = None
    world_size: int | None = None  # as the process's launcher said: how many ranks to expect

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

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


def from_dict(data: dict[str, Any]) -> StackRecord:
    try:
        threads = tuple(thread_from_dict(thread) for thread in data.get("threads") or ())
        return StackRecord(
            host=str(data["host"]),
            pid=int(data["pid"]),
            ppid=_optional_int(data.get("ppid")),
            rank=_optional_int(data.get("rank")),
            local_rank=_optional_int(data.get("local_rank")),
            launcher=data.get("launcher"),
            command=str(data.get("command") or ""),
            source=str(data.get("source") or "py-spy"),
            threads=threads,
            error=data.get("error"),
            world_size=_optional_int(data.get("world_size")),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"not a stack record ({type(error).__name__}: {error})") from None


def thread_from_dict(data: dict[str, Any]) -> Thread:
    return Thread(
        name=data.get("name"),
        id=_optional_int(data.get("id")),
        native_id=_optional_int(data.get("native_id")),
        idle=bool(data.get("idle")),
        gil=data.get("gil"),
        frames=tuple(_frame(frame) for frame in data.get("frames") or ()),
    )


# The same frame recurs in every rank's stack: one shared object for each saves building
# (and hashing) hundreds of thousands of equal ones when a whole job is merged.
_frames: dict[tuple[Any, ...], Frame] = {}
_FRAME_CACHE_LIMIT = 200_000


def _frame(data: dict[str, Any]) -> Frame:
    key = (data["function"], data.get("file"), data.get("line"), data.get("native", False))
    frame = _frames.get(key)
    if frame is None:
        line = _optional_int(key[2])
        frame = Frame(str(key[0]), key[1], line, bool(key[3]))
        if len(_frames) < _FRAME_CACHE_LIMIT:
            _frames[key] = frame
    return frame


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def from_json(line: str) -> StackRecord:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    if not isinstance(data, dict):
        raise RecordError("not a JSON object")
    return from_dict(data)


def write(records: Iterable[StackRecord], out: IO[str]) -> None:
    for record in records:
        out.write(record.to_json() + "\n")


def read(lines: Iterable[str], where: str = "") -> Iterator[StackRecord]:
    """Records from JSON Lines; blank lines are skipped, a bad one raises with its line number."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield from_json(line)
        except RecordError as error:
            raise RecordError(f"{where}:{number}: {error}" if where else str(error)) from None
