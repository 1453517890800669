"""The lookup cache: what each sheet file parsed to, and what each sheet directory holds.

A lookup stats files and directories and re-reads only what changed. Each file's value is kept
as its own marshal blob behind a small header, so a lookup that names a sheet reads and
decodes that sheet alone, and knowing which files are sheets at all needs no decoding; a
search first reads each sheet's text in lower case (its note) and decodes only the sheets
that hold every word; a directory whose mtime is unchanged is not listed again. marshal is the
fastest loader there is for tuples, strings and ints; a missing, stale or corrupt cache is
rebuilt, a read-only one only costs speed.
"""

from __future__ import annotations

import marshal
import os
import sys

CACHE_NAME = "cheat-index.marshal"
# Bump when what is cached changes shape, so that old caches are not trusted.
CACHE_FORMAT = 10
SHEET, SKIPPED, NOTHING = "sheet", "skipped", "none"  # what a file's cached value is

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Stamp = tuple[int, int]  # mtime_ns, size
    FileRow = tuple[int, int, int, int, str]  # mtime_ns, size, offset, length, kind
    Listing = list[tuple[str, str]]  # (name, "d" directory | "f" file | "" other | "!why")
    # the (directory, mtime) of every folder of a cheat path, and the (name, path) of its sheets
    Tree = tuple[list[tuple[str, int]], list[tuple[str, str]]]


def note_of(value: object) -> str:
    """A parsed sheet ends with its text in lower case (dotdbg.cheat.index.with_haystack); the
    header keeps it, so a search can tell which sheets lack a word without decoding them."""
    return value[-1] if isinstance(value, tuple) and isinstance(value[-1], str) else ""


def kind_of(value: object) -> str:
    """A parsed sheet is a tuple; a skipped file a list [where, why]; a non-sheet []."""
    if isinstance(value, tuple):
        return SHEET
    return SKIPPED if value else NOTHING


def stamp_of(path: str) -> Stamp | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


