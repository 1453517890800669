"""Running strace (a command, or attached to a process) and keeping what the program said.

strace writes the failed calls (``-Z``) of every process and thread (``-f``), with times
(``-tt``) and the paths behind file descriptors (``-y``), to a file; the program's stderr
passes through us to the terminal, and its last part is kept, since a path the program then
printed is the best clue to which failure mattered. Ctrl-C ends the program (or, with -p,
detaches) and the summary of what was traced so far is still printed.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from dotdbg.errors import DotdbgError

STRACE_OPTIONS = ["-f", "-q", "-tt", "-y", "-s", "1024", "-Z"]
KEPT_OUTPUT = 256 * 1024
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
_STRACE_SAYS = re.compile(r"(?:\S*/)?strace: (.*)")


@dataclass
class Traced:
    lines: list[str]
    output: str  # the end of the program's stderr (and strace's own complaints)
    returncode: int  # strace's: the command's, negative for a signal
    interrupted: bool


def strace_program() -> str:
    found = shutil.which("strace")
    if found is None:
        raise DotdbgError("strace is not installed", hint="install it: apt install strace")
    return found


def trace(target: list[str] | int, keep: str | None, stdout_to_stderr: bool = False) -> Traced:
    """``target``: a command to start, or the pid of one to attach to. ``stdout_to_stderr``:
    the command's stdout joins its stderr (stdout then holds only the JSON summary)."""
    if isinstance(target, int) and not os.path.exists(f"/proc/{target}"):
        raise DotdbgError(f"no process {target}", hint="see `ps -ef` for the pids running here")
    with tempfile.TemporaryDirectory(prefix="dotdbg-errtrace-") as folder:
        log = keep or os.path.join(folder, "trace")
        argv = [strace_program(), *STRACE_OPTIONS, "-o", log]
        argv += ["-p", str(target)] if isinstance(target, int) else ["--", *target]
        read_end, write_end = os.pipe()
        stdout = write_end if stdout_to_stderr else None
        try:
            process = subprocess.Popen(argv, stdout=stdout, stderr=write_end)
        finally:
            os.close(write_end)
        with open(read_end, "rb", buffering=0) as stderr:
            output, interrupted = _pass_stderr_on(stderr.fileno(), process, isinstance(target, int))
        returncode = process.wait()
        with open(log, errors="replace") as file:
            lines = file.readlines()
    _refuse_when_strace_failed(lines, output, target)
    return Traced(lines, output, returncode, interrupted)


def _pass_stderr_on(fd: int, process: subprocess.Popen[bytes], attached: bool) -> tuple[str, bool]:
    """Copy the program's stderr to ours until it ends; Ctrl-C or SIGTERM meanwhile are passed
    on (so that we still read the trace and print the summary) and reported."""
    kept = bytearray()
    stops: list[int] = []

    def stop(signum: int, _frame: object) -> None:
        stops.append(signum)
        _pass_on(signum, process, attached)

    previous = {signum: signal.signal(signum, stop) for signum in STOP_SIGNALS}
    try:
        while chunk := os.read(fd, 65536):
            sys.stderr.buffer.write(chunk)
            sys.stderr.buffer.flush()
            kept += chunk
            del kept[:-KEPT_OUTPUT]
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    return kept.decode(errors="replace"), bool(stops)


def _pass_on(signum: int, process: subprocess.Popen[bytes], attached: bool) -> None:
    """strace detaches from an attached process; a started one gets the signal itself, unless
    it was Ctrl-C in a terminal, which already sent it to the whole group."""
    from dotdbg.common.child import _terminal_sent_it_too

    if attached:
        process.send_signal(signal.SIGINT)
        return
    if _terminal_sent_it_too(signum):
        return
    for pid in _children(process.pid):
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [int(word) for word in file.read().split()]
    except OSError:
        return []


def _refuse_when_strace_failed(lines: list[str], output: str, target: list[str] | int) -> None:
    complaints = [m[1] for m in map(_STRACE_SAYS.match, output.splitlines()) if m]
    if lines or not complaints:
        return
    hint = "run it as the process's owner or root"
    if isinstance(target, int) and os.path.exists("/proc/sys/kernel/yama/ptrace_scope"):
        hint += (
            "; attaching to a process you did not start needs "
            "`echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope`"
        )
    raise DotdbgError(f"strace could not trace: {complaints[0]}", hint=hint)
