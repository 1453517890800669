"""Loading every sheet of every cheatpath, through a cache keyed by file mtime and size.

A lookup stats each sheet file and re-reads only those that changed, so a 300-sheet corpus
costs one ``marshal.load`` rather than 300 reads and parses. The cache holds only tuples,
strings and ints (marshal's fast subset); a missing, stale or corrupt cache is rebuilt.
A file that cannot be used is cached as a list: where in it (``:line:col``) and what is wrong.
"""

from __future__ import annotations

import marshal
import os
import sys

from dotdbg.cheat import formats
from dotdbg.cheat.cheatpaths import Cheatpath, PathsError, read_configured_paths
from dotdbg.cheat.sheets import SheetError, decode, parse

CACHE_NAME = "cheat-index.marshal"
# Bump when the parser's output changes so old caches are not trusted.
CACHE_FORMAT = 4
MAX_SHEET_BYTES = 16 * 2**20

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from dotdbg.cheat.sheets import Entry

    T = TypeVar("T")

    # syntax, tags, entries, dotdbg's own keys as (key, value) pairs
    SheetRecord = tuple[str, list[str], list[Entry], list[tuple[str, str]]]
    Skipped = list[str]  # [":line:col" or "", the problem]: why a file is not used
    PathRecord = tuple[str, str, bool]
    Warn = Callable[[str, str], None]  # (file, problem)


class SheetFile:
    """One sheet file of one cheatpath, parsed."""

    __slots__ = ("entries", "label", "name", "path", "rank", "readonly", "syntax", "tags")

    def __init__(
        self, name: str, path: str, cheatpath: Cheatpath, rank: int, record: SheetRecord
    ) -> None:
        self.name = name
        self.path = path
        self.label = cheatpath.label
        self.readonly = cheatpath.readonly
        self.rank = rank
        self.syntax, self.tags, self.entries, _ = record


class Index:
    """The cache file, read once and written back only when something changed."""

    def __init__(self, cache_file: str) -> None:
        self.cache_file = cache_file
        self.old = _read_cache(cache_file)
        self.new: dict[str, tuple[int, int, object]] = {}

    def lookup(self, path: str, stamp: tuple[int, int], compute: Callable[[], T]) -> T:
        cached = self.old.get(path)
        fresh = cached is not None and (cached[0], cached[1]) == stamp
        value = cached[2] if fresh and cached is not None else compute()
        self.new[path] = (stamp[0], stamp[1], value)
        return value  # type: ignore[return-value]  # the cache holds what compute returned

    def save(self) -> None:
        if self.new == self.old:
            return
        try:
            os.makedirs(os.path.dirname(self.cache_file), exist_ok=True)
            temp = f"{self.cache_file}.{os.getpid()}.tmp"
            with open(temp, "wb") as file:
                marshal.dump((CACHE_FORMAT, sys.hexversion, self.new), file)
            os.replace(temp, self.cache_file)
        except OSError:
            pass  # a read-only cache dir only costs speed


def _read_cache(cache_file: str) -> dict[str, tuple[int, int, object]]:
    try:
        with open(cache_file, "rb") as file:
            # loads(read()): marshal.load(file) reads object by object, ten times slower here.
            cache_format, version, files = marshal.loads(file.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if cache_format != CACHE_FORMAT or version != sys.hexversion or not isinstance(files, dict):
        return {}
    return files


def _stamp(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


# -- sheets ----------------------------------------------------------------------------------
def sheet_files(directory: str) -> list[tuple[str, str]]:
    """(name, path) of every sheet below ``directory``. Like cheat, names with a dot and hidden
    entries are skipped, and a sheet in a subfolder is named ``folder/name``; tldr pages
    (``*.md``) and navi cheats (``*.cheat``) are named by their file name alone, and tldr pages
    of another platform (``osx/`` on Linux) are left out."""
    found: list[tuple[str, str]] = []
    _walk(directory, "", found)
    return found


def _walk(directory: str, prefix: str, found: list[tuple[str, str]]) -> None:
    try:
        children = sorted(os.scandir(directory), key=lambda child: child.name)
    except OSError:
        return
    for child in children:
        if child.name.startswith("."):
            continue
        if child.is_dir(follow_symlinks=False):  # like cheat; and a linked loop cannot recurse
            if "." not in child.name and not formats.foreign_platform(child.name):
                _walk(child.path, f"{prefix}{child.name}/", found)
            continue
        kind = formats.format_of(child.name)
        if kind and child.is_file():
            name = prefix + child.name if kind == "cheat" else formats.sheet_name(child.name)
            found.append((name, child.path))


def read_record(path: str) -> SheetRecord | Skipped:
    """What the cache keeps for one file: the parsed sheet, or where and why it was skipped
    (nothing at all for a file that is no sheet, like a README.md among tldr pages)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_SHEET_BYTES + 1)
        if len(data) > MAX_SHEET_BYTES:
            raise SheetError(f"larger than {MAX_SHEET_BYTES // 2**20} MiB: split it up")
        sheet = PARSERS[formats.format_of(os.path.basename(path))](decode(data))
    except formats.NotASheet:
        return []
    except SheetError as error:
        return [error.location, str(error)]
    except OSError as error:
        return ["", f"cannot be read: {error.strerror}"]
    return (sheet.syntax, sheet.tags, sheet.entries, sorted(sheet.extra.items()))


PARSERS = {"cheat": parse, "tldr": formats.parse_tldr, "navi": formats.parse_navi}


def load_sheets(cheatpaths: list[Cheatpath], index: Index, warn: Warn) -> list[SheetFile]:
    """Every readable sheet file in merge order; skipped files are reported through ``warn``."""
    loaded: list[SheetFile] = []
    for rank, cheatpath in enumerate(cheatpaths):
        for name, path in sheet_files(cheatpath.directory):
            stamp = _stamp(path)
            if stamp is None:
                continue
            record = index.lookup(path, stamp, _reader(path))
            if isinstance(record, list):
                if record:
                    location, problem = record
                    warn(path + location, f"{problem}; sheet skipped")
            else:
                loaded.append(SheetFile(name, path, cheatpath, rank, record))
    return loaded


def _reader(path: str) -> Callable[[], SheetRecord | Skipped]:
    return lambda: read_record(path)


def load_configured(config_file: str, index: Index, warn: Warn) -> list[Cheatpath]:
    """The ``[[cheat.paths]]`` of the config file, cached like a sheet."""
    stamp = _stamp(config_file)
    if stamp is None:
        return []
    record = index.lookup(config_file, stamp, lambda: _configured_record(config_file))
    if isinstance(record, tuple):
        location, problem = record
        warn(config_file + location, f"{problem}; its cheat paths are ignored")
        return []
    return [Cheatpath(*fields) for fields in record]


def _configured_record(config_file: str) -> list[PathRecord] | tuple[str, str]:
    """The configured paths, or where (``:line:col`` or "") and what is wrong with them."""
    try:
        paths = read_configured_paths(config_file)
    except PathsError as error:
        hint = error.hint.splitlines()[0]
        return _located(config_file, error.key_path), f"{error} (hint: {hint})"
    except (OSError, ValueError) as error:
        return "", " ".join(str(error).split())
    return [(path.label, path.directory, path.readonly) for path in paths]


def _located(config_file: str, key_path: tuple[str, ...]) -> str:
    """``:line:col`` of a key: only when a config is wrong, so tomlpos's ``re`` is affordable."""
    from dotdbg.tomlpos import locate

    try:
        with open(config_file, encoding="utf-8") as file:
            line, column = locate(file.read(), key_path)
    except (OSError, ValueError):
        return ""
    return f":{line}:{column}"