class Index:
    """The cache file: its header read at once, the rest (the sheets' notes for a search, each
    sheet's value) read only when asked for; written back only when something changed.

    Layout: 8 bytes giving the header's length, the header (format, Python version, file rows,
    cheat path trees, the listings' and the notes' lengths), the directory listings, the notes
    (path -> note), then each value's blob. A tree is what walking a cheat path found, valid
    while none of its folders changed: a lookup in a corpus of thousands of sheets stats its
    folders, not walks and names every file again.
    """

    def __init__(self, cache_file: str) -> None:
        self.cache_file = cache_file
        self.fd = -1
        self.rows: dict[str, FileRow] = {}
        self.dirs: dict[str, tuple[int, Listing]] | None = None  # read when first needed
        self.trees: dict[str, Tree] = {}
        self.notes: dict[str, str] | None = None
        self.dirs_at = self.notes_at = self.blobs_at = 0
        if cache_file:
            self._open()
        self.fresh: dict[str, tuple[int, int, Any]] = {}  # values computed this run
        self.new_dirs: dict[str, tuple[int, Listing]] = {}
        self.new_trees: dict[str, Tree] = {}
        self.listed: list[tuple[str, int]] = []  # (directory, mtime) of each listing, in order
        self.visited: set[str] = set()  # files and directories this run looked at

    def _open(self) -> None:
        try:
            self.fd = os.open(self.cache_file, os.O_RDONLY | os.O_CLOEXEC)
            size = int.from_bytes(os.pread(self.fd, 8, 0), "little")
            if not 0 < size < os.fstat(self.fd).st_size:
                raise ValueError("not a cache file")
            header = marshal.loads(os.pread(self.fd, size, 8))
            cache_format, version, rows, trees, dirs_size, notes_size = header
        except (OSError, EOFError, ValueError, TypeError):
            return
        if cache_format == CACHE_FORMAT and version == sys.hexversion:
            self.rows, self.trees = rows, trees
            self.dirs_at = 8 + size
            self.notes_at = self.dirs_at + dirs_size
            self.blobs_at = self.notes_at + notes_size

    def _read(self, offset: int, length: int) -> bytes:
        data = os.pread(self.fd, length, offset)
        if len(data) != length:
            raise OSError("the cache file is shorter than its header says")
        return data

    # -- files ----------------------------------------------------------------------------------
    def kind(self, path: str, stamp: Stamp | None, compute: Callable[[], Any]) -> str:
        """What the file is; ``stamp`` None trusts the cache, else it is parsed again when its
        mtime or size changed (or the cache does not know it)."""
        self.visited.add(path)
        row = self.rows.get(path)
        fresh = row is not None and (stamp is None or (row[0], row[1]) == stamp)
        if path not in self.fresh and fresh and row is not None:
            return row[4]
        stamp = stamp or stamp_of(path) or (0, 0)
        value = compute()
        self.fresh[path] = (stamp[0], stamp[1], value)
        return kind_of(value)

    def note(self, path: str) -> str:
        """The note of a file ``kind`` was asked about."""
        if path in self.fresh:
            return note_of(self.fresh[path][2])
        if self.notes is None:
            self.notes = self._load_notes()
        return self.notes.get(path, "")

    def _load_notes(self) -> dict[str, str]:
        notes: dict[str, str] = self._load_section(self.notes_at, self.blobs_at)
        return notes

    def _listings(self) -> dict[str, tuple[int, Listing]]:
        if self.dirs is None:
            self.dirs = self._load_section(self.dirs_at, self.notes_at)
        return self.dirs

    def _load_section(self, start: int, end: int) -> Any:
        if end <= start:
            return {}
        try:
            return marshal.loads(self._read(start, end - start))
        except (OSError, EOFError, ValueError, TypeError):
            return {}

    def value(self, path: str) -> Any:
        """The value of a file ``kind`` was asked about."""
        if path in self.fresh:
            return self.fresh[path][2]
        _, _, offset, length, _ = self.rows[path]
        return marshal.loads(self._read(self.blobs_at + offset, length))

    def lookup(self, path: str, stamp: Stamp, compute: Callable[[], Any]) -> Any:
        self.kind(path, stamp, compute)
        return self.value(path)

    # -- directories ----------------------------------------------------------------------------
    def listing(self, directory: str) -> Listing:
        """The entries of ``directory``, listed again only when its mtime changed (or a link
        in it could not be followed: its target may be there now)."""
        self.visited.add(directory)
        try:
            mtime = os.stat(directory).st_mtime_ns
        except OSError:
            self.listed.append((directory, -1))
            return []
        self.listed.append((directory, mtime))
        cached = self._listings().get(directory)
        if cached is not None and cached[0] == mtime and not _has_bad_link(cached[1]):
            return cached[1]
        try:
            children = os.scandir(directory)
        except OSError:
            return []
        with children:
            entries = sorted((child.name, type_of(child)) for child in children)
        self.new_dirs[directory] = (mtime, entries)
        return entries

    def tree(self, root: str) -> list[tuple[str, str]] | None:
        """The (name, path) of the sheets below ``root`` when none of its folders changed."""
        cached = self.trees.get(root)
        if cached is None:
            return None
        for directory, mtime in cached[0]:
            try:
                if os.stat(directory).st_mtime_ns != mtime:
                    return None
            except OSError:
                if mtime != -1:
                    return None
        self.visited.update(directory for directory, _ in cached[0])
        return cached[1]

    def remember_tree(self, root: str, folders: list[tuple[str, int]], found: Listing) -> None:
        self.new_trees[root] = (folders, found)

    # -- saving ---------------------------------------------------------------------------------
    def save(self, complete: bool) -> None:
        """Write the cache if anything changed; ``complete``: every file was visited this run,
        so files not visited are gone (or belong to another project) and are dropped."""
        gone = complete and set(self.rows) - self.visited
        if not self.cache_file:
            return
        if self.fresh or self.new_dirs or self.new_trees or gone:
            try:
                data = self._serialised(complete)
                os.makedirs(os.path.dirname(self.cache_file), exist_ok=True)
                temp = f"{self.cache_file}.{os.getpid()}.tmp"
                with open(temp, "wb") as file:
                    file.write(data)
                os.replace(temp, self.cache_file)
            except (OSError, EOFError, ValueError, TypeError):
                pass  # a read-only cache directory only costs speed
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _serialised(self, complete: bool) -> bytes:
        blobs: list[bytes] = []
        rows: dict[str, FileRow] = {}
        notes: dict[str, str] = {}
        offset = 0
        kept = [p for p in self.rows if p not in self.fresh and (p in self.visited or not complete)]
        for path in kept:
            data = self._read(self.blobs_at + self.rows[path][2], self.rows[path][3])
            row = self.rows[path]
            blobs.append(data)
            rows[path] = (row[0], row[1], offset, row[3], row[4])
            notes[path] = self.note(path)
            offset += row[3]
        for path, (mtime, size, value) in self.fresh.items():
            data = marshal.dumps(value)
            blobs.append(data)
            rows[path] = (mtime, size, offset, len(data), kind_of(value))
            notes[path] = note_of(value)
            offset += len(data)
        dirs = {**self._listings(), **self.new_dirs}
        trees = {**self.trees, **self.new_trees}
        if complete:
            dirs = {directory: dirs[directory] for directory in dirs if directory in self.visited}
            trees = {root: trees[root] for root in trees if root in self.visited}
        packed_dirs, packed_notes = marshal.dumps(dirs), marshal.dumps(notes)
        header = marshal.dumps(
            (CACHE_FORMAT, sys.hexversion, rows, trees, len(packed_dirs), len(packed_notes))
        )
        length = len(header).to_bytes(8, "little")
        return length + header + packed_dirs + packed_notes + b"".join(blobs)


def _has_bad_link(listing: Listing) -> bool:
    return any(kind[:1] == "!" for _, kind in listing)


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
