"""What gdb needs to show an interpreter's Python frames, found or explained in one line each.

Three things: CPython's gdb extension for that interpreter (``extension``), the interpreter's
debug information (in the file, a distribution's debug package, or debuginfod when
``DEBUGINFOD_URLS`` names a server), and gdb's permission to load the extension (its auto-load
safe-path, which dotdbg extends for the one file it found rather than switching it off).
"""

from __future__ import annotations

import os
import shlex
import shutil
from dataclasses import dataclass

from dotdbg.errors import DotdbgError
from dotdbg.gdb import elf, extension
from dotdbg.gdb.extension import Extension
from dotdbg.gdb.interpreter import Interpreter
from dotdbg.paths import Paths

LIBPYTHON_PY = "https://raw.githubusercontent.com/python/cpython/{tag}/Tools/gdb/libpython.py"


@dataclass(frozen=True)
class Needs:
    interpreter: Interpreter | None
    extension: Extension | None
    symbols: bool
    notes: tuple[str, ...]  # what is missing and how to install it, one line each

    @property
    def python_frames_possible(self) -> bool:
        return self.extension is not None and self.symbols


def find_gdb() -> str:
    found = shutil.which("gdb")
    if found is None:
        raise DotdbgError(
            "gdb is not installed (not on PATH)",
            hint="sudo apt-get install gdb   (Fedora: sudo dnf install gdb; conda: "
            "conda install -c conda-forge gdb)",
        )
    return found


def debuginfod_urls() -> str:
    return os.environ.get("DEBUGINFOD_URLS", "").strip()


def of(interpreter: Interpreter | None, debug_root: str = elf.DEBUG_ROOT) -> Needs:
    if interpreter is None:
        return Needs(None, None, False, ("the process's executable cannot be read",))
    found = extension.find(interpreter)
    symbols = any(elf.has_symbols(obj, debug_root) for obj in interpreter.objects)
    notes = []
    if found is None:
        notes.append(missing_extension(interpreter))
    elif not found.exact:
        notes.append(
            f"no python-gdb.py made for {interpreter.exe}: using {found.path} "
            f"(Python {interpreter.version}, the same major.minor version)"
        )
    if not symbols and not debuginfod_urls():
        notes.append(missing_symbols(interpreter))
    return Needs(interpreter, found, symbols or bool(debuginfod_urls()), tuple(notes))


def _is_debian() -> bool:
    return os.path.exists("/etc/debian_version")


def missing_extension(interpreter: Interpreter) -> str:
    what = f"no python-gdb.py for {interpreter.exe}"
    if interpreter.kind == "distro" and interpreter.version and _is_debian():
        return f"{what}: sudo apt-get install python{interpreter.version}-dbg"
    if interpreter.kind == "build-tree":
        return f"{what}: make -C {shlex.quote(os.path.dirname(interpreter.exe))} python-gdb.py"
    if interpreter.version is None:
        target = shlex.quote(interpreter.exe + "-gdb.py")
        return (
            f"{what}, whose Python version is not in its name: copy Tools/gdb/libpython.py "
            f"of that version to {target}"
        )
    tag = f"v{interpreter.full_version}" if interpreter.full_version else interpreter.version
    url = LIBPYTHON_PY.format(tag=tag)
    return f"{what}: curl -fsSL {url} -o {shlex.quote(interpreter.exe + '-gdb.py')}"


def missing_symbols(interpreter: Interpreter) -> str:
    what = f"no debug symbols for {interpreter.exe} (gdb cannot read its Python frames)"
    if interpreter.kind == "distro" and interpreter.version and _is_debian():
        return (
            f"{what}: sudo apt-get install python{interpreter.version}-dbg   "
            "(or export DEBUGINFOD_URLS=https://debuginfod.debian.net)"
        )
    if interpreter.kind == "pyenv" and interpreter.full_version:
        return f'{what}: PYTHON_CFLAGS="-g" pyenv install --force {interpreter.full_version}'
    if interpreter.kind == "conda":
        return (
            f"{what}: conda-forge builds python without them; pystack still reads the Python "
            "frames (dotdbg gdb PID), for py-bt run the program with a python built with -g"
        )
    return f"{what}: rebuild it with -g, or install its debug package"


def init_commands(needs: Needs) -> list[str]:
    """gdb ``-iex`` commands, run before anything loads: what gdb may load, how it looks."""
    commands = ["set pagination off", "set print thread-events off"]
    if needs.extension is not None:
        commands.append(f"add-auto-load-safe-path {needs.extension.path}")
    commands.append(f"set debuginfod enabled {'on' if debuginfod_urls() else 'off'}")
    # indexing Debian's python3.11 debug file takes gdb half a second on every start, once cached
    index = Paths.from_env().gdb_index_dir
    return [*commands, f"set index-cache directory {index}", "set index-cache enabled on"]
