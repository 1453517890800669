"""``dotdbg cheat WORD [TERM...]`` warm, in one module: from the launcher to the printed lines.

A lookup must answer in about the time Python starts, and what it loads is most of what it
costs: each module about 0.1 million instructions for being one, each class about 0.08
million, the rest in proportion to its code (Python's start is 39 million). So the warm path
is this one module, standard library only (it also runs in a dotdbg ssh session on the
remote's python3 >= 3.8): where sheets are, the lookup cache, the lookup rule and the
ranking, the plain and coloured output, what stderr says when nothing is found. It imports no
module of dotdbg.cheat (they import it): what only some runs need is loaded when a run needs
it, from modules below it: the walk of a changed folder and the sheet parser
(dotdbg.cheat.index), the config check (dotdbg.cheat.cheatpaths), errors and stderr lines.
dotdbg.cheat.modes (the options) and the other modules build on it. tests/cheat/
test_cheat_imports.py holds a warm lookup to this module and dotdbg.visible.

No ``from __future__ import annotations`` here: __future__ is a module (0.6 million); the
annotations 3.8 cannot evaluate are strings.
"""

import marshal
import os
import sys
import time

from dotdbg.visible import one_line, visible

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from typing import Any, Protocol

    from dotdbg.cheat.sheets import Entry

    Stamp = tuple[int, int]  # mtime_ns, ctime_ns
    Folder = tuple[str, int]  # a folder's path below the cheat path ("" itself), its mtime_ns
    Span = tuple[int, int]
    # syntax, tags, entries, dotdbg's own keys as (key, value) pairs, the text in lower case
    CachedSheet = tuple[str, list[str], list[Entry], list[tuple[str, str]], str]
    Warn = Callable[[str, str], None]  # (file, problem)
    Terms = Sequence[Sequence[str] | None]  # each search term's needles (None: any text)
    Rank = tuple[int, ...]
    Ranked = list[tuple[Rank, "SheetFile", Entry]]

    class Matcher(Protocol):
        """One search term: ``search`` says whether a text contains it, ``spans`` where.
        Literal, AnyOf (a term and its synonyms) or Regex."""

        @property
        def others(self) -> "tuple[Matcher, ...]":
            """The synonyms a match of which also counts; () for most terms."""

        @property
        def direct(self) -> "Matcher":
            """The term itself, without its synonyms."""

        def search(self, text: str) -> bool: ...
        def spans(self, text: str) -> list[Span]: ...
        def as_word(self, text: str) -> bool: ...
        def word_at(self, text: str) -> int: ...
        def may_be_in(self, lowered: str) -> bool: ...
        def needles(self) -> tuple[str, ...] | None: ...


EXIT_NOT_FOUND = 1
# A shorter write is never cut short by a reader that leaves: dotdbg.cli.runner.WholeWrites
# (imported for the longer ones) writes whole from its LARGE (8192) on.
WHOLE_WRITE = 4096


# == where sheets come from ==================================================================
# The user's own dir, a project's ``.cheat/``, configured dirs, built-ins: in merge order (a
# sheet found in several places shows the user's entries first, then the project's, then the
# configured paths' in config order, then the built-in ones). These locations mirror
# dotdbg.paths.Paths with os.path only (tests/cheat/test_cheat_paths.py checks they agree).
APP = "dotdbg"
PERSONAL = "personal"
PROJECT = "project"
BUILTIN = "builtin"
PROJECT_DIR_NAME = ".cheat"


class Cheatpath:
    __slots__ = ("directory", "label", "readonly")

    def __init__(self, label: str, directory: str, readonly: bool) -> None:
        self.label = label
        self.directory = directory
        self.readonly = readonly

    def __repr__(self) -> str:
        return f"Cheatpath({self.label!r}, {self.directory!r}, readonly={self.readonly})"


def _home(env: "Mapping[str, str]") -> str:
    return env.get("HOME") or os.path.expanduser("~")


def _xdg(env: "Mapping[str, str]", var: str, default: str) -> str:
    value = env.get(var, "")
    # The XDG spec says relative values are invalid and must be ignored.
    return value if value and os.path.isabs(value) else os.path.join(_home(env), default)


def config_file(env: "Mapping[str, str]") -> str:
    return os.path.join(_xdg(env, "XDG_CONFIG_HOME", ".config"), APP, "config.toml")


def user_cheat_dir(env: "Mapping[str, str]") -> str:
    return os.path.join(_xdg(env, "XDG_CONFIG_HOME", ".config"), APP, "cheatsheets")


def cache_dir(env: "Mapping[str, str]") -> str:
    return os.path.join(_xdg(env, "XDG_CACHE_HOME", ".cache"), APP)


def builtin_dir() -> "str | None":
    """The shipped sheets: inside the installed package, else at the root of a checkout."""
    return _sheets_beside(__file__) or _sheets_beside(os.path.realpath(__file__))


def _sheets_beside(module: str) -> "str | None":
    """``cheatsheets`` in the package of ``module`` or the folder above it; the path as
    imported is tried first, then with its links resolved (realpath costs a stat a folder)."""
    package_dir = os.path.dirname(os.path.dirname(module))
    for candidate in (package_dir, os.path.dirname(package_dir)):
        folder = os.path.join(candidate, "cheatsheets")
        if os.path.isdir(folder):
            return folder
    return None


