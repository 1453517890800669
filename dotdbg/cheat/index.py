"""Finding and loading the sheets of every cheatpath, through the cache (dotdbg.cheat.cache).

``Catalog`` answers the three questions a lookup asks, each as cheaply as it can: which sheet
names exist (directory listings and the cache's notes on each file, no sheet decoded), the
sheets of one name (only their files decoded), and every sheet (for a search or a listing).
A file that cannot be used is cached as a list: where in it (``:line:col``) and what is wrong.
"""

from __future__ import annotations

import os

from dotdbg.cheat.cache import (
    SHEET,
    SKIPPED,
    Shelf,
    cache_file,
    folder_mtime,
    kept_mtime,
    remembered,
)
from dotdbg.cheat.cheatpaths import Cheatpath, PathsError, read_configured_paths

# Bounds that keep one huge or deep file tree from stalling every lookup (and --lint): a larger
# sheet is skipped, a longer one cut, a deeper folder left out, each with a warning.
MAX_SHEET_BYTES = 4 * 2**20
MAX_ENTRIES = 2000
MAX_DEPTH = 16  # folders below a cheat path; tldr pages sit 2 deep, cheat's sheets 1
CUT = "dotdbg:cut"  # in a record's own keys: which entries were left out (no front matter key
# can hold a colon, so no sheet can set it)

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from dotdbg.cheat.sheets import Entry

    # syntax, tags, entries, dotdbg's own keys as (key, value) pairs
    SheetRecord = tuple[str, list[str], list[Entry], list[tuple[str, str]]]
    # the same and the sheet's text in lower case, for a quick "is the word here at all?"
    CachedSheet = tuple[str, list[str], list[Entry], list[tuple[str, str]], str]
    Skipped = list[str]  # [":line:col" or "", the problem]: why a file is not used
    PathRecord = tuple[str, str, bool]
    Warn = Callable[[str, str], None]  # (file, problem)
    Walk = Callable[[str], list[tuple[str, str]]]  # directory -> (name, type) listing
    Terms = Sequence[Sequence[str] | None]  # each search term's needles (None: any text)


class SheetFile:
    """One sheet file of one cheatpath, parsed."""

    __slots__ = (
        "cut",
        "entries",
        "haystack",
        "label",
        "name",
        "path",
        "rank",
        "readonly",
        "syntax",
        "tags",
    )

    def __init__(
        self, name: str, path: str, cheatpath: Cheatpath, rank: int, record: CachedSheet
    ) -> None:
        self.name = name
        self.path = path
        self.label = cheatpath.label
        self.readonly = cheatpath.readonly
        self.rank = rank
        self.syntax, self.tags, self.entries, own, self.haystack = record
        self.cut = cut_note(record) if own else ""


# -- sheets ----------------------------------------------------------------------------------
def sheet_files(
    directory: str, walk: Walk | None = None, warn: Warn | None = None
) -> list[tuple[str, str]]:
    """(name, path) of every sheet below ``directory``. Like cheat, names with a dot and hidden
    entries are skipped, and a sheet in a subfolder is named ``folder/name``; tldr pages
    (``*.md``) and navi cheats (``*.cheat``) are named by their file name alone, and tldr pages
    of another platform (``osx/`` on Linux) are left out. A link that cannot be followed and
    folders deeper than MAX_DEPTH are left out too, each with a call of ``warn``."""
    listing = walk or _list
    found: list[tuple[str, str]] = []
    # what is left to visit, the next one last: (folder, name, kind, its sheet name prefix, depth)
    pending = [(directory, *child, "", 1) for child in reversed(listing(directory))]
    while pending:
        folder, name, kind, prefix, depth = pending.pop()
        path = f"{folder}/{name}"
        if name[0] == "." or not kind:
            continue
        if kind[0] == "!":
            _warn_of(warn, path, f"{kind[1:]}; skipped")
        elif kind == "f":
            _add_file(name, path, prefix, found)
        elif "." in name or _foreign_platform(name):
            continue
        elif depth > MAX_DEPTH:
            _warn_of(warn, path, f"more than {MAX_DEPTH} folders deep; skipped with all below it")
        else:
            children = reversed(listing(path))
            pending += [(path, *child, f"{prefix}{name}/", depth + 1) for child in children]
    return found


