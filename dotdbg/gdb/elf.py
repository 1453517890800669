"""Just enough ELF to tell whether gdb will find debug information for a file: its section names,
its build id, and the separate debug files distributions install.

Hand-written (about 60 lines of ``struct``) rather than a dependency: dotdbg reads two things
from the section table, and pyelftools alone would cost more to import than the whole check.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import BinaryIO

DEBUG_ROOT = "/usr/lib/debug"  # gdb's default debug-file-directory
_MAGIC = b"\x7fELF"
_NOTE_GNU_BUILD_ID = 3


@dataclass(frozen=True)
class ElfFacts:
    sections: frozenset[str]
    build_id: str | None
    debuglink: str | None

    @property
    def has_debug_info(self) -> bool:
        return ".debug_info" in self.sections or ".zdebug_info" in self.sections


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == _MAGIC
    except OSError:
        return False


def read_facts(path: str) -> ElfFacts | None:
    """None when ``path`` is not a readable 64- or 32-bit ELF file. Reads only the parts needed
    (a libpython is tens of MB)."""
    try:
        with open(path, "rb") as handle:
            return _parse(handle)
    except (OSError, struct.error, ValueError):
        return None


def _parse(handle: BinaryIO) -> ElfFacts | None:
    ident = handle.read(0x40)
    if ident[:4] != _MAGIC:
        return None
    wide, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
    layout = order + ("QIHHHHHH" if wide else "IIHHHHHH")
    table, *_, entry_size, count, names_index = struct.unpack_from(
        layout, ident, 0x28 if wide else 0x20
    )
    handle.seek(table)
    raw = handle.read(entry_size * count)
    entry = order + ("IIQQQQ" if wide else "IIIIII")
    rows = [struct.unpack_from(entry, raw, i * entry_size) for i in range(count)]
    names = _chunk(handle, rows[names_index])
    sections = {_name(names, row[0]): row for row in rows}
    return ElfFacts(
        frozenset(sections),
        _build_id(_chunk(handle, sections.get(".note.gnu.build-id")), order),
        _name(_chunk(handle, sections.get(".gnu_debuglink")), 0) or None,
    )


def _chunk(handle: BinaryIO, row: tuple[int, ...] | None) -> bytes:
    """A section's bytes (offset and size are the 5th and 6th fields of its header)."""
    if row is None:
        return b""
    handle.seek(row[4])
    return handle.read(row[5])


def _name(data: bytes, offset: int) -> str:
    end = data.find(b"\0", offset)
    return data[offset : end if end >= 0 else len(data)].decode(errors="replace")


def _build_id(note: bytes, order: str) -> str | None:
    if len(note) < 12:
        return None
    name_size, desc_size, kind = struct.unpack_from(order + "III", note, 0)
    if kind != _NOTE_GNU_BUILD_ID:
        return None
    start = 12 + ((name_size + 3) & ~3)
    return note[start : start + desc_size].hex()


def separate_debug_file(path: str, facts: ElfFacts, root: str = DEBUG_ROOT) -> str | None:
    """Where gdb would find the debug information of ``path`` outside it, if installed."""
    candidates = []
    if facts.build_id and len(facts.build_id) > 2:
        build_id = facts.build_id
        candidates.append(f"{root}/.build-id/{build_id[:2]}/{build_id[2:]}.debug")
    if facts.debuglink:
        directory = os.path.dirname(os.path.realpath(path))
        candidates += [
            os.path.join(directory, facts.debuglink),
            os.path.join(directory, ".debug", facts.debuglink),
            f"{root}{directory}/{facts.debuglink}",
        ]
    return next((found for found in candidates if os.path.isfile(found)), None)


def has_symbols(path: str, root: str = DEBUG_ROOT) -> bool:
    """Debug information in the file itself, or in a separate debug file gdb would find."""
    facts = read_facts(path)
    if facts is None:
        return False
    return facts.has_debug_info or separate_debug_file(path, facts, root) is not None