def find_project_dir(cwd: str) -> "str | None":
    """The nearest ``.cheat/`` directory in ``cwd`` or one of its parents."""
    directory = cwd
    while True:
        candidate = os.path.join(directory, PROJECT_DIR_NAME)
        if os.path.isdir(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def all_cheatpaths(
    env: "Mapping[str, str]", cwd: str, configured: "list[Cheatpath]"
) -> "list[Cheatpath]":
    """Every cheatpath in merge order (the user's own dir even before it exists)."""
    paths = [Cheatpath(PERSONAL, user_cheat_dir(env), readonly=False)]
    project = find_project_dir(cwd)
    if project is not None:
        paths.append(Cheatpath(PROJECT, project, readonly=False))
    paths.extend(configured)
    builtin = builtin_dir()
    if builtin is not None:
        paths.append(Cheatpath(BUILTIN, builtin, readonly=True))
    return paths


# == the lookup cache ===========================================================================
# One file per cheat path under ``$XDG_CACHE_HOME/dotdbg/cheat/``: what the last run found
# there, the folders it walked (with their mtimes), then for each sheet file its name, its
# path, its stamp (mtime, ctime), what it parsed to, and its text in lower case. Nothing in it
# is trusted unchecked: a folder whose mtime changed (a sheet added, removed or renamed) is
# walked again; a file is used from the cache only while its stamp is the same, a named lookup
# stats that sheet's files, a search every file (an edit shows on the very next run); a stamp
# less than RACY_NS old is never kept: a second write within the file system's clock tick
# would leave it unchanged (git's "racily clean" files). So a named lookup reads the header
# and the one record it shows; a search reads the texts of every sheet as one block, finds
# each word in it with one ``bytes.find`` pass and decodes only the sheets that hold every
# word. marshal is the fastest loader there is for tuples, strings and ints; a missing, stale
# or corrupt file is rebuilt, an unwritable cache directory only costs speed. The cache never
# writes into a cheat path. Layout: 8 bytes giving the header's length, the header, the search
# part (every stamp and where each text starts), the texts, then each file's (stamp, value).
CACHE_FORMAT = 13  # bump when what is cached changes shape, so that old caches are not trusted
CACHE_FOLDER = "cheat"  # in dotdbg's cache dir: one file per cheat path
# what a file's cached value is (a cut sheet: one with entries past index.MAX_ENTRIES left out)
SHEET, CUT_SHEET, SKIPPED, NOTHING, UNKNOWN = "s", "c", "k", "n", "?"
MISSING, RACY = -2, -3  # the mtimes kept for a folder not there, for one too recent
RACY_NS = 2 * 10**9  # a stamp this recent may not show the next write yet: never trusted
NAME_HASH_PRIME = 2**64 - 59  # the largest prime below 2**64
DAMAGED = (OSError, EOFError, ValueError, TypeError)  # what reading a damaged cache raises


def cache_file(cache_dir: str, root: str) -> str:
    """The cache file of cheat path ``root``: named by a hash of its path (the path's bytes as
    one number modulo a prime: one operation in C, where hashlib would cost more than the
    lookup) and its last folder's name to be recognisable. The file holds the path it is for:
    two paths of one name never read each other's."""
    digest = int.from_bytes(root.encode("utf-8", "surrogateescape"), "little") % NAME_HASH_PRIME
    name = "".join(c if c.isalnum() else "-" for c in os.path.basename(root)[:40])
    return os.path.join(cache_dir, CACHE_FOLDER, f"{name}-{digest:016x}")


def kind_of(value: object) -> str:
    """A parsed sheet is a tuple (its own keys fourth: a cut one says so there); a skipped
    file a list [where, why]; a non-sheet []."""
    if isinstance(value, tuple):
        # only a value this run parsed comes here: dotdbg.cheat.index, which made it, is loaded
        from dotdbg.cheat.index import CUT

        return CUT_SHEET if any(key == CUT for key, _ in value[3]) else SHEET
    return SKIPPED if value else NOTHING


def trusted(stamp: "Stamp") -> "Stamp | None":
    """``stamp``, or None when it is too recent to prove that the next write changes it."""
    return None if stamp[0] > time.time_ns() - RACY_NS else stamp


def folder_mtime(folder: str) -> int:
    """The folder's mtime; MISSING while there is none (the personal dir of a user who has no
    own sheets: still none is no change), -1 while it cannot be read."""
    try:
        return os.stat(folder).st_mtime_ns
    except FileNotFoundError:
        return MISSING
    except OSError:
        return -1


def stamp_of(status: os.stat_result) -> "Stamp":
    return status.st_mtime_ns, status.st_ctime_ns


class Shelf:
    """One cheat path's sheet files, as its cache file holds them and as this run found them.

    Files are numbered in walk order; ``names`` and ``paths`` (below the root; "" when the
    same as the name) hold one item each, ``kinds`` one character each. The header holds what
    a named lookup needs; each file's stamp (None: not to be trusted) is kept twice, with its
    record (a named lookup reads that) and in a list beside the texts (a search reads those).
    Values parsed this run are in ``fresh``; the others are read from the file when asked for.
    """

    def __init__(self, root: str, cache_file: str, read: "Callable[[str], Any]") -> None:
        self.root = root
        self.cache_file = cache_file
        self.read = read  # path -> the file's value, when the cache cannot give it
        self.fd = -1
        self.folders: list[Folder] | None = None  # None: walk the cheat path again
        self.names: list[str] = []
        self.paths: list[str] = []
        self.kinds = ""
        self.spans: list[int] = [0]  # record i is blob bytes spans[i]:spans[i + 1]
        self.search_at = self.search_size = self.texts_at = self.texts_size = self.blobs_at = 0
        self.section: tuple[list[Stamp | None], list[int]] | None = None  # the search part
        self.stamps: list[Stamp | None] | None = None  # every file's, read when needed
        self.records: dict[int, tuple[Stamp | None, Any]] = {}  # read this run
        self.cached: dict[str, int] = {}  # path -> its number in the cache file, after a walk
        self.fresh: dict[int, Any] = {}  # number -> value parsed this run
        self.new_stamps: dict[int, Stamp | None] = {}  # number -> stamp of a value parsed
        self.checked: set[int] = set()  # numbers whose file was stat'ed this run
        self.changed = False  # the file must be written
        self.renumbered = False  # a walk found other files than the cache file's
        if cache_file:
            self._open()

    def _open(self) -> None:
        try:
            self.fd = os.open(self.cache_file, os.O_RDONLY | os.O_CLOEXEC)
            total = os.fstat(self.fd).st_size
            size = int.from_bytes(os.pread(self.fd, 8, 0), "little")
            if not 0 < size <= total - 8:
                raise ValueError("not a cache file")
            header = marshal.loads(os.pread(self.fd, size, 8))
            cache_format, version, root, *fields = header
        except DAMAGED:
            return
        if (cache_format, version, root) != (CACHE_FORMAT, sys.hexversion, self.root):
            return
        folders, names, paths, kinds, spans, search_size, texts_size = fields
        if total != 8 + size + search_size + texts_size + spans[-1]:
            return  # cut short (a full disk) or grown: not this header's file
        self.folders, self.names, self.paths, self.kinds = folders, names, paths, kinds
        self.spans = spans
        self.search_at, self.search_size, self.texts_size = 8 + size, search_size, texts_size
        self.texts_at = self.search_at + search_size
        self.blobs_at = self.texts_at + texts_size

    def read_at(self, offset: int, length: int) -> bytes:
        data = os.pread(self.fd, length, offset) if self.fd >= 0 else b""
        if len(data) != length:
            raise OSError("the cache file is shorter than its header says")
        return data

    def search_part(self) -> "tuple[list[Stamp | None], list[int]]":
        """The search part as the cache file holds it: each file's stamp, each text's start."""
        if self.section is None:
            self.section = ([], [0])
            if self.search_size:
                try:
                    self.section = marshal.loads(self.read_at(self.search_at, self.search_size))
                except DAMAGED:
                    self.kinds = UNKNOWN * len(self.paths)  # trust none of it
                    self.section = ([None] * len(self.paths), [0] * (len(self.paths) + 1))
        return self.section

    def all_stamps(self) -> "list[Stamp | None]":
        if self.stamps is None:
            self.stamps = list(self.search_part()[0])
            for number, stamp in self.new_stamps.items():
                self.stamps[number] = stamp
        return self.stamps

    def path(self, number: int) -> str:
        return f"{self.root}/{self.paths[number] or self.names[number]}"

    def folders_unchanged(self) -> bool:
        if self.folders is None:
            return False
        for folder, mtime in self.folders:
            if folder_mtime(f"{self.root}/{folder}" if folder else self.root) != mtime:
                return False
        return True

    def cached_number(self, number: int) -> int:
        """Where file ``number`` is in the cache file (-1: nowhere)."""
        if not self.renumbered:
            return number
        return self.cached.get(self.paths[number] or self.names[number], -1)

    def _record(self, number: int) -> "tuple[Stamp | None, Any]":
        """(stamp, value) of a file the cache knows."""
        record = self.records.get(number)
        if record is None:
            cached = self.cached_number(number)
            start = self.spans[cached]
            blob = self.read_at(self.blobs_at + start, self.spans[cached + 1] - start)
            record = self.records[number] = marshal.loads(blob)
        return record

    def kind(self, number: int, check: bool) -> str:
        """What file ``number`` is; ``check``: stat it and parse it again if it changed, else
        trust the cache (when it knows the file)."""
        if number in self.fresh:
            return kind_of(self.fresh[number])
        known = self.kinds[number]
        if known != UNKNOWN and (not check or number in self.checked):
            return known
        path = self.path(number)
        try:
            stamp = stamp_of(os.stat(path))
        except OSError:
            return ""
        self.checked.add(number)
        if known != UNKNOWN and stamp == self._cached_stamp(number):
            return known
        return self._parse(number, path, stamp)

    def _cached_stamp(self, number: int) -> "Stamp | None":
        if self.stamps is not None:
            return self.stamps[number]
        try:
            return self._record(number)[0]
        except DAMAGED:  # a damaged cache: read the file
            return None

    def _parse(self, number: int, path: str, stamp: "Stamp | None") -> str:
        self.fresh[number] = self.read(path)
        trust = self.new_stamps[number] = None if stamp is None else trusted(stamp)
        if self.stamps is not None:
            self.stamps[number] = trust
        self.changed = True
        return kind_of(self.fresh[number])

    def check_all(self) -> None:
        """Stat every file (by the cheat path's descriptor: no path walked from /) and parse
        those that changed."""
        paths = [path or name for name, path in zip(self.names, self.paths)]  # noqa: B905 (3.8)
        try:
            root = os.open(self.root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return
        try:
            stat = os.stat
            statuses: list[os.stat_result | None]
            try:
                statuses = [stat(path, dir_fd=root) for path in paths]
            except OSError:  # a file went away since the walk: one by one, then
                statuses = [_stat_or_none(path, root) for path in paths]
        finally:
            os.close(root)
        now = [None if s is None else (s.st_mtime_ns, s.st_ctime_ns) for s in statuses]
        self.checked.update(range(len(now)))
        stamps = self.all_stamps()
        if now == stamps and not self.fresh and UNKNOWN not in self.kinds:
            return
        for number, stamp in enumerate(now):
            if number in self.fresh:
                continue
            if stamp is not None and stamp == stamps[number] and self.kinds[number] != UNKNOWN:
                continue
            if stamp is None:
                self.fresh[number] = []  # gone: no sheet
                self.changed = True
            else:
                self._parse(number, self.path(number), stamp)

    def value(self, number: int) -> "Any":
        if number in self.fresh:
            return self.fresh[number]
        try:
            return self._record(number)[1]
        except DAMAGED:  # a damaged cache: read the file
            self._parse(number, self.path(number), None)
            return self.fresh[number]

    def usable_names(self) -> "list[str] | None":
        """The names, when every file is a sheet the cache knows (the usual case)."""
        if self.fresh or self.kinds.count(SHEET) != len(self.kinds):
            return None
        return self.names

    def holding(self, terms: "Terms") -> "list[int]":
        """The files whose name or lower-case text holds, for every term, one of its needles
        (None: any file may hold it); every file must have been checked (``check_all``). The
        first term is found in the whole block, each other one in the files that hold it."""
        wanted = [
            [n.encode() for n in needles] for needles in terms if needles and "" not in needles
        ]
        if not wanted:
            return list(range(len(self.paths)))
        if self.changed:
            texts, starts = self.new_texts()
        else:
            texts, starts = self.read_at(self.texts_at, self.texts_size), self.search_part()[1]
        wanted.sort(key=lambda needles: -min(map(len, needles)))  # the longest: fewer hits
        found: set[int] = set()
        for needle in wanted[0]:
            found |= _segments_with(texts, starts, needle)
        for needles in wanted[1:]:
            found = {n for n in found if _holds(texts, starts[n], starts[n + 1], needles)}
        return sorted(found)

    # -- after a walk, and writing (a run that found something changed) -----------------------
    def rewalked(self, folders: "list[Folder] | None", found: "Sequence[tuple[str, str]]") -> None:
        """What walking the cheat path again found: (name, path below the root) of each sheet
        file; the cached values of the files still there are kept, checked by their stamps."""
        names = [name for name, _ in found]
        paths = ["" if path == name else path for name, path in found]
        if (names, paths) == (self.names, self.paths):
            self.changed = self.changed or folders != self.folders
            self.folders = folders
            return
        old_stamps = self.all_stamps()
        old = {
            path or name: number
            for number, (name, path) in enumerate(zip(self.names, self.paths))  # noqa: B905 (3.8: no strict)
        }
        self.cached = {path: old[path] for _, path in found if path in old}
        kept = [self.cached.get(path, -1) for _, path in found]
        self.stamps = [None if at < 0 else old_stamps[at] for at in kept]
        self.kinds = "".join(UNKNOWN if at < 0 else self.kinds[at] for at in kept)
        self.folders, self.names, self.paths = folders, names, paths
        self.renumbered = self.changed = True

    def new_texts(self) -> "tuple[bytes, list[int]]":
        """Each file's name and text in lower case, one block, and where each file's starts:
        the cached ones as the cache file has them, the others from what this run parsed."""
        old_starts = self.search_part()[1]
        old = self.read_at(self.texts_at, self.texts_size) if self.fd >= 0 else b""
        pieces = []
        for number in range(len(self.paths)):
            cached = -1 if number in self.fresh else self.cached_number(number)
            if cached >= 0 and self.kinds[number] != UNKNOWN:
                pieces.append(old[old_starts[cached] : old_starts[cached + 1]])
            else:
                value = self.fresh.get(number, ())
                text = f"{self.names[number].lower()}\0{note_of(value)}\0"
                pieces.append(text.encode("utf-8", "surrogatepass"))
        starts = [0]
        for piece in pieces:
            starts.append(starts[-1] + len(piece))
        return b"".join(pieces), starts

    def _serialised(self) -> bytes:
        texts, starts = self.new_texts()
        stamps = list(self.all_stamps())
        blobs: list[bytes] = []
        spans = [0]
        kinds = []
        for number in range(len(self.paths)):
            cached = self.cached_number(number)
            if number in self.fresh:
                value = self.fresh[number]
                blobs.append(marshal.dumps((stamps[number], value)))
                kinds.append(kind_of(value))
            elif cached >= 0 and self.kinds[number] != UNKNOWN:
                start, end = self.spans[cached], self.spans[cached + 1]
                blobs.append(self.read_at(self.blobs_at + start, end - start))
                kinds.append(self.kinds[number])
            else:  # found by a walk, never asked about: parsed when it is
                blobs.append(marshal.dumps((None, None)))
                kinds.append(UNKNOWN)
                stamps[number] = None
            spans.append(spans[-1] + len(blobs[-1]))
        search = marshal.dumps((stamps, starts))
        where = (self.root, self.folders, self.names, self.paths, "".join(kinds), spans)
        dumped = marshal.dumps((CACHE_FORMAT, sys.hexversion, *where, len(search), len(texts)))
        return len(dumped).to_bytes(8, "little") + dumped + search + texts + b"".join(blobs)

    def save(self) -> None:
        """Write the cache file again if anything changed (atomically; a cache directory that
        cannot be written only costs speed)."""
        try:
            if self.changed and self.cache_file:
                write_atomically(self.cache_file, self._serialised())
        except DAMAGED:
            pass
        finally:
            if self.fd >= 0:
                os.close(self.fd)
                self.fd = -1


def note_of(value: object) -> str:
    """A parsed sheet ends with its text in lower case (dotdbg.cheat.index.with_haystack)."""
    return value[-1] if isinstance(value, tuple) and isinstance(value[-1], str) else ""


def kept_mtime(mtime: int) -> int:
    """What the cache keeps of a folder's mtime: RACY, which no folder has, when it is too
    recent to trust (the folder is walked again until it is not)."""
    return mtime if mtime < 0 or trusted((mtime, 0)) else RACY


def write_atomically(cache_file: str, data: bytes) -> None:
    """Replace ``cache_file`` whole: a run beside this one reads the old file or the new."""
    os.makedirs(os.path.dirname(cache_file), exist_ok=True)
    temp = f"{cache_file}.{os.getpid()}.tmp"
    try:
        with open(temp, "wb") as file:
            file.write(data)
        os.replace(temp, cache_file)
    except OSError:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _stat_or_none(path: str, root: int) -> "os.stat_result | None":
    try:
        return os.stat(path, dir_fd=root)
    except OSError:
        return None


def _segments_with(texts: bytes, starts: "list[int]", needle: bytes) -> "set[int]":
    """The numbers of the segments of ``texts`` that hold ``needle``: one find per segment
    that has it, each jumping to the next segment."""
    found: set[int] = set()
    position = texts.find(needle)
    while position >= 0:
        number = _segment_at(starts, position)
        found.add(number)
        position = texts.find(needle, starts[number + 1])
    return found


def _holds(texts: bytes, start: int, end: int, needles: "list[bytes]") -> bool:
    return any(texts.find(needle, start, end) >= 0 for needle in needles)


def _segment_at(starts: "list[int]", position: int) -> int:
    """The segment that holds byte ``position`` (binary search: bisect is one more import)."""
    low, high = 0, len(starts) - 1
    while high - low > 1:
        middle = (low + high) // 2
        if starts[middle] <= position:
            low = middle
        else:
            high = middle
    return low


def remembered(cache_dir: str, path: str, compute: "Callable[[], Any]") -> "Any":
    """``compute()`` for the file ``path`` (None when there is no such file), kept in the
    cache while the file's stamp is the same."""
    try:
        stamp = stamp_of(os.stat(path))
    except OSError:
        return None
    cached = cache_file(cache_dir, path) if cache_dir else ""
    try:
        with open(cached, "rb") as file:
            cache_format, version, known, known_stamp, value = marshal.loads(file.read())
        if (cache_format, version, known, known_stamp) == (
            CACHE_FORMAT,
            sys.hexversion,
            path,
            stamp,
        ):
            return value
    except DAMAGED:
        pass
    value = compute()
    if cached and trusted(stamp):
        try:
            write_atomically(
                cached, marshal.dumps((CACHE_FORMAT, sys.hexversion, path, stamp, value))
            )
        except (OSError, ValueError):
            pass
    return value


# == the sheets of every cheat path =============================================================
class SheetFile:
    """One sheet file of one cheatpath, parsed."""

    __slots__ = (
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
        self, name: str, path: str, cheatpath: Cheatpath, rank: int, record: "CachedSheet"
    ) -> None:
        self.name = name
        self.path = path
        self.label = cheatpath.label
        self.readonly = cheatpath.readonly
        self.rank = rank
        self.syntax, self.tags, self.entries, _, self.haystack = record


def _read_sheet(path: str) -> "Any":
    """A file the cache cannot give: parsed by dotdbg.cheat.index (a cache miss)."""
    from dotdbg.cheat.index import cached_record

    return cached_record(path)


class Catalog:
    """The sheet files of a list of cheatpaths, in merge order, each cheat path through its
    cache file in ``cache_dir`` ("" for none). It answers the three questions a lookup asks,
    each as cheaply as it can: which sheet names exist (the cache's notes on each file, no
    sheet decoded), the sheets of one name (only their files decoded), and every sheet."""

    def __init__(self, cheatpaths: "list[Cheatpath]", cache_dir: str, warn: "Warn") -> None:
        self.warn = warn
        self.places: list[tuple[int, Cheatpath, Shelf]] = []
        for rank, cheatpath in enumerate(cheatpaths):
            root = cheatpath.directory
            shelf = Shelf(root, cache_file(cache_dir, root) if cache_dir else "", _read_sheet)
            if not shelf.folders_unchanged():
                self._walk(shelf)
            self.places.append((rank, cheatpath, shelf))
        self.complete = False
        self.warned: set[str] = set()  # paths of skipped or cut files already warned about

    def _walk(self, shelf: Shelf) -> None:
        """Walk the cheat path again (a folder of it changed, or there is no cache): its
        folders' mtimes are kept unless a link in it warned (its target may be there next
        time) or the walk is racy."""
        from dotdbg.cheat import index

        root = shelf.root
        folders: list[Folder] = []
        warned: list[tuple[str, str]] = []

        def listing(directory: str) -> "list[tuple[str, str]]":
            folders.append((directory[len(root) + 1 :], kept_mtime(folder_mtime(directory))))
            return index.list_folder(directory)

        found = index.sheet_files(root, listing, lambda *warning: warned.append(warning))
        for path, problem in warned:
            self.warn(path, problem)
        prefix = len(root) + 1
        shelf.rewalked(None if warned else folders, [(n, path[prefix:]) for n, path in found])

    def names(self) -> "list[str]":
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
        self, names: "Iterable[str] | None" = None, holding: "Terms | None" = None
    ) -> "list[SheetFile]":
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
        return loaded

    def _numbers(
        self, shelf: Shelf, wanted: "set[str] | None", holding: "Terms | None"
    ) -> "list[int]":
        if wanted is not None:
            return sorted(n for name in wanted for n in _positions(shelf.names, name))
        if holding is None:
            return list(range(len(shelf.paths)))
        shelf.check_all()
        # every broken or cut file warns, hit or not: a match may be in what was left out
        if SKIPPED in shelf.kinds or CUT_SHEET in shelf.kinds or shelf.fresh:
            for number in range(len(shelf.paths)):
                self._usable(shelf, number, True)
        return shelf.holding(holding)

    def _usable(self, shelf: Shelf, number: int, check: bool) -> bool:
        """Is the file a sheet (up to date when ``check``)? A skipped or cut one warns once."""
        kind = shelf.kind(number, check)
        path = shelf.path(number)
        if kind in (SKIPPED, CUT_SHEET) and path not in self.warned:
            self.warned.add(path)
            self._warn_of(path, kind, shelf.value(number))
        return kind in (SHEET, CUT_SHEET)

    def _warn_of(self, path: str, kind: str, value: "Any") -> None:
        if kind == SKIPPED:
            location, problem = value
            self.warn(path + location, f"{problem}; sheet skipped")
        else:
            from dotdbg.cheat.index import cut_note

            self.warn(path, cut_note(value[3]))

    def save(self) -> None:
        for _, _, shelf in self.places:
            shelf.save()


def _positions(names: "list[str]", name: str) -> "list[int]":
    """Where ``name`` is in ``names`` (a loop in C: a corpus has thousands of names)."""
    found: list[int] = []
    try:
        while True:
            found.append(names.index(name, found[-1] + 1 if found else 0))
    except ValueError:
        return found


def load_configured(config_file: str, cache_dir: str, warn: "Warn") -> "list[Cheatpath]":
    """The ``[[cheat.paths]]`` of the config file, cached while it is unchanged."""
    record = remembered(cache_dir, config_file, lambda: _configured_record(config_file))
    if record is None:
        return []
    if isinstance(record, tuple):
        location, problem = record
        warn(config_file + location, f"{problem}; its cheat paths are ignored")
        return []
    return [Cheatpath(*fields) for fields in record]


def _configured_record(config_file: str) -> "Any":
    from dotdbg.cheat.index import configured_record

    return configured_record(config_file)


def open_catalog(env: "Mapping[str, str]") -> Catalog:
    """The sheet files of every cheatpath; skipped files and paths warn on stderr."""
    cache = cache_dir(env)
    configured = load_configured(config_file(env), cache, warn_about)
    for path in configured:
        if not os.path.isdir(path.directory):
            warn_about(path.directory, f"cheat path {path.label!r} is not a directory; skipped")
    return Catalog(all_cheatpaths(env, cwd(), configured), cache, warn_about)


def cwd() -> str:
    try:
        return os.getcwd()
    except OSError:  # the current directory was deleted
        return os.sep


# == what a term matches =======================================================================
# Literal text (the default) or a regular expression (``-r``: ``re`` costs more to import than
# a whole lookup, so it is imported only then). Smart-case: a term with a capital letter is
# case-sensitive. A literal term also matches the words the sheets use for the same thing
# (SYNONYMS): a user who types "stuck" means the entries about a hung process; such a match
# ranks after one of the word itself. A key of several words stands for those words in a row.
SYNONYMS = {
    "stuck": ("hung", "hang", "hangs", "deadlock"),
    "hang": ("hung", "hangs", "stuck", "deadlock"),
    "hung": ("hang", "hangs", "stuck", "deadlock"),
    "freeze": ("hung", "hang", "stuck"),
    "frozen": ("hung", "hang", "stuck"),
    "deadlock": ("hung", "hang", "hangs", "stuck", "deadlocks"),
    "race condition": ("race", "races", "racy"),
    "memory leak": ("leak", "leaks", "leaking"),
    "leak": ("leaks", "leaking"),
    "single gpu": ("one gpu", "only gpu", "CUDA_VISIBLE_DEVICES"),
    "one gpu": ("single gpu", "only gpu", "CUDA_VISIBLE_DEVICES"),
    "no gpu": ("hide every gpu", "without a gpu", "cpu code path", "cpu only"),
    "right file": ("which file", "break it on purpose"),
    "console script": ("console_scripts", "entry point", "entry-point", "project.scripts"),
    "entry point": ("console_scripts", "entry-point", "console script", "project.scripts"),
    "umount": ("unmount",),
    "unmount": ("umount",),
    "segfault": ("segmentation fault", "SIGSEGV"),
    "oom": ("out of memory", "OutOfMemoryError"),
}
LONGEST_KEY = max(len(key.split()) for key in SYNONYMS)


def has_capital(term: str, regex: bool) -> bool:
    """Does ``term`` ask for case-sensitive matching? In a regex, escapes like ``\\S`` do not."""
    if regex:
        term = _without_escapes(term)
    return term != term.lower()


def _without_escapes(pattern: str) -> str:
    kept = []
    escaped = False
    for char in pattern:
        if not escaped and char != "\\":
            kept.append(char)
        escaped = not escaped and char == "\\"
    return "".join(kept)


def bounded(text: str, start: int, end: int) -> bool:
    """Does ``text[start:end]`` stand alone: no letter, digit or _ glued to either end? A term
    of punctuation stands alone too only when no word touches it (``":"``, not ``demand:``)."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not (before.isalnum() or before == "_" or after.isalnum() or after == "_")


def word_at(matcher: "Matcher", text: str) -> int:
    """Where the term first stands in ``text`` as a whole word ("ls", not inside "failures");
    -1 if nowhere."""
    return next((start for start, end in matcher.spans(text) if bounded(text, start, end)), -1)


class Literal:
    """A term as typed, without synonyms (what a Matcher is: see TYPE_CHECKING above)."""

    __slots__ = ("fold", "lowered", "needle")
    others = ()

    def __init__(self, term: str) -> None:
        self.fold = not has_capital(term, regex=False)
        self.needle = term.lower() if self.fold else term
        self.lowered = term.lower()

    @property
    def direct(self) -> "Literal":
        return self

    def search(self, text: str) -> bool:
        return self.needle in (text.lower() if self.fold else text)

    def as_word(self, text: str) -> bool:
        return word_at(self, text) >= 0

    def word_at(self, text: str) -> int:
        """``word_at(self, text)`` without the list of spans: a hit's every entry asks."""
        haystack = text.lower() if self.fold else text
        if len(haystack) != len(text) or not self.needle:  # as spans() does
            return -1
        size = len(self.needle)
        start = haystack.find(self.needle)
        while start >= 0 and not bounded(text, start, start + size):
            start = haystack.find(self.needle, start + size)
        return start

    def may_be_in(self, lowered: str) -> bool:
        """False only when the term is surely not in the text ``lowered`` is the lower case of."""
        return self.lowered in lowered

    def needles(self) -> "tuple[str, ...]":
        """Lower-case texts one of which a text holds when the term may be in it: what
        ``may_be_in`` looks for (a Regex has none: any text may hold it)."""
        return (self.lowered,)

    def spans(self, text: str) -> "list[Span]":
        haystack = text.lower() if self.fold else text
        if len(haystack) != len(text) or not self.needle:  # lower() changed the length (e.g. "İ")
            return []
        found = []
        start = haystack.find(self.needle)
        while start >= 0:
            found.append((start, start + len(self.needle)))
            start = haystack.find(self.needle, start + len(self.needle))
        return found


def phrases(words: "Sequence[str]") -> "list[str]":
    """``words`` with each run of words that is a key of SYNONYMS joined into one term."""
    terms: list[str] = []
    index = 0
    while index < len(words):
        for size in range(min(LONGEST_KEY, len(words) - index), 1, -1):
            phrase = " ".join(words[index : index + size])
            if phrase.lower() in SYNONYMS:
                terms.append(phrase)
                index += size
                break
        else:
            terms.append(words[index])
            index += 1
    return terms


class AnyOf:
    """A literal term or one of its synonyms; ``direct`` is the term itself. A synonym counts
    only as a whole word: "race" for "race condition", not the "race" in "trace"."""

    __slots__ = ("direct", "others")

    def __init__(self, direct: Literal, others: "Sequence[Literal]") -> None:
        self.direct = direct
        self.others = tuple(others)

    def search(self, text: str) -> bool:
        return self.direct.search(text) or any(other.search(text) for other in self.others)

    def spans(self, text: str) -> "list[Span]":
        """The term's own matches, and its synonyms' where they stand as whole words."""
        found = self.direct.spans(text)
        for other in self.others:
            found += [span for span in other.spans(text) if bounded(text, *span)]
        return found

    def as_word(self, text: str) -> bool:
        return word_at(self, text) >= 0

    def word_at(self, text: str) -> int:
        return word_at(self, text)

    def may_be_in(self, lowered: str) -> bool:
        return any(one.may_be_in(lowered) for one in (self.direct, *self.others))

    def needles(self) -> "tuple[str, ...]":
        return tuple(needle for one in (self.direct, *self.others) for needle in one.needles())


class Regex:
    """A term of ``-r``: any text may hold it (no needles)."""

    __slots__ = ("pattern",)
    others = ()

    def __init__(self, pattern: "re.Pattern[str]") -> None:
        self.pattern = pattern

    @property
    def direct(self) -> "Regex":
        return self

    def search(self, text: str) -> bool:
        return self.pattern.search(text) is not None

    def spans(self, text: str) -> "list[Span]":
        return [
            found.span() for found in self.pattern.finditer(text) if found.end() > found.start()
        ]

    def as_word(self, text: str) -> bool:
        return word_at(self, text) >= 0

    def word_at(self, text: str) -> int:
        return word_at(self, text)

    def may_be_in(self, lowered: str) -> bool:
        return True

    def needles(self) -> None:
        return None


def compile_term(term: str, regex: bool) -> "Matcher":
    if not regex:
        others = SYNONYMS.get(term.lower(), ())
        return (
            AnyOf(Literal(term), [Literal(other) for other in others]) if others else Literal(term)
        )
    import re

    flags = 0 if has_capital(term, regex=True) else re.IGNORECASE
    try:
        return Regex(re.compile(term, flags))
    except re.error as error:
        from dotdbg.errors import DotdbgError

        raise DotdbgError(
            f"{term!r} is not a valid regular expression: {error}",
            hint="drop -r to search for the text literally",
        ) from None


# == the lookup rule and the ranking ============================================================
# ``WORD [TERMS...]``: when WORD names a sheet (exactly, or as a unique prefix), show that sheet
# narrowed to the entries containing every TERM; otherwise search every sheet for all the words.
SHEET_MODE = "sheet"
SEARCH_MODE = "search"
FALLBACK_MODE = "fallback"  # WORD named a sheet that has no hit: every sheet was searched

# How well a term matches an entry, best first; a synonym's match ranks one step after the
# same match of the word itself.
IN_HEAD = 0  # a whole word near the start of the comment: what the entry is about
IN_COMMENT = 2  # a whole word elsewhere in the comment, or the sheet's name
IN_COMMAND_HEAD = 3  # the command's program or its verb ("ls" in `command ls -la`)
IN_COMMAND = 4  # a whole word elsewhere in the command only
INSIDE_COMMENT = 6  # only inside a longer word ("ls" in "fails") of the comment
INSIDE_COMMAND = 8
SYNONYM = 1
HEAD = 32  # characters of the comment's first line that say what the entry is about


class Sheet:
    """All files of one sheet name, in merge order, with repeated entries dropped."""

    __slots__ = ("files", "name")

    def __init__(self, name: str, files: "list[SheetFile]") -> None:
        self.name = name
        self.files = files

    @property
    def tags(self) -> "list[str]":
        return list(dict.fromkeys(tag for file in self.files for tag in file.tags))

    @property
    def labels(self) -> "list[str]":
        return [file.label for file in self.files]

    def entries(self) -> "Iterator[tuple[SheetFile, Entry]]":
        seen: set[tuple[str, str]] = set()
        for file in self.files:
            for entry in file.entries:
                if (entry[0], entry[1]) not in seen:
                    seen.add((entry[0], entry[1]))
                    yield file, entry

    def entries_of(self, file: SheetFile) -> "Iterator[Entry]":
        """``file``'s entries that no file before it in merge order has word for word."""
        earlier = {(e[0], e[1]) for f in self.files[: self.files.index(file)] for e in f.entries}
        for entry in file.entries:
            if (entry[0], entry[1]) not in earlier:
                earlier.add((entry[0], entry[1]))
                yield entry


class Group:
    """The hits of one sheet file: what the output prints under one header."""

    __slots__ = ("file", "hits")

    def __init__(self, file: SheetFile, hits: "list[Entry]") -> None:
        self.file = file
        self.hits = hits


class Result:
    __slots__ = ("groups", "matchers", "mode", "sheet")

    def __init__(
        self, mode: str, sheet: str, groups: "list[Group]", matchers: "list[Matcher]"
    ) -> None:
        self.mode = mode
        self.sheet = sheet  # the sheet shown in sheet mode, "" in search mode
        self.groups = groups
        self.matchers = matchers


def merge(files: "Iterable[SheetFile]") -> "dict[str, Sheet]":
    """Sheets by name; ``files`` come in merge order, and each sheet keeps that order."""
    sheets: dict[str, Sheet] = {}
    for file in files:
        sheet = sheets.get(file.name)
        if sheet is None:
            sheets[file.name] = Sheet(file.name, [file])
        else:
            sheet.files.append(file)
    return sheets


def resolve_sheet(word: str, names: "Iterable[str]") -> "str | None":
    """The sheet WORD names: an exact name, or the only name it is a prefix of."""
    if not isinstance(names, (dict, set)):
        names = list(names)
    if word in names:  # the usual case, without a look at each of thousands of names
        return word
    fold = not has_capital(word, regex=False)
    key = word.lower() if fold else word
    candidates = _starting_with(key, list(names), fold)
    exact = [name for name in candidates if (name.lower() if fold else name) == key]
    if exact:
        return exact[0]
    return candidates[0] if len(candidates) == 1 else None


def _starting_with(key: str, names: "list[str]", fold: bool) -> "list[str]":
    """The names that start with ``key`` (in lower case when ``fold``), found in one string of
    them all (NUL ends each: no file name holds one): a search in thousands of sheets looks
    here for its first word."""
    joined = "\0" + "\0".join(names)
    if fold:
        joined = joined.lower()
    if "\0" in key or len(joined) != len(names) + sum(map(len, names)):  # lower() grew "İ"
        return [name for name in names if (name.lower() if fold else name).startswith(key)]
    found = []
    at = joined.find("\0" + key)
    while at >= 0:
        found.append(names[joined.count("\0", 0, at + 1) - 1])
        at = joined.find("\0" + key, at + 1)
    return found


def lookup(
    sheets: "dict[str, Sheet]",
    words: "Sequence[str]",
    regex: bool,
    phrase: "str | None" = None,
    every_sheet: "Callable[[], dict[str, Sheet]] | None" = None,
) -> Result:
    """Apply the lookup rule to ``words``; ``phrase`` (cheat's ``-s``) is one more term that
    never names a sheet, so without words it searches every sheet. When WORD names a sheet
    and none of its entries holds the other words, every sheet is searched for all the words
    (``FALLBACK_MODE``): ``python backtrace`` finds gdb's "Python backtrace". ``every_sheet``
    loads them when ``sheets`` holds only the one named."""
    extra = [] if phrase is None else [phrase]
    name = resolve_sheet(words[0], sheets) if words else None
    if name is not None:
        matchers = matchers_of([*words[1:], *extra], regex)
        result = Result(SHEET_MODE, name, sheet_groups(sheets[name], matchers), matchers)
        if result.groups or not matchers:
            return result
        sheets = sheets if every_sheet is None else every_sheet()
    matchers = matchers_of([*words, *extra], regex)
    mode = SEARCH_MODE if name is None else FALLBACK_MODE
    return Result(mode, name or "", _search_groups(sheets.values(), matchers), matchers)


def matchers_of(terms: "Sequence[str]", regex: bool) -> "list[Matcher]":
    return [compile_term(term, regex) for term in (terms if regex else phrases(terms))]


def needles(terms: "Sequence[str]", regex: bool) -> "list[tuple[str, ...] | None]":
    """For each term of a search for every one of ``terms``, the lower-case texts one of which
    a sheet's name or text holds when it may hold a hit (None: any sheet may): the sheets
    without them go undecoded (Catalog.load)."""
    return [matcher.needles() for matcher in matchers_of(terms, regex)]


def sheet_groups(sheet: Sheet, matchers: "list[Matcher]") -> "list[Group]":
    ranked: Ranked = []
    for file, entry in sheet.entries():
        rank = _rank(entry, "", matchers)
        if rank is not None:
            ranked.append(((file.rank, *rank, entry[2]), file, entry))
    return _group(ranked)


def _search_groups(sheets: "Iterable[Sheet]", matchers: "list[Matcher]") -> "list[Group]":
    ranked: Ranked = []
    for sheet in sheets:
        name = sheet.name.lower()
        for file in sheet.files:
            if not all(m.may_be_in(file.haystack) or m.may_be_in(name) for m in matchers):
                continue  # a word the sheet lacks: no need to look at its entries
            ranked += _ranked_hits(sheet, file, matchers)
    return _group(ranked)


def _ranked_hits(sheet: Sheet, file: SheetFile, matchers: "list[Matcher]") -> "Ranked":
    """Entries about the words first, then personal before project before the others, then
    short ones."""
    hits: Ranked = []
    for entry in sheet.entries_of(file):
        rank = _rank(entry, sheet.name, matchers)
        if rank is not None:
            length = len(entry[0]) + len(entry[1])
            hits.append(((*rank, file.rank, length, entry[2]), file, entry))
    return hits


def _rank(entry: "Entry", sheet_name: str, matchers: "list[Matcher]") -> "Rank | None":
    """(the worst term's place, the sum of all places), or None when a term is missing."""
    lowered = f"{entry[0]}\n{entry[1]}\n{sheet_name}".lower()
    for matcher in matchers:  # a loop, not all(): a sheet's every entry passes here
        if not matcher.may_be_in(lowered):
            return None  # most entries: no need to see where each term stands
    places = []
    for matcher in matchers:
        place = _place(matcher, entry, sheet_name)
        if place is None:
            return None
        places.append(place)
    return (max(places, default=0), sum(places))


def _place(matcher: "Matcher", entry: "Entry", sheet_name: str) -> "int | None":
    """Where ``matcher`` stands in the entry (IN_HEAD ... INSIDE_COMMAND), None if nowhere."""
    if matcher.others:
        own = _place(matcher.direct, entry, sheet_name)
        others = [_place(other, entry, sheet_name) for other in matcher.others]
        found = [place + SYNONYM for place in others if place is not None and place <= IN_COMMAND]
        return min(found + ([] if own is None else [own]), default=None)
    comment, command, _ = entry
    in_comment = matcher.search(comment) or (sheet_name and matcher.search(sheet_name))
    if not in_comment and not matcher.search(command):
        return None
    if in_comment:
        head = matcher.word_at(comment.split("\n", 1)[0])
        if 0 <= head < HEAD:
            return IN_HEAD
        if matcher.as_word(comment) or (sheet_name and matcher.as_word(sheet_name)):
            return IN_COMMENT
    if _runs(matcher, command):
        return IN_COMMAND_HEAD
    if matcher.as_word(command):
        return IN_COMMAND
    return INSIDE_COMMENT if in_comment else INSIDE_COMMAND


def _runs(matcher: "Matcher", command: str) -> bool:
    """Is the term the command's first or second word (the program, or its subcommand)?"""
    for word in command.split(None, 2)[:2]:
        word = word.lstrip("\\")
        if (0, len(word)) in matcher.spans(word):
            return True
    return False


def _group(ranked: "Ranked") -> "list[Group]":
    """Hits grouped by sheet file, one group (one header) each, where its best hit ranks."""
    ranked.sort(key=lambda hit: (hit[0], hit[1].name))
    groups: dict[str, Group] = {}
    for _, file, entry in ranked:
        group = groups.get(file.path)
        if group is None:
            groups[file.path] = Group(file, [entry])
        else:
            group.hits.append(entry)
    return list(groups.values())


# == the text of a result =======================================================================
COLOR_CHOICES = ("auto", "always", "never")  # dotdbg.cheat.options's, which config loading and
# the registry read without this module (a test holds them equal)
HEADER_STYLE = "1;35"
COMMENT_STYLE = "36"
MATCH_STYLE = "1;31"
PLACEHOLDER_STYLE = "32"


def use_color(choice: str, stdout_is_tty: bool, env: "Mapping[str, str]") -> bool:
    """``--color``: always and never win; auto means a terminal, no NO_COLOR, not TERM=dumb."""
    if choice != "auto":
        return choice == "always"
    return stdout_is_tty and not env.get("NO_COLOR") and env.get("TERM") != "dumb"


def sgr(style: str, text: str) -> str:
    return f"\x1b[{style}m{text}\x1b[0m" if text else ""


def match_spans(text: str, matchers: "Sequence[Matcher]") -> "list[Span]":
    """Where any term matches ``text``, overlapping spans merged, in order."""
    spans = sorted(span for matcher in matchers for span in matcher.spans(text))
    merged: list[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def paint(text: str, base: str, matchers: "Sequence[Matcher]") -> str:
    """``text`` in style ``base`` (placeholders green when base is ""), matches in bold red."""
    out = []
    position = 0
    for start, end in match_spans(text, matchers):
        out.append(_paint_plain(text[position:start], base))
        out.append(sgr(MATCH_STYLE, text[start:end]))
        position = end
    out.append(_paint_plain(text[position:], base))
    return "".join(out)


def _paint_plain(text: str, base: str) -> str:
    if base:
        return sgr(base, text)
    out = []
    position = 0
    for start, end in placeholder_spans(text):
        out.append(text[position:start] + sgr(PLACEHOLDER_STYLE, text[start:end]))
        position = end
    return "".join(out) + text[position:]


def placeholder_spans(text: str) -> "list[Span]":
    """Where ``<name>`` placeholders are; ``a < b``, ``2>&1`` and ``<<EOF`` are not ones."""
    spans = []
    start = text.find("<")
    while start >= 0:
        end = text.find(">", start + 1)
        if end < 0:
            break
        inner = text[start + 1 : end]
        if inner and "<" not in inner and (inner[0].isalnum() or inner[0] == "_"):
            spans.append((start, end + 1))
            start = text.find("<", end + 1)
        else:
            start = text.find("<", start + 1)
    return spans


def header(name: str, label: str) -> str:
    return f"==> {one_line(name)} ({one_line(label)}) <=="


def format_entry(entry: "Entry", matchers: "Sequence[Matcher]", color: bool) -> str:
    comment, command, _ = entry
    comment_lines = (
        [f"# {one_line(line)}".rstrip() for line in comment.split("\n")] if comment else []
    )
    command = visible(command)
    if not color:
        return "\n".join([*comment_lines, command])
    painted = [paint(line, COMMENT_STYLE, matchers) for line in comment_lines]
    painted += [paint(line, "", matchers) for line in command.split("\n")]
    return "\n".join(painted)


def format_result(result: Result, color: bool) -> str:
    blocks = []
    for group in result.groups:
        title = header(group.file.name, group.file.label)
        blocks.append(sgr(HEADER_STYLE, title) if color else title)
        blocks.extend(format_entry(entry, result.matchers, color) + "\n" for entry in group.hits)
    return "\n".join(blocks)


# == running ====================================================================================
def plain_lookup(argv: "list[str]") -> "tuple[list[str], str] | None":
    """The words and the ``--color`` of a plain lookup: words, with ``--color WHEN`` or
    ``--color=WHEN`` among them or not; None for any other run (dotdbg.cheat.modes parses it
    with the option table, and says what is wrong)."""
    if not any(arg[:1] == "-" for arg in argv):
        return (argv, "auto") if argv else None
    words: list[str] = []
    color = "auto"
    rest = iter(argv)
    for arg in rest:
        if arg[:1] != "-":
            words.append(arg)
            continue
        name, has_value, value = arg.partition("=")
        if name != "--color":
            return None
        color = value if has_value else next(rest, "")
        if color not in COLOR_CHOICES:
            return None
    return (words, color) if words else None


def look_up(words: "list[str]", env: "Mapping[str, str]", color: str = "auto") -> int:
    """``dotdbg cheat WORD [TERM...]``: the lookup of words, shown as text."""
    catalog = open_catalog(env)
    try:
        sheets = sheets_for(catalog, words)
        terminal = sys.stdout is not None and sys.stdout.isatty()
        result = result_of(catalog, sheets, words, False, None)
        if result.mode == FALLBACK_MODE:
            report_fallback(result, words)
        if not result.groups:
            report_nothing_found(catalog.names(), words, result)
            return EXIT_NOT_FOUND
        return write(format_result(result, use_color(color, terminal, env)))
    finally:
        catalog.save()


def sheets_for(
    catalog: Catalog, words: "list[str]", regex: bool = False, phrase: "str | None" = None
) -> "dict[str, Sheet]":
    """The sheets a lookup needs: when its first word names a sheet, that sheet's files alone
    (a lookup must not decode a 300-sheet corpus to show one sheet); else those that may
    hold a hit."""
    name = resolve_sheet(words[0], catalog.names())
    if name is not None:
        return merge(catalog.load([name]))
    return may_hold_a_hit(catalog, words, regex, phrase)


def may_hold_a_hit(
    catalog: Catalog, words: "list[str]", regex: bool, phrase: "str | None"
) -> "dict[str, Sheet]":
    """Every sheet that holds all the words, undecoded the others (a search)."""
    terms = [*words, *([] if phrase is None else [phrase])]
    return merge(catalog.load(holding=needles(terms, regex)))


def result_of(
    catalog: Catalog,
    sheets: "dict[str, Sheet]",
    words: "list[str]",
    regex: bool,
    phrase: "str | None",
) -> Result:
    """The lookup of ``words`` in ``sheets`` (the named sheet's, or those that may hold a hit);
    a named sheet without a hit makes it load and search the others."""

    def every_sheet() -> "dict[str, Sheet]":
        return sheets if catalog.complete else may_hold_a_hit(catalog, words, regex, phrase)

    return lookup(sheets, words, regex, phrase=phrase, every_sheet=every_sheet)


def report_fallback(result: Result, words: "list[str]") -> None:
    """A sheet was named but none of its entries matched: say that every sheet was searched."""
    terms = " ".join(words[1:])
    found = "these are from every sheet" if result.groups else "nor does any other sheet"
    message = f"no entry of sheet {result.sheet!r} matches {terms!r}; {found}"
    note(f"{one_line(message)}")


def report_nothing_found(names: "list[str]", words: "list[str]", result: Result) -> None:
    if result.mode == FALLBACK_MODE:
        return  # report_fallback said it
    terms = " ".join(words[1:] if result.mode == SHEET_MODE else words)
    if result.mode == SHEET_MODE and not terms:
        note(f"sheet {result.sheet!r} has no entries yet")
        hint(f"dotdbg cheat --edit {one_line(result.sheet)}")
        return
    if result.mode == SHEET_MODE:
        note(f"no entry of sheet {result.sheet!r} matches {terms!r}")
        return
    note(f"no sheet or entry matches {terms!r}")
    close = suggestions(words[0], names)
    if close:
        hint(f"did you mean {one_line(' or '.join(close))}?")


def suggestions(word: str, names: "Iterable[str]") -> "list[str]":
    """Sheet names the user may have meant by ``word``."""
    import difflib

    names = sorted(names)
    by_prefix = [name for name in names if name.lower().startswith(word.lower())]
    close = difflib.get_close_matches(word.lower(), names, n=3, cutoff=0.6)
    return list(dict.fromkeys(by_prefix[:5] + close))


def note(line: str) -> None:
    from dotdbg.common import output as lines

    lines.note(line)


def hint(line: str) -> None:
    from dotdbg.common import output as lines

    lines.hint(line)


def warn_about(path: str, problem: str) -> None:
    from dotdbg.common.output import home_relative, warn

    warn(f"{one_line(home_relative(path, os.path.expanduser('~')))}: {one_line(problem)}")


def write(text: str) -> int:
    """Print ``text``; a reader that went away (``| head``) ends the run as every command's
    does, in dotdbg.cli.runner (exit 141, no message)."""
    if sys.stdout is None:  # started with stdout closed (`>&-`): print() writes nothing too
        return 0
    if len(text) < WHOLE_WRITE:
        sys.stdout.write(text)
    else:
        from dotdbg.cli.runner import WholeWrites

        WholeWrites(sys.stdout).write(text)
    sys.stdout.flush()
    return 0