def _warn_of(warn: Warn | None, path: str, problem: str) -> None:
    if warn is not None:
        warn(path, problem)


def _foreign_platform(name: str) -> bool:
    from dotdbg.cheat import formats  # only when a folder changed: a warm lookup walks none

    return formats.foreign_platform(name)


def _add_file(name: str, path: str, prefix: str, found: list[tuple[str, str]]) -> None:
    from dotdbg.cheat import formats

    file_format = formats.format_of(name)
    if file_format == "cheat":
        found.append((prefix + name, path))
    elif file_format:
        found.append((formats.sheet_name(name), path))


def type_of(child: os.DirEntry[str]) -> str:
    """ "d" a directory, "f" a file, "" something else, or "!" and why a link cannot be used."""
    if child.is_dir(follow_symlinks=False):  # like cheat; and a linked loop cannot recurse
        return "d"
    try:
        if child.is_file():
            return "f"
    except OSError as error:  # a link to itself: ELOOP
        return f"!{error.strerror or error}"
    if child.is_symlink() and not os.path.exists(child.path):
        return "!a broken symbolic link"
    return ""


def _list(directory: str) -> list[tuple[str, str]]:
    try:
        with os.scandir(directory) as children:
            return sorted((child.name, type_of(child)) for child in children)
    except OSError:
        return []


def read_record(path: str) -> SheetRecord | Skipped:
    """What the cache keeps for one file: the parsed sheet, or where and why it was skipped
    (nothing at all for a file that is no sheet, like a README.md among tldr pages)."""
    from dotdbg.cheat import formats  # only on a cache miss
    from dotdbg.cheat.sheets import SheetError, decode, parse

    try:
        with open(path, "rb") as file:
            data = file.read(MAX_SHEET_BYTES + 1)
        if len(data) > MAX_SHEET_BYTES:
            raise SheetError(f"larger than {MAX_SHEET_BYTES // 2**20} MiB: split it up")
        parsers = {"cheat": parse, "tldr": formats.parse_tldr, "navi": formats.parse_navi}
        sheet = parsers[formats.format_of(os.path.basename(path))](decode(data))
    except formats.NotASheet:
        return []
    except SheetError as error:
        return [error.location, str(error)]
    except OSError as error:
        return ["", f"cannot be read: {error.strerror}"]
    own = sorted(sheet.extra.items())
    if len(sheet.entries) > MAX_ENTRIES:
        left_out = sheet.entries[MAX_ENTRIES:]
        own.append((CUT, f"{len(left_out)} entries from line {left_out[0][2]} on"))
    return (sheet.syntax, sheet.tags, sheet.entries[:MAX_ENTRIES], own)


def cut_note(record: SheetRecord | CachedSheet) -> str:
    """What of the sheet was left out, "" when nothing: '... entries from line N on skipped'."""
    cut = dict(record[3]).get(CUT)
    return f"{cut} skipped: a sheet holds at most {MAX_ENTRIES}; split it up" if cut else ""


def _cached_record(path: str) -> CachedSheet | Skipped:
    record = read_record(path)
    return record if isinstance(record, list) else with_haystack(record)


def with_haystack(record: SheetRecord) -> CachedSheet:
    """The record and its entries' text in lower case: a search skips a sheet that lacks a
    word without looking at its entries one by one."""
    haystack = "\n".join(f"{comment}\n{command}" for comment, command, _ in record[2]).lower()
    return (*record, haystack)


