"""The lookup cache: one file per cheat path, under ``$XDG_CACHE_HOME/dotdbg/cheat/``.

A cheat path's file keeps what the last run found there: the folders it walked (with their
mtimes), then for each sheet file its name, its path, its stamp (mtime, ctime), what it parsed
to, and its text in lower case. Nothing in it is trusted unchecked:

- a folder whose mtime changed (a sheet added, removed or renamed) is walked again;
- a file is used from the cache only while its stamp is the same; a lookup that names a sheet
  stats that sheet's files, a search stats every file (an edit shows on the very next run);
- a stamp less than ``RACY_NS`` old is not kept: a second write within the file system's
  clock tick would leave it unchanged (git's "racily clean" files).

So a named lookup reads the header (names, paths, stamps) and the one record it shows; a
search reads the texts of every sheet as one block and finds each word in it with one
``bytes.find`` pass, decoding only the sheets that hold every word. marshal is the fastest
loader there is for tuples, strings and ints; a missing, stale or corrupt file is rebuilt, an
unwritable cache directory only costs speed. The cache never writes into a cheat path.
"""

from __future__ import annotations

import marshal
import os
import sys
import time

# Bump when what is cached changes shape, so that old caches are not trusted.
CACHE_FORMAT = 12
CACHE_FOLDER = "cheat"  # in dotdbg's cache dir: one file per cheat path
SHEET, SKIPPED, NOTHING, UNKNOWN = "s", "k", "n", "?"  # what a file's cached value is
MISSING, RACY = -2, -3  # the mtimes kept for a folder not there, for one too recent
RACY_NS = 2 * 10**9  # a stamp this recent may not show the next write yet: never trusted
SEPARATOR = b"\x00"  # ends a name and a text in the texts block; no search word holds it

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    Stamp = tuple[int, int]  # mtime_ns, ctime_ns
    Folder = tuple[str, int]  # a folder's path below the cheat path ("" itself), its mtime_ns


def cache_file(cache_dir: str, root: str) -> str:
    """The cache file of cheat path ``root``: named by a hash of its path (FNV-1a, 64 bits;
    hashlib would cost more than the lookup), and its last folder's name to be recognisable."""
    digest = 0xCBF29CE484222325
    for byte in root.encode("utf-8", "surrogateescape"):
        digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    name = "".join(c if c.isalnum() else "-" for c in os.path.basename(root)[:40])
    return os.path.join(cache_dir, CACHE_FOLDER, f"{name}-{digest:016x}")


def kind_of(value: object) -> str:
    """A parsed sheet is a tuple; a skipped file a list [where, why]; a non-sheet []."""
    if isinstance(value, tuple):
        return SHEET
    return SKIPPED if value else NOTHING


def note_of(value: object) -> str:
    """A parsed sheet ends with its text in lower case (dotdbg.cheat.index.with_haystack)."""
    return value[-1] if isinstance(value, tuple) and isinstance(value[-1], str) else ""


def trusted(stamp: Stamp) -> Stamp | None:
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


def kept_mtime(mtime: int) -> int:
    """What the cache keeps of a folder's mtime: RACY, which no folder has, when it is too
    recent to trust (the folder is walked again until it is not)."""
    return mtime if mtime < 0 or trusted((mtime, 0)) else RACY


def stamp_of(status: os.stat_result) -> Stamp:
    return status.st_mtime_ns, status.st_ctime_ns


