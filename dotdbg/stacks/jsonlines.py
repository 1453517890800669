"""Stack records from JSON Lines, as ``dotdbg stacks --from FILE`` and a job's nodes send them.

The ranks of a hung job mostly share a few stacks, so most lines differ only in their identity
(host, pid, rank): each distinct ``threads`` text is parsed once, and only the rest of a line
is read. The first of three ways that applies reads a line:

* as ``record.write`` prints it (those fields in that order, numbers whole, strings plain or
  with JSON's escapes), one pattern matches the line's identity whole, and that match proves
  each field's type; its threads are the previous line's when their text is the same, byte
  for byte, else those of the same text seen before, else parsed and checked;
* with no object or list opening outside its threads, the rest of the line is decoded as JSON
  and checked field by field (``record.from_dict``);
* else the line is parsed whole (``record.from_json``), and its error names the wrong field.

The first way rejects nothing: a line it cannot take goes on to the checked ways.
"""

from __future__ import annotations

import json
import re

from dotdbg.stacks.record import (
    RecordError,
    StackRecord,
    Thread,
    from_dict,
    from_json,
    interned,
    threads_from_list,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

# a JSON string (without its quotes) and a whole number exactly as Python's json reads them
_PLAIN = r'[^"\\\x00-\x1f]*'
_STRING = '"(' + _PLAIN + r'(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})' + _PLAIN + ')*)"'
_TEXT = "(?:null|" + _STRING + ")"
_NUMBER = "(-?(?:0|[1-9][0-9]{0,17}))"
_WHOLE = "(?:null|" + _NUMBER + ")"
_HEAD = re.compile(
    (
        r'\{"host":' + _STRING + ',"pid":' + _NUMBER + ',"ppid":' + _WHOLE + ',"rank":' + _WHOLE
        + ',"local_rank":' + _WHOLE + ',"launcher":' + _TEXT + ',"command":' + _TEXT
        + ',"source":' + _TEXT + r',"threads":(?=\[)'
    ).encode()
)  # fmt: skip
_TAIL = re.compile((',"error":' + _TEXT + ',"world_size":' + _WHOLE + r"\}[ \t\r\n]*").encode())
_LIMIT = 10_000  # distinct stacks, and distinct strings, remembered


class _Reader:
    """Lines to records, remembering the stacks (and strings) of the lines before."""

    def __init__(self) -> None:
        self._seen: dict[str | bytes, tuple[Thread, ...]] = {}
        self._last: tuple[bytes, tuple[Thread, ...]] = (b"", ())
        self._texts: dict[bytes, str] = {}

    def record(self, line: str) -> StackRecord:
        try:
            found = self._matched(line.encode())
        except UnicodeEncodeError:  # a lone surrogate: the checked way says where
            found = None
        return self._checked(line) if found is None else found

    def record_bytes(self, line: bytes) -> StackRecord:
        found = self._matched(line)
        return self._checked(line) if found is None else found

    def _matched(self, line: bytes) -> StackRecord | None:
        """The record of a line as ``record.write`` prints it; None for any other."""
        head = _HEAD.match(line)
        rest = None if head is None else self._rest(line, head.end())
        if head is None or rest is None:
            return None
        try:
            return self._built(head.groups(), rest[0].groups(), rest[1])
        except UnicodeDecodeError:  # the checked way says where
            return None

    def _rest(self, line: bytes, start: int) -> tuple[re.Match[bytes], tuple[Thread, ...]] | None:
        """The fields after the threads, and the threads: the previous line's where the text
        from ``start`` on is theirs."""
        text, threads = self._last
        if line.startswith(text, start):
            tail = _TAIL.fullmatch(line, start + len(text))
            if tail is not None:
                return tail, threads
        end = line.rfind(b'],"error":', start)
        tail = _TAIL.fullmatch(line, end + 1) if end > 0 else None
        if tail is None:
            return None
        text = line[start : end + 1]
        found = self._threads(text)
        if found is None:
            return None
        self._last = text, found
        return tail, found

    def _built(
        self, head: tuple[Any, ...], tail: tuple[Any, ...], threads: tuple[Thread, ...]
    ) -> StackRecord:
        """What ``record.from_dict`` makes of these fields, which the pattern has checked."""
        host, pid, ppid, rank, local_rank, launcher, command, source = head
        error, world_size = tail
        return StackRecord(
            self._text(host),
            int(pid),
            None if ppid is None else int(ppid),
            None if rank is None else int(rank),
            None if local_rank is None else int(local_rank),
            None if launcher is None else self._text(launcher),
            self._text(command) if command else "",
            self._text(source) if source else "py-spy",
            threads,
            None if error is None else _unquoted(error),
            None if world_size is None else int(world_size),
        )

    def _text(self, raw: bytes) -> str:
        found = self._texts.get(raw)
        if found is None:
            found = interned(_unquoted(raw))
            if len(self._texts) < _LIMIT:
                self._texts[raw] = found
        return found

    def _threads(self, text: str | bytes) -> tuple[Thread, ...] | None:
        """The threads of a ``threads`` text, parsed once; None when it is not JSON."""
        threads = self._seen.get(text)
        if threads is None:
            try:  # json.loads would let bytes pass encoded surrogates, which are not UTF-8
                value = json.loads(text.decode() if isinstance(text, bytes) else text)
            except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
                return None
            threads = threads_from_list(value)
            if len(self._seen) < _LIMIT:
                self._seen[text] = threads
        return threads

    def _checked(self, line: str | bytes) -> StackRecord:
        """The rest of a line apart from its threads where no object or list opens outside
        them, and no second "threads" is in the rest; else the whole line."""
        start, end = _threads_span(line)
        if start < 0 or end < start or not _flat(line, start, end):
            return from_json(_decoded(line))
        if isinstance(line, str):
            rest = line[:start] + line[end + 1 :]
        else:
            try:
                rest = (line[:start] + line[end + 1 :]).decode()
            except UnicodeDecodeError:
                raise _not_utf8(line) from None
        threads = self._threads(line[start + 11 : end + 1])
        if threads is None:
            return from_json(_decoded(line))  # its message, from the whole line
        try:
            data = json.loads(rest)
        except json.JSONDecodeError:
            return from_json(_decoded(line))
        if not isinstance(data, dict) or "threads" in data:
            return from_json(_decoded(line))
        return from_dict(data, threads)


def _threads_span(line: str | bytes) -> tuple[int, int]:
    """Where ``,"threads":[`` starts and where the last ``],"error":`` does."""
    if isinstance(line, str):
        return line.find(',"threads":['), line.rfind('],"error":')
    return line.find(b',"threads":['), line.rfind(b'],"error":')


def _unquoted(raw: bytes) -> str:
    """A JSON string's text from between its quotes, as json reads it."""
    text = raw.decode()
    return json.loads(f'"{text}"') if "\\" in text else text


def _flat(line: Any, start: int, end: int) -> bool:
    """No object or list opens before the threads or after them (``line``: str or bytes)."""
    brace, bracket = ("{", "[") if isinstance(line, str) else (b"{", b"[")
    return bool(
        line.find(brace, 1, start) < 0
        and line.find(bracket, 1, start) < 0
        and line.find(brace, end + 1) < 0
        and line.find(bracket, end + 1) < 0
    )


def _decoded(line: str | bytes) -> str:
    if isinstance(line, str):
        return line
    try:
        return line.decode()
    except UnicodeDecodeError:
        raise _not_utf8(line) from None


def _not_utf8(line: bytes) -> RecordError:
    try:
        line.decode()
    except UnicodeDecodeError as error:
        bad = line[error.start : error.start + 1].hex()
        return RecordError(f"not UTF-8 (byte 0x{bad} at column {error.start + 1})")
    return RecordError("not UTF-8")


def read(lines: Iterable[str | bytes], where: str = "") -> Iterator[StackRecord]:
    """Records from JSON Lines (text, or UTF-8 bytes as a file holds them); blank lines are
    skipped, a bad one raises with its line number."""
    reader = _Reader()
    for number, line in enumerate(lines, 1):
        if not line or line.isspace():  # not strip(): that copies a line of kilobytes
            continue
        try:
            if isinstance(line, bytes):
                yield reader.record_bytes(line)
            else:
                yield reader.record(line)
        except RecordError as error:
            raise RecordError(f"{where}:{number}: {error}" if where else str(error)) from None