class Catalog:
    """The sheet files of a list of cheatpaths, in merge order, each cheat path through its
    cache file in ``cache_dir`` ("" for none)."""

    def __init__(self, cheatpaths: list[Cheatpath], cache_dir: str, warn: Warn) -> None:
        self.warn = warn
        self.places: list[tuple[int, Cheatpath, Shelf]] = []
        for rank, cheatpath in enumerate(cheatpaths):
            root = cheatpath.directory
            shelf = Shelf(root, cache_file(cache_dir, root) if cache_dir else "", _cached_record)
            if not shelf.folders_unchanged():
                self._walk(shelf)
            self.places.append((rank, cheatpath, shelf))
        self.complete = False
        self.warned: set[str] = set()  # paths of skipped or cut files already warned about

    def _walk(self, shelf: Shelf) -> None:
        """Walk the cheat path again: its folders' mtimes are kept unless a link in it warned
        (its target may be there next time) or the walk is racy."""
        root = shelf.root
        folders: list[tuple[str, int]] = []
        warned: list[tuple[str, str]] = []

        def listing(directory: str) -> list[tuple[str, str]]:
            folders.append((directory[len(root) + 1 :], kept_mtime(folder_mtime(directory))))
            return _list(directory)

        found = sheet_files(root, listing, lambda *warning: warned.append(warning))
        for path, problem in warned:
            self.warn(path, problem)
        prefix = len(root) + 1
        shelf.rewalked(None if warned else folders, [(n, path[prefix:]) for n, path in found])

    def names(self) -> list[str]:
        """Every sheet name. Which files are sheets comes from the cache without a stat of
        each: a file that stops being one while cached is caught when its sheet is loaded."""
        names: dict[str, None] = {}
        for _, _, shelf in self.places:
            usable = shelf.usable_names()
            if usable is None:
                numbers = range(len(shelf.paths))
                usable = [shelf.names[n] for n in numbers if self._usable(shelf, n, False)]
            names.update(dict.fromkeys(usable))
        return list(names)

    def load(
        self, names: Iterable[str] | None = None, holding: Terms | None = None
    ) -> list[SheetFile]:
        """The sheet files of ``names`` (all when None), in merge order; with ``holding``
        (for each search term its needles in lower case, or None for any text), only those
        whose name or text holds every term: the others stay undecoded."""
        wanted = None if names is None else set(names)
        self.complete = self.complete or (wanted is None and holding is None)
        loaded = []
        for rank, cheatpath, shelf in self.places:
            for number in self._numbers(shelf, wanted, holding):
                if self._usable(shelf, number, True):
                    path = shelf.path(number)
                    name = shelf.names[number]
                    loaded.append(SheetFile(name, path, cheatpath, rank, shelf.value(number)))
        for sheet in loaded:
            if sheet.cut and sheet.path not in self.warned:
                self.warned.add(sheet.path)
                self.warn(sheet.path, sheet.cut)
        return loaded

    def _numbers(self, shelf: Shelf, wanted: set[str] | None, holding: Terms | None) -> list[int]:
        if wanted is not None:
            return sorted(n for name in wanted for n in _positions(shelf.names, name))
        if holding is None:
            return list(range(len(shelf.paths)))
        shelf.check_all()
        if SKIPPED in shelf.kinds or shelf.fresh:  # every broken file warns, hit or not
            for number in range(len(shelf.paths)):
                self._usable(shelf, number, True)
        return shelf.holding(holding)

    def _usable(self, shelf: Shelf, number: int, check: bool) -> bool:
        """Is the file a sheet (up to date when ``check``)? A skipped one warns once."""
        kind = shelf.kind(number, check)
        path = shelf.path(number)
        if kind == SKIPPED and path not in self.warned:
            self.warned.add(path)
            location, problem = shelf.value(number)
            self.warn(path + location, f"{problem}; sheet skipped")
        return kind == SHEET

    def save(self) -> None:
        for _, _, shelf in self.places:
            shelf.save()


def _positions(names: list[str], name: str) -> list[int]:
    """Where ``name`` is in ``names`` (a loop in C: a corpus has thousands of names)."""
    found: list[int] = []
    try:
        while True:
            found.append(names.index(name, found[-1] + 1 if found else 0))
    except ValueError:
        return found


def load_configured(config_file: str, cache_dir: str, warn: Warn) -> list[Cheatpath]:
    """The ``[[cheat.paths]]`` of the config file, cached while it is unchanged."""
    record = remembered(cache_dir, config_file, lambda: _configured_record(config_file))
    if record is None:
        return []
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
    from dotdbg.config.position import locate

    try:
        with open(config_file, encoding="utf-8") as file:
            line, column = locate(file.read(), key_path)
    except (OSError, ValueError):
        return ""
    return f":{line}:{column}"
