"""How the process of a core file ended: the signal, and for a fault the address it touched.

Read from the core's notes (``NT_SIGINFO``, the kernel's siginfo of the thread that took the
signal, which it writes first). ``gcore`` writes SIGSTOP, which never ends a process: a
snapshot of a live one, no death to tell.
"""

from __future__ import annotations

import signal
import struct
from dataclasses import dataclass
from typing import BinaryIO

_PT_NOTE = 4
_NT_SIGINFO = 0x53494749
_NT_PRSTATUS = 1
_FAULTS = frozenset({signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE, signal.SIGTRAP})
_SEGV_CODES = {1: "address not mapped", 2: "no permission for that access"}
_MAX_NOTES = 64 << 20  # a core's notes are a few KiB per thread


@dataclass(frozen=True)
class Death:
    signal: int
    code: int
    address: int | None  # for a fault
    sender: int | None  # the pid that sent it (kill), when the code says so
    tid: int | None  # the thread that took it

    def text(self) -> str:
        try:
            name = signal.Signals(self.signal).name
        except ValueError:
            name = f"signal {self.signal}"
        said = f"the process died of {name} ({signal.strsignal(self.signal) or '?'})"
        if self.address is not None:
            said += f" at address {self.address:#x}"
            reason = _SEGV_CODES.get(self.code) if self.signal == signal.SIGSEGV else None
            said += f" ({reason})" if reason else ""
        elif self.sender is not None:
            said += f", sent by pid {self.sender}"
        return said + (f", in thread {self.tid}" if self.tid else "")


def of_core(path: str) -> Death | None:
    """None when the core records no signal (gcore), or cannot be read."""
    try:
        with open(path, "rb") as handle:
            return _read(handle)
    except (OSError, struct.error, ValueError):
        return None


def _read(handle: BinaryIO) -> Death | None:
    ident = handle.read(0x40)
    if ident[:4] != b"\x7fELF" or ident[4] != 2:  # 64-bit cores only
        return None
    order = "<" if ident[5] == 1 else ">"
    table, entry_size, count = (
        struct.unpack_from(order + "Q", ident, 0x20)[0],
        *struct.unpack_from(order + "HH", ident, 0x36),
    )
    handle.seek(table)
    raw = handle.read(entry_size * count)
    for index in range(count):
        kind, _flags, offset, _vaddr, _paddr, size = struct.unpack_from(
            order + "IIQQQQ", raw, index * entry_size
        )
        if kind == _PT_NOTE and size <= _MAX_NOTES:
            handle.seek(offset)
            return _from_notes(handle.read(size), order)
    return None


def _notes(data: bytes, order: str) -> list[tuple[int, bytes]]:
    found, at = [], 0
    while at + 12 <= len(data):
        name_size, desc_size, kind = struct.unpack_from(order + "III", data, at)
        start = at + 12 + ((name_size + 3) & ~3)
        found.append((kind, data[start : start + desc_size]))
        at = start + ((desc_size + 3) & ~3)
    return found


def _from_notes(data: bytes, order: str) -> Death | None:
    notes = _notes(data, order)
    info = next((desc for kind, desc in notes if kind == _NT_SIGINFO), None)
    status = next((desc for kind, desc in notes if kind == _NT_PRSTATUS), None)
    # elf_prstatus: siginfo (3 ints), pr_cursig (short, padded), 2 sigsets, then pr_pid
    tid = struct.unpack_from(order + "i", status, 32)[0] if status and len(status) >= 36 else None
    if info is None or len(info) < 24:
        return None
    number, _errno, code = struct.unpack_from(order + "iii", info, 0)
    if number <= 0 or number == signal.SIGSTOP:  # SIGSTOP: gcore's snapshot, not a death
        return None
    address = struct.unpack_from(order + "Q", info, 16)[0] if number in _FAULTS else None
    sender = struct.unpack_from(order + "i", info, 16)[0] if code <= 0 and address is None else None
    return Death(number, code, address if code > 0 else None, sender, tid)