class Shelf:
    """One cheat path's sheet files, as its cache file holds them and as this run found them.

    Files are numbered in walk order; ``names`` and ``paths`` (below the root; "" when the
    same as the name) hold one item each, ``kinds`` one character each. The header holds what
    a named lookup needs; each file's stamp (None: not to be trusted) is kept twice, with its
    record (a named lookup reads that) and in a list beside the texts (a search reads those).
    Values parsed this run are in ``fresh``; the others are read from the file when asked for.

    Layout: 8 bytes giving the header's length, the header, the search part (every stamp and
    where each text starts), the texts, then each file's record: (stamp, value).
    """

    def __init__(self, root: str, cache_file: str, read: Callable[[str], Any]) -> None:
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

    # -- reading --------------------------------------------------------------------------------
    def _open(self) -> None:
        try:
            self.fd = os.open(self.cache_file, os.O_RDONLY | os.O_CLOEXEC)
            total = os.fstat(self.fd).st_size
            size = int.from_bytes(os.pread(self.fd, 8, 0), "little")
            if not 0 < size <= total - 8:
                raise ValueError("not a cache file")
            header = marshal.loads(os.pread(self.fd, size, 8))
            cache_format, version, root, *fields = header
        except (OSError, EOFError, ValueError, TypeError):
            return
        if (cache_format, version, root) != (CACHE_FORMAT, sys.hexversion, self.root):
            return
        folders, names, paths, kinds, spans, search_size, texts_size = fields
        if total != 8 + size + search_size + texts_size + spans[-1]:
            return  # cut short (a full disk) or grown: not this header's file
        self.folders, self.names, self.paths, self.kinds, self.spans = (
            folders,
            names,
            paths,
            kinds,
            spans,
        )
        self.search_at, self.search_size, self.texts_size = 8 + size, search_size, texts_size
        self.texts_at = self.search_at + search_size
        self.blobs_at = self.texts_at + texts_size

    def _read(self, offset: int, length: int) -> bytes:
        data = os.pread(self.fd, length, offset) if self.fd >= 0 else b""
        if len(data) != length:
            raise OSError("the cache file is shorter than its header says")
        return data

    def _section(self) -> tuple[list[Stamp | None], list[int]]:
        """The search part as the cache file holds it: each file's stamp, each text's start."""
        if self.section is None:
            self.section = ([], [0])
            if self.search_size:
                try:
                    self.section = marshal.loads(self._read(self.search_at, self.search_size))
                except (OSError, EOFError, ValueError, TypeError):
                    self.kinds = UNKNOWN * len(self.paths)  # trust none of it
                    self.section = ([None] * len(self.paths), [0] * (len(self.paths) + 1))
        return self.section

    def _all_stamps(self) -> list[Stamp | None]:
        if self.stamps is None:
            self.stamps = list(self._section()[0])
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

    def rewalked(self, folders: list[Folder] | None, found: Sequence[tuple[str, str]]) -> None:
        """What walking the cheat path again found: (name, path below the root) of each sheet
        file; the cached values of the files still there are kept, checked by their stamps."""
        names = [name for name, _ in found]
        paths = ["" if path == name else path for name, path in found]
        if (names, paths) == (self.names, self.paths):
            self.changed = self.changed or folders != self.folders
            self.folders = folders
            return
        old_stamps = self._all_stamps()
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

    def _cached_number(self, number: int) -> int:
        """Where file ``number`` is in the cache file (-1: nowhere)."""
        if not self.renumbered:
            return number
        return self.cached.get(self.paths[number] or self.names[number], -1)

    def _record(self, number: int) -> tuple[Stamp | None, Any]:
        """(stamp, value) of a file the cache knows."""
        record = self.records.get(number)
        if record is None:
            cached = self._cached_number(number)
            start = self.spans[cached]
            blob = self._read(self.blobs_at + start, self.spans[cached + 1] - start)
            record = self.records[number] = marshal.loads(blob)
        return record

    # -- files ----------------------------------------------------------------------------------
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

    def _cached_stamp(self, number: int) -> Stamp | None:
        if self.stamps is not None:
            return self.stamps[number]
        try:
            return self._record(number)[0]
        except (OSError, EOFError, ValueError, TypeError):  # a damaged cache: read the file
            return None

    def _parse(self, number: int, path: str, stamp: Stamp | None) -> str:
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
                statuses = [self._stat_or_none(path, root) for path in paths]
        finally:
            os.close(root)
        now = [None if s is None else (s.st_mtime_ns, s.st_ctime_ns) for s in statuses]
        self.checked.update(range(len(now)))
        stamps = self._all_stamps()
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

    @staticmethod
    def _stat_or_none(path: str, root: int) -> os.stat_result | None:
        try:
            return os.stat(path, dir_fd=root)
        except OSError:
            return None

    def value(self, number: int) -> Any:
        if number in self.fresh:
            return self.fresh[number]
        try:
            return self._record(number)[1]
        except (OSError, EOFError, ValueError, TypeError):  # a damaged cache: read the file
            self._parse(number, self.path(number), None)
            return self.fresh[number]

    def usable_names(self) -> list[str] | None:
        """The names, when every file is a sheet the cache knows (the usual case)."""
        if self.fresh or self.kinds.count(SHEET) != len(self.kinds):
            return None
        return self.names

    # -- search ---------------------------------------------------------------------------------
    def holding(self, terms: Sequence[Sequence[str] | None]) -> list[int]:
        """The files whose name or lower-case text holds, for every term, one of its needles
        (None: any file may hold it); every file must have been checked (``check_all``). The
        first term is found in the whole block, each other one in the files that hold it."""
        wanted = [
            [n.encode() for n in needles] for needles in terms if needles and "" not in needles
        ]
        if not wanted:
            return list(range(len(self.paths)))
        texts, starts = self._texts()
        wanted.sort(key=lambda needles: -min(map(len, needles)))  # the longest: fewer hits
        found: set[int] = set()
        for needle in wanted[0]:
            found |= _segments_with(texts, starts, needle)
        for needles in wanted[1:]:
            found = {n for n in found if _holds(texts, starts[n], starts[n + 1], needles)}
        return sorted(found)

    def _texts(self) -> tuple[bytes, list[int]]:
        """Each file's name and text in lower case, one block, and where each file's starts."""
        if not self.changed:
            return self._read(self.texts_at, self.texts_size), self._section()[1]
        return self._new_texts()

    def _new_texts(self) -> tuple[bytes, list[int]]:
        old_starts = self._section()[1]
        old = self._read(self.texts_at, self.texts_size) if self.fd >= 0 else b""
        pieces = []
        for number in range(len(self.paths)):
            cached = -1 if number in self.fresh else self._cached_number(number)
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

    # -- saving ---------------------------------------------------------------------------------
    def save(self) -> None:
        """Write the cache file again if anything changed (atomically; a cache directory that
        cannot be written only costs speed)."""
        try:
            if self.changed and self.cache_file:
                write_atomically(self.cache_file, self._serialised())
        except (OSError, EOFError, ValueError, TypeError):
            pass
        finally:
            if self.fd >= 0:
                os.close(self.fd)
                self.fd = -1

    def _serialised(self) -> bytes:
        texts, starts = self._new_texts()
        stamps = list(self._all_stamps())
        blobs: list[bytes] = []
        spans = [0]
        kinds = []
        for number in range(len(self.paths)):
            cached = self._cached_number(number)
            if number in self.fresh:
                value = self.fresh[number]
                blobs.append(marshal.dumps((stamps[number], value)))
                kinds.append(kind_of(value))
            elif cached >= 0 and self.kinds[number] != UNKNOWN:
                blobs.append(
                    self._read(
                        self.blobs_at + self.spans[cached],
                        self.spans[cached + 1] - self.spans[cached],
                    )
                )
                kinds.append(self.kinds[number])
            else:  # found by a walk, never asked about: parsed when it is
                blobs.append(marshal.dumps((None, None)))
                kinds.append(UNKNOWN)
                stamps[number] = None
            spans.append(spans[-1] + len(blobs[-1]))
        search = marshal.dumps((stamps, starts))
        header = marshal.dumps(
            (
                CACHE_FORMAT,
                sys.hexversion,
                self.root,
                self.folders,
                self.names,
                self.paths,
                "".join(kinds),
                spans,
                len(search),
                len(texts),
            )
        )
        return len(header).to_bytes(8, "little") + header + search + texts + b"".join(blobs)


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


def remembered(cache_dir: str, path: str, compute: Callable[[], Any]) -> Any:
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
    except (OSError, EOFError, ValueError, TypeError):
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


def _segments_with(texts: bytes, starts: list[int], needle: bytes) -> set[int]:
    """The numbers of the segments of ``texts`` that hold ``needle``: one find per segment
    that has it, each jumping to the next segment."""
    found: set[int] = set()
    position = texts.find(needle)
    while position >= 0:
        number = _segment_at(starts, position)
        found.add(number)
        position = texts.find(needle, starts[number + 1])
    return found


def _holds(texts: bytes, start: int, end: int, needles: list[bytes]) -> bool:
    return any(texts.find(needle, start, end) >= 0 for needle in needles)


def _segment_at(starts: list[int], position: int) -> int:
    """The segment that holds byte ``position`` (binary search: bisect is one more import)."""
    low, high = 0, len(starts) - 1
    while high - low > 1:
        middle = (low + high) // 2
        if starts[middle] <= position:
            low = middle
        else:
            high = middle
    return low
