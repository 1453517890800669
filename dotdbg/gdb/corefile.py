"""What a core file says about the process it was made from, and whether this machine has the
very interpreter that process ran: a core is read against the executable and libraries on this
disk, and another build of them (another machine's, an upgraded package) gives a garbled stack.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from dotdbg.errors import DotdbgError
from dotdbg.gdb import elf

_ET_CORE = 4


@dataclass(frozen=True)
class CoreFacts:
    pid: int
    ppid: int | None
    command: str
    executable: str
    mapped: tuple[str, ...]  # the files the process had mapped, as paths of its machine
    missing: tuple[str, ...]  # of those, the ones this machine does not have


def is_core(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            header = handle.read(0x12)
    except OSError:
        return False
    kind = header[0x10:0x12]
    little = header[5:6] == b"\x01"
    number = int.from_bytes(kind, "little") if little else int.from_bytes(kind, "big")
    return header[:4] == b"\x7fELF" and number == _ET_CORE


def inspect(core: str, executable: str | None) -> CoreFacts:
    """The core's facts, or a DotdbgError naming what does not fit (one line and a hint)."""
    if not os.path.isfile(core):
        raise DotdbgError(f"there is no core file {core}", hint="check the path given to --core")
    if not is_core(core):
        raise DotdbgError(
            f"{core} is not a core file",
            hint="make one of a live process with: gcore -o core PID",
        )
    try:
        from pystack.engine import CoreFileAnalyzer
    except ImportError as error:
        raise DotdbgError(
            f"pystack cannot be imported ({error}), and core files are read through it",
            hint=f"{shlex.quote(sys.executable)} -m pip install pystack",
        ) from None
    analyzer = CoreFileAnalyzer(core)
    mapped = tuple(str(item.path) for item in analyzer.extract_maps() if item.path)
    recorded = _recorded_executable(str(analyzer.extract_executable()), mapped)
    # its real path, as a live process's frames name it (a venv's python is a link)
    exe = os.path.realpath(executable or recorded)
    _check_executable(core, exe, recorded, analyzer.extract_build_ids())
    info = analyzer.extract_ps_info()
    missing = tuple(sorted(str(path) for path in analyzer.missing_modules()))
    return CoreFacts(
        info.get("pid") or analyzer.extract_pid(),
        info.get("ppid"),
        str(info.get("psargs") or recorded),
        exe,
        tuple(dict.fromkeys(mapped)),
        missing,
    )


def _recorded_executable(named: str, mapped: tuple[str, ...]) -> str:
    """The executable as the core names it; where that is relative (to the process's working
    directory, not ours), the file the kernel mapped first, which is the executable."""
    if os.path.isabs(named) or not mapped or not os.path.isabs(mapped[0]):
        return named
    return mapped[0]


BuildIds = Iterable[tuple[str, str, str]]  # (file, build id in the core, build id on disk)


def _check_executable(core: str, exe: str, recorded: str, build_ids: BuildIds) -> None:
    """The interpreter must be here, and be the very build the process ran."""
    if not os.path.isfile(exe):
        raise DotdbgError(
            f"the core was made by {exe}, which is not on this machine",
            hint=f"pass that interpreter with --exe: dotdbg gdb --core {shlex.quote(core)} "
            "--exe /path/to/python",
        )
    wanted = _recorded_build_id(recorded, build_ids)
    facts = elf.read_facts(exe)
    here = facts.build_id if facts else None
    if wanted and here and wanted != here:
        raise DotdbgError(
            f"the core was made by another build of {recorded} than {exe} on this machine "
            f"(build id {wanted[:12]}…, here {here[:12]}…)",
            hint="read it where it was made, or pass that very interpreter with --exe",
        )


def _recorded_build_id(recorded: str, build_ids: BuildIds) -> str | None:
    real = os.path.realpath(recorded)
    for path, in_core, _on_disk in build_ids:
        if in_core and path in (recorded, real):
            return str(in_core)
    return None
