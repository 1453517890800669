"""Where the dotdbg launcher is on a home's machine, and the shell lines that let a
non-interactive shell (``ssh HOST dotdbg …``) find it.

sshd runs a command through the user's shell without a login or an interactive shell: bash reads
~/.bashrc but returns at its interactive guard, and ~/.local/bin is put on PATH by ~/.profile
alone. The PATH block (``blocks.PATH``) goes before that guard; these are its lines.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from dotdbg.paths import Paths

# What sshd (and cron, and srun) give a command: the launcher found here needs no block.
STANDARD_PATH = (Path("/usr/local/bin"), Path("/usr/bin"), Path("/bin"))


def launcher_dir(paths: Paths) -> Path | None:
    """The folder holding dotdbg on the home's machine: ~/.local/bin when it has one there
    (install.sh, pipx, uv and pip --user put it there), else this process's launcher (a venv),
    when the home is on this machine. None: not found."""
    linked = paths.home / ".local" / "bin"
    if paths.fs.exists(linked / "dotdbg"):
        return linked
    if paths.home_fs is not None:  # another machine: this process's launcher is not there
        return None
    return running_launcher_dir()


def running_launcher_dir() -> Path | None:
    """The real folder of the dotdbg script running now (or of the one beside the interpreter:
    ``python -m dotdbg``)."""
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    candidates = [script] if script is not None and script.name == "dotdbg" else []
    candidates.append(Path(sys.executable).with_name("dotdbg"))
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return Path(os.path.realpath(candidate.absolute().parent))
    return None


def path_dir(paths: Paths) -> Path | None:
    """The folder a PATH block adds: the launcher's, unless a non-interactive PATH has it."""
    found = launcher_dir(paths)
    return None if found is None or found in STANDARD_PATH else found
