"""The tables of each config text, remembered by that exact text (issue 27).

Importing tomllib (its regular expressions, datetime, string) is about a fifth of what
`dotdbg status` costs, for a config that rarely changes. So the commands that write (under the
run lock, as the check cache ``home.checks``) keep the tables of the config they used in
``Paths.parse_cache_file``; a later run whose files hold exactly one of those texts reads its
tables from there, and anything else (an edited file, another Python, a file that does not
verify) is parsed again. Only the parse is remembered: every check of the config still runs on
what comes back, and nothing a user sees depends on the file being there.

The file: a first line naming the format, the Python and the sha256 of the rest; the rest,
``marshal`` of {text: marshal of its tables}. Each lookup unmarshals a fresh copy, so a caller
may change the tables it gets (``limits.cut_huge`` does).
"""

from __future__ import annotations

import marshal
import sys

from dotdbg.common.sha256 import sha256

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any

    from dotdbg.paths import Paths

# a new Python may parse or marshal differently: its own file
HEADER = f"dotdbg-parsed 1 {sys.version.split()[0]} ".encode()

_known: dict[str, bytes] = {}  # text → marshal of its tables: the file's, and this run's parses
_recalled: set[Path] = set()  # the files taken in already: an edit loads its config 4 times


def recall(paths: Paths) -> None:
    """Take in the texts the file holds, unless it is missing or does not verify, or others
    than the user can write its folder (marshal is not meant for input made to harm: a torn
    or changed file stops at the digest, a planted one at the folder's owner and mode). Once
    a run: a later read could only add tables that a parse gives as well."""
    if paths.parse_cache_file in _recalled:
        return
    _recalled.add(paths.parse_cache_file)
    try:
        folder = paths.fs.stat(paths.state_dir)
        if folder is None or not folder.private_to(paths.fs.euid()):
            return
        raw = paths.fs.read_bytes(paths.parse_cache_file, follow=False)
    except OSError:
        return
    _known.update(_entries(raw or b""))


def _entries(raw: bytes) -> dict[str, bytes]:
    head, _, body = raw.partition(b"\n")
    if head != HEADER + sha256(body).hexdigest().encode():
        return {}
    try:
        found = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        text: tables
        for text, tables in found.items()
        if isinstance(text, str) and isinstance(tables, bytes)
    }


def tables(text: str) -> dict[str, Any] | None:
    """The tables of ``text`` when they are known (a copy of its own); None otherwise."""
    known = _known.get(text)
    if known is None:
        return None
    found = marshal.loads(known)
    return found if isinstance(found, dict) else None


def note(text: str, parsed: dict[str, Any]) -> None:
    """The tables the TOML reader gave for ``text``, before anyone changes them. A value
    marshal cannot hold (a TOML date) leaves the text out: it is parsed each time."""
    try:
        _known[text] = marshal.dumps(parsed)
    except ValueError:
        pass


def remember(paths: Paths, texts: Iterable[str]) -> None:
    """Keep the tables of ``texts`` (those of the config just used) and no other. Under the
    run lock; a failure to write only costs the next run a parse."""
    import contextlib

    kept = {text: _known[text] for text in texts if text in _known}
    try:
        old = paths.fs.read_bytes(paths.parse_cache_file, follow=False)
    except OSError:
        old = None
    if kept == _entries(old or b""):
        return
    body = marshal.dumps(kept)
    data = HEADER + sha256(body).hexdigest().encode() + b"\n" + body
    with contextlib.suppress(OSError):
        paths.fs.write_atomic(paths.parse_cache_file, data, 0o600, follow=False)
