"""The command ``--break-in`` runs under gdb, as an executable gdb can debug.

gdb runs ELF files only: ``python`` found on PATH may be a pyenv shim (a bash script) and
``./train.py`` a script with a shebang. Both are turned into the interpreter itself with the
same arguments, so the process gdb starts is the Python that runs the program.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Sequence

from dotdbg.errors import DotdbgError
from dotdbg.gdb.elf import is_elf


def resolve(command: Sequence[str]) -> list[str]:
    if not command:
        raise DotdbgError(
            "--break-in needs the command to run",
            hint="dotdbg gdb --break-in -- python train.py --lr 1e-3",
        )
    path = _which(command[0])
    if is_elf(path):
        return [path, *command[1:]]
    if "/shims/" in path:
        return [_pyenv_which(os.path.basename(path)), *command[1:]]
    interpreter = shebang(path)
    if interpreter is None:
        raise DotdbgError(
            f"{command[0]} is neither a program gdb can run nor a script with a #! line",
            hint="name the interpreter: dotdbg gdb --break-in -- python script.py",
        )
    return [*resolve(interpreter), path, *command[1:]]


def _which(name: str) -> str:
    found = name if "/" in name else shutil.which(name)
    if found is None or not os.path.isfile(found):
        raise DotdbgError(f"command {name!r} not found", hint="check the name, or give its path")
    return os.path.abspath(found)


def shebang(path: str) -> list[str] | None:
    """``#!/usr/bin/env python3 -u`` → ``["python3", "-u"]``; None without one."""
    try:
        with open(path, "rb") as handle:
            first = handle.readline(512)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = shlex.split(first[2:].decode(errors="replace"))
    if words and os.path.basename(words[0]) == "env":
        words = [word for word in words[1:] if not word.startswith("-")]
    return words or None


def _pyenv_which(name: str) -> str:
    """The interpreter a pyenv shim would run here (pyenv decides by directory and settings)."""
    try:
        done = subprocess.run(
            ["pyenv", "which", name], capture_output=True, text=True, timeout=30, check=True
        )
    except (OSError, subprocess.SubprocessError):
        raise DotdbgError(
            f"{name} is a pyenv shim and `pyenv which {name}` did not answer",
            hint="give the interpreter's path: dotdbg gdb --break-in -- $(pyenv which python) …",
        ) from None
    return done.stdout.strip()
