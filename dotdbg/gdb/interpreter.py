"""Which Python interpreter a process, a core file or a command runs, and what kind of install it
comes from (a distribution's, pyenv, conda, a venv, a CPython build tree): that decides where its
gdb extension and its debug symbols would be, and how to install them when they are not.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

from dotdbg.procs import procfs, pycmdline

_VERSION = re.compile(r"python(\d+\.\d+)")
_DEBUG_BUILD = re.compile(r"python\d+\.\d+t?d$|-dbg$|-debug$")
_PYENV_VERSION = re.compile(r"/\.?pyenv/versions/(\d+\.\d+\.\d+\w*)/")
DISTRO_DIRS = ("/usr/bin", "/bin", "/usr/local/bin")


@dataclass(frozen=True)
class Interpreter:
    exe: str  # the real file, symbolic links resolved
    version: str | None  # major.minor: "3.11"
    kind: str  # distro, pyenv, conda, build-tree, other
    library: str | None = None  # libpython, where the interpreter's code is a shared library
    full_version: str | None = None  # "3.11.7", where the install says so

    @property
    def objects(self) -> tuple[str, ...]:
        """The files whose symbols and gdb scripts matter: the executable and its libpython."""
        return (self.exe, self.library) if self.library else (self.exe,)

    @property
    def debug_build(self) -> bool:
        return _DEBUG_BUILD.search(os.path.basename(self.exe)) is not None

    @property
    def looks_like_python(self) -> bool:
        """By its name or its libpython: worth explaining a missing python-gdb.py for."""
        return self.version is not None or pycmdline.is_python_name(os.path.basename(self.exe))

    @property
    def prefix(self) -> str:
        return os.path.dirname(os.path.dirname(self.exe))


def version_in(name: str) -> str | None:
    found = _VERSION.search(os.path.basename(name))
    return found.group(1) if found else None


def base_of_venv(path: str) -> str:
    """A venv's ``python`` made with ``--copies`` is a copy: its ``home`` names the original."""
    config = os.path.join(os.path.dirname(os.path.dirname(path)), "pyvenv.cfg")
    try:
        with open(config) as handle:
            lines = handle.read().splitlines()
    except OSError:
        return path
    home = next((line.split("=", 1)[1].strip() for line in lines if line.startswith("home")), "")
    original = os.path.join(home, os.path.basename(path))
    return os.path.realpath(original) if home and os.path.exists(original) else path


def kind_of(exe: str) -> str:
    directory = os.path.dirname(exe)
    if os.path.exists(os.path.join(directory, "pyconfig.h")) and os.path.exists(
        os.path.join(directory, "Makefile")
    ):
        return "build-tree"
    if _PYENV_VERSION.search(exe):
        return "pyenv"
    if os.path.isdir(os.path.join(os.path.dirname(directory), "conda-meta")):
        return "conda"
    return "distro" if directory in DISTRO_DIRS else "other"


def describe(exe: str, mapped: Iterable[str] = ()) -> Interpreter:
    """The interpreter at ``exe``; ``mapped``: the files a process or core has mapped, which
    name its libpython (else one is looked for beside the install)."""
    exe = base_of_venv(os.path.realpath(exe))
    mapped = list(mapped)
    library = next((path for path in mapped if "/libpython" in path), None)
    version = version_in(exe) or (version_in(library) if library else None)
    if library is None and version:
        beside = os.path.join(os.path.dirname(os.path.dirname(exe)), "lib", f"libpython{version}")
        library = next((p for p in _shared_objects(beside) if os.path.exists(p)), None)
    pyenv = _PYENV_VERSION.search(exe)
    return Interpreter(exe, version, kind_of(exe), library, pyenv.group(1) if pyenv else None)


def _shared_objects(stem: str) -> tuple[str, ...]:
    return (f"{stem}.so.1.0", f"{stem}d.so.1.0", f"{stem}.so")


def mapped_files(pid: int) -> list[str]:
    """The files ``pid`` has mapped, in order, each once."""
    try:
        maps = procfs.read_bytes(f"{procfs.PROC}/{pid}/maps").decode(errors="replace")
    except OSError:
        return []
    fields = (line.split(None, 5) for line in maps.splitlines())
    paths = (parts[5].strip() for parts in fields if len(parts) == 6)
    return list(dict.fromkeys(path for path in paths if path.startswith("/")))


def of_process(pid: int) -> Interpreter | None:
    """None when the executable cannot be read (gone, another user's)."""
    exe = procfs.readlink(f"{procfs.PROC}/{pid}/exe")
    return describe(exe, mapped_files(pid)) if exe else None
