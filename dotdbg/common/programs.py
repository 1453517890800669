"""Finding a program on PATH and reading exit codes: what every helper asks of a command
before and after it runs, without the process machinery of ``common.child`` (its signal
import alone costs a start 5-6 ms: issue 27)."""

from __future__ import annotations

import os

from dotdbg.errors import DotdbgError


def which(program: str, path: str | None = None) -> str | None:
    """Where ``program`` (a bare name) is on ``path`` (default: $PATH), as ``shutil.which``
    finds it, without importing shutil: it imports bz2 and lzma, several milliseconds of
    memlimit's start (issue 27). An empty entry of PATH is skipped, not taken as the cwd."""
    for directory in (os.environ.get("PATH", os.defpath) if path is None else path).split(":"):
        candidate = os.path.join(directory, program)
        if directory and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def require_program(program: str, path: str | None = None) -> None:
    """Refuse a command that cannot start before anything is set up for it (a fill, a cgroup)."""
    if "/" in program:
        found = os.path.isfile(program) and os.access(program, os.X_OK)
    else:
        found = which(program, path) is not None
    if not found:
        raise DotdbgError(
            f"command {program!r} not found", hint="check the name, or give its full path after --"
        )


def exit_code_of(returncode: int) -> int:
    """A return code as a shell shows it: killed by signal N gives 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


def exit_code_of_status(wait_status: int) -> int:
    """The same for a status from ``os.waitpid``."""
    return exit_code_of(os.waitstatus_to_exitcode(wait_status))
