"""Reading bash's history file the way bash itself reads it back.

Bash writes one command per line. With ``HISTTIMEFORMAT`` set it writes a ``#<epoch>`` line before
each command, and then a command of several lines (``shopt -s lithist``) keeps its newlines: every
line up to the next timestamp belongs to it. Without timestamps each line is one entry. A file
that starts without them and gets them later (HISTTIMEFORMAT set after a while, with histappend)
is read as readline reads it: the ``#<epoch>`` lines are timestamps, and each line is one entry.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths

# Readline's test (histfile.c, HIST_TIMESTAMP_START): the comment character, then a digit.
_TIMESTAMP = re.compile(r"#(\d+)")


@dataclass(frozen=True)
class HistoryEntry:
    command: str
    timestamp: int | None = None


def history_path(paths: Paths, env: Mapping[str, str]) -> Path:
    """``$HISTFILE`` when the environment has it, else ``~/.bash_history``."""
    histfile = env.get("HISTFILE", "")
    if histfile:
        return Path(histfile).expanduser()
    return paths.home / ".bash_history"


def decode_history(data: bytes) -> str:
    """Bytes of a history file as text.

    Invalid UTF-8 (a pasted binary, another locale) becomes U+FFFD: such a command can still be
    counted and shown, and the suggester refuses to propose it, because no alias would reproduce
    the original bytes. ``surrogateescape`` would keep the bytes but crash every later print or
    TOML write of them.
    """
    return data.decode("utf-8", errors="replace")


def parse_history(text: str) -> list[HistoryEntry]:
    """Entries of a history file, oldest first; empty lines are skipped as bash skips them."""
    lines = text.split("\n")  # only newline: bash keeps a carriage return inside the command
    has_timestamps = bool(lines) and _TIMESTAMP.match(lines[0]) is not None
    entries: list[HistoryEntry] = []
    pending_stamp: int | None = None
    continues_entry = False
    for line in lines:
        if not line:
            continue
        # A timestamp line is never a command, even in a file that does not start with one
        # (HISTTIMEFORMAT set later, with histappend); only such a file joins lines.
        stamp = _TIMESTAMP.match(line)
        if stamp is not None:
            pending_stamp, continues_entry = int(stamp.group(1)), False
        elif continues_entry:
            last = entries[-1]
            entries[-1] = HistoryEntry(f"{last.command}\n{line}", last.timestamp)
        else:
            entries.append(HistoryEntry(line, pending_stamp))
            pending_stamp, continues_entry = None, has_timestamps
    return entries


# A timestamp line and its newline, in the bytes of a file: `count_history` splits on them.
_STAMP_LINE = re.compile(rb"^#\d[^\n]*(?:\n|\Z)", re.M)
CHUNK = 1 << 20


def count_history(path: Path, chunk: int = CHUNK) -> tuple[Counter[str], int]:
    """How often each command of the history file at ``path`` appears, and how many entries
    it has, read as ``read_history`` reads them.

    For `dotdbg suggest`, which only counts: a history of a million entries as a list of
    entries took 4 s and 370 MB (issue 27). Here the file is read in blocks cut where an entry
    starts, each block is split and counted by C (`re.split`, `Counter.update`), and only the
    distinct pieces, a few thousand, are decoded and tidied in Python.
    """
    pieces: Counter[bytes] = Counter()
    try:
        with open(path, "rb") as history:
            first = history.read(chunk)
            while 0 < len(first) < 2 and (more := history.read(chunk)):
                first += more  # two bytes tell whether the first line is a timestamp
            stamped = re.match(rb"#\d", first) is not None
            carry = b""
            block = first
            while block:
                complete, carry = _cut(carry + block, stamped)
                pieces.update(_pieces(complete, stamped))
                block = history.read(chunk)
            pieces.update(_pieces(carry, stamped))
    except FileNotFoundError:
        raise _no_history(path) from None
    except OSError as error:
        raise DotdbgError(f"cannot read {path}: {os.strerror(error.errno or 0)}") from None
    counts: Counter[str] = Counter()
    for piece, uses in pieces.items():
        command = _command(piece, stamped)
        if command:
            counts[command] += uses
    if not counts:
        raise _empty_history(path)
    return counts, sum(counts.values())


def _cut(block: bytes, stamped: bool) -> tuple[bytes, bytes]:
    """``block`` as the whole entries it holds and the start of one that may go on."""
    if not stamped:
        end = block.rfind(b"\n") + 1
        return block[:end], block[end:]
    start = len(block)
    while (start := block.rfind(b"\n#", 0, start)) != -1:
        if block[start + 2 : start + 3].isdigit():
            return block[: start + 1], block[start + 1 :]
    return b"", block  # one entry so far: it goes on in the next block


def _pieces(block: bytes, stamped: bool) -> list[bytes]:
    return _STAMP_LINE.split(block) if stamped else block.split(b"\n")


def _command(piece: bytes, stamped: bool) -> str:
    """The command a piece holds: empty lines dropped, as bash skips them; a timestamp line
    between entries of an unstamped file is no command."""
    text = decode_history(piece)
    if stamped:
        return "\n".join(line for line in text.split("\n") if line)
    return "" if _TIMESTAMP.match(text) else text


def read_history(path: Path) -> list[HistoryEntry]:
    """Entries of the history file at ``path``; a missing, unreadable or empty file is an error."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise _no_history(path) from None
    except OSError as error:
        raise DotdbgError(f"cannot read {path}: {os.strerror(error.errno or 0)}") from None
    entries = parse_history(decode_history(data))
    if not entries:
        raise _empty_history(path)
    return entries


def _no_history(path: Path) -> DotdbgError:
    return DotdbgError(
        f"no bash history at {path}",
        hint="bash writes it when an interactive shell exits (or on `history -a`); "
        "pass another file with --history FILE",
    )


def _empty_history(path: Path) -> DotdbgError:
    return DotdbgError(
        f"bash history {path} has no commands",
        hint="use the shell for a while, run `history -a`, then try again",
    )
