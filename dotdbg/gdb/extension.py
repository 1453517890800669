"""Finding CPython's gdb extension (``python-gdb.py``: py-bt, py-list, py-up, py-locals) that
matches an interpreter, wherever its install put it:

- a distribution's debug package: under gdb's auto-load directory, named after the real file
  (Debian's python3-dbg: ``/usr/share/gdb/auto-load/usr/bin/python3.11-gdb.py``);
- beside the interpreter or its libpython, as ``<file>-gdb.py`` (gdb's own rule for a script
  that belongs to an object file; where dotdbg's hint puts a downloaded copy);
- a CPython build tree: ``python-gdb.py`` beside the ``python`` that ``make`` built;
- pyenv: the kept build directory of ``pyenv install --keep``.

When none was made for this very interpreter, one made for the same major.minor version is
used: the script reads the interpreter's structures through the interpreter's own debug
information, so it works across patch releases (Debian's 3.11.2 script reads pyenv's 3.11.7).
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterable
from dataclasses import dataclass

from dotdbg.gdb.elf import DEBUG_ROOT
from dotdbg.gdb.interpreter import Interpreter

GDB_DATA_DIRS = ("/usr/share/gdb", "/usr/local/share/gdb")


@dataclass(frozen=True)
class Extension:
    path: str
    exact: bool  # made for this interpreter (else for another of the same major.minor)


def candidates(interpreter: Interpreter, data_dirs: Iterable[str] = GDB_DATA_DIRS) -> list[str]:
    """Where the extension of exactly this interpreter would be, most specific first."""
    data_dirs = [*data_dirs, os.path.join(interpreter.prefix, "share", "gdb")]
    paths = []
    for obj in interpreter.objects:
        paths += [f"{data}/auto-load{obj}-gdb.py" for data in data_dirs]
        paths += [f"{obj}-gdb.py", f"{DEBUG_ROOT}{obj}-gdb.py"]
    here = os.path.dirname(interpreter.exe)
    paths += [os.path.join(here, "python-gdb.py"), os.path.join(here, "Tools/gdb/libpython.py")]
    if interpreter.full_version:
        root = interpreter.exe.split("/versions/", 1)[0]
        release = interpreter.full_version
        paths.append(f"{root}/sources/{release}/Python-{release}/python-gdb.py")
    return paths


def same_version(interpreter: Interpreter, data_dirs: Iterable[str] = GDB_DATA_DIRS) -> list[str]:
    """Extensions installed for other interpreters of the same major.minor version."""
    if not interpreter.version:
        return []
    found: list[str] = []
    for data in data_dirs:
        pattern = f"{data}/auto-load/**/*python{interpreter.version}*-gdb.py"
        found += sorted(glob.glob(pattern, recursive=True), key=_plain_first)
    return found


def _plain_first(path: str) -> tuple[bool, str]:
    """``python3.11-gdb.py`` before ``python3.11d-gdb.py`` (a debug build's)."""
    return path.endswith(("d-gdb.py", "-dbg-gdb.py")), path


def find(interpreter: Interpreter, data_dirs: Iterable[str] = GDB_DATA_DIRS) -> Extension | None:
    data_dirs = tuple(data_dirs)
    exact = next((p for p in candidates(interpreter, data_dirs) if os.path.isfile(p)), None)
    if exact:
        return Extension(exact, True)
    near = next(iter(same_version(interpreter, data_dirs)), None)
    return Extension(os.path.realpath(near), False) if near else None
