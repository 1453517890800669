"""Finding and reading the sheet files of a cheat path: what a lookup needs only when the
cache cannot answer (dotdbg.cheat.fast.Catalog reads the cache; a folder changed, a sheet
changed, the config changed). A file that cannot be used is cached as a list: where in it
(``:line:col``) and what is wrong.
"""

from __future__ import annotations

import os

from dotdbg.cheat.cheatpaths import PathsError, read_configured_paths

# Bounds that keep one huge or deep file tree from stalling every lookup (and --lint): a larger
# sheet is skipped, a longer one cut, a deeper folder left out, each with a warning.
MAX_SHEET_BYTES = 4 * 2**20
MAX_ENTRIES = 2000
MAX_DEPTH = 16  # folders below a cheat path; tldr pages sit 2 deep, cheat's sheets 1
CUT = "dotdbg:cut"  # in a record's own keys: which entries were left out (no front matter key
# can hold a colon, so no sheet can set it)

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable

    from dotdbg.cheat.cheatpaths import PathRecord
    from dotdbg.cheat.sheets import Entry

    # syntax, tags, entries, dotdbg's own keys as (key, value) pairs
    SheetRecord = tuple[str, list[str], list[Entry], list[tuple[str, str]]]
    # the same and the sheet's text in lower case, for a quick "is the word here at all?"
    CachedSheet = tuple[str, list[str], list[Entry], list[tuple[str, str]], str]
    Skipped = list[str]  # [":line:col" or "", the problem]: why a file is not used
    Warn = Callable[[str, str], None]  # (file, problem)
    Walk = Callable[[str], list[tuple[str, str]]]  # directory -> (name, type) listing


# -- sheets ----------------------------------------------------------------------------------
def sheet_files(
    directory: str, walk: Walk | None = None, warn: Warn | None = None
) -> list[tuple[str, str]]:
    """(name, path) of every sheet below ``directory``. Like cheat, names with a dot and hidden
    entries are skipped, and a sheet in a subfolder is named ``folder/name``; tldr pages
    (``*.md``) and navi cheats (``*.cheat``) are named by their file name alone, and tldr pages
    of another platform (``osx/`` on Linux) are left out. A link that cannot be followed and
    folders deeper than MAX_DEPTH are left out too, each with a call of ``warn``."""
    listing = walk or list_folder
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


def list_folder(directory: str) -> list[tuple[str, str]]:
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


def cut_note(own: list[tuple[str, str]]) -> str:
    """What of the sheet was left out, "" when nothing: '... entries from line N on skipped';
    ``own`` is a record's own keys."""
    cut = dict(own).get(CUT)
    return f"{cut} skipped: a sheet holds at most {MAX_ENTRIES}; split it up" if cut else ""


def cached_record(path: str) -> CachedSheet | Skipped:
    record = read_record(path)
    return record if isinstance(record, list) else with_haystack(record)


def with_haystack(record: SheetRecord) -> CachedSheet:
    """The record and its entries' text in lower case: a search skips a sheet that lacks a
    word without looking at its entries one by one."""
    haystack = "\n".join(f"{comment}\n{command}" for comment, command, _ in record[2]).lower()
    return (*record, haystack)


def configured_record(config_file: str) -> list[PathRecord] | tuple[str, str]:
    """The configured paths, or where (``:line:col`` or "") and what is wrong with them."""
    try:
        paths = read_configured_paths(config_file)
    except PathsError as error:
        hint = error.hint.splitlines()[0]
        return _located(config_file, error.key_path), f"{error} (hint: {hint})"
    except (OSError, ValueError) as error:
        return "", " ".join(str(error).split())
    return paths


def _located(config_file: str, key_path: tuple[str, ...]) -> str:
    """``:line:col`` of a key: only when a config is wrong, so tomlpos's ``re`` is affordable."""
    from dotdbg.config.position import locate

    try:
        with open(config_file, encoding="utf-8") as file:
            line, column = locate(file.read(), key_path)
    except (OSError, ValueError):
        return ""
    return f":{line}:{column}"
