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


def read_history(path: Path) -> list[HistoryEntry]:
    """Entries of the history file at ``path``; a missing, unreadable or empty file is an error."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DotdbgError(
            f"no bash history at {path}",
            hint="bash writes it when an interactive shell exits (or on `history -a`); "
            "pass another file with --history FILE",
        ) from None
    except OSError as error:
        raise DotdbgError(f"cannot read {path}: {os.strerror(error.errno or 0)}") from None
    entries = parse_history(decode_history(data))
    if not entries:
        raise DotdbgError(
            f"bash history {path} has no commands",
            hint="use the shell for a while, run `history -a`, then try again",
        )
    return entries
