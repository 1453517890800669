"""Find where a key sits in TOML text, so errors can say ``file:line:col``.

tomllib gives values without positions. This scans the text the way a person reads it: table
headers (``[a.b]``, ``[[a.b]]``), ``key = value`` lines, and keys inside one-line inline tables.
It is a locator for messages, not a parser: when it cannot find a key it answers with the nearest
enclosing key it did find, then line 1.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_HEADER = r"^\s*\[\[?\s*(?P<name>[^\]]+?)\s*\]\]?\s*(?:#.*)?$"
_KEY = r"""^\s*(?P<key>(?:"(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_.\- ])+?)\s*="""


def _split_dotted(name: str) -> tuple[str, ...]:
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^.\s]+)', name)
    return tuple(_unescape(a) or b or c for a, b, c in parts)


_ESCAPE = r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)"
_ESCAPED = {
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "f": "\f",
    "r": "\r",
    "e": "\x1b",
    '"': '"',
    "\\": "\\",
}


def _unescape(basic: str) -> str:
    """The key a TOML basic string (``"\\\\C-x"``) stands for (``\\C-x``)."""
    return re.sub(_ESCAPE, _unescape_one, basic)


def _unescape_one(escape: re.Match[str]) -> str:
    code = escape[1]
    if len(code) == 1:
        return _ESCAPED.get(code, escape[0])
    number = int(code[1:], 16)
    return chr(number) if number <= 0x10FFFF else escape[0]


def _basic(key: str) -> str:
    """``key`` written as the inside of a TOML basic string, the way people write it."""
    return key.replace("\\", "\\\\").replace('"', '\\"')


def locate(text: str, path: Sequence[str]) -> tuple[int, int]:
    """1-based (line, column) of the key ``path`` (e.g. ``("aliases", "gs")``) in ``text``.

    An element of an array of tables is addressed by its index as a string:
    ``("cheat", "paths", "1", "name")``.
    """
    return find(text, path) or (1, 1)


def find(text: str, path: Sequence[str]) -> tuple[int, int] | None:
    """``locate``, but None when not even the first key of ``path`` is in ``text`` (a key
    found on line 1, column 1 is found: ``[functions.f]`` as a file's first line)."""
    best: tuple[int, int] | None = None
    best_depth = 0
    table: tuple[str, ...] = ()
    array_counts: dict[tuple[str, ...], int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        header = re.match(_HEADER, line)
        if header:
            table = _split_dotted(header["name"])
            if line.lstrip().startswith("[["):  # the n-th [[a.b]] is element "n" of a.b
                array_counts[table] = array_counts.get(table, -1) + 1
                table = (*table, str(array_counts[table]))
            depth = _common_prefix(table, path)
            if depth == len(table) and depth > best_depth:
                best, best_depth = (number, line.index("[") + 1), depth
            continue
        key = re.match(_KEY, line)
        if not key:
            continue
        full = table + _split_dotted(key["key"])
        if _common_prefix(table, path) < len(table):
            continue
        depth = _common_prefix(full, path)
        if depth in (len(full), len(path)) and depth > best_depth:
            best, best_depth = (number, key.start("key") + 1), depth
            inner = _locate_inline(line, path[depth:])
            if inner:
                best, best_depth = (number, inner[0]), depth + inner[1]
    return best


def _common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _locate_inline(line: str, rest: Sequence[str]) -> tuple[int, int] | None:
    """Column of the deepest of ``rest`` found inside an inline table on ``line``."""
    found: tuple[int, int] | None = None
    start = line.find("=") + 1
    for depth, key in enumerate(rest, start=1):
        spellings = (f'"{_basic(key)}"', f"'{key}'", key)
        either = "|".join(re.escape(spelling) for spelling in spellings)
        match = re.compile(rf"[{{,]\s*(?:{either})\s*=").search(line, start)
        if not match:
            break
        column = match.start() + 1 + (len(match.group()) - len(match.group().lstrip("{, \t")))
        found = (column, depth)
        start = match.end()
    return found
