"""``dotdbg errtrace``'s one call: trace, read, summarize, and the exit code to end with."""

from __future__ import annotations

import signal

from dotdbg.errtrace.parse import Exit, read_trace
from dotdbg.errtrace.summary import Summary, summarize
from dotdbg.errtrace.trace import trace

EXIT_INTERRUPTED = 130


def run(target: list[str] | int, keep: str | None, as_json: bool) -> tuple[Summary, int]:
    """``target``: a command, or a pid to attach to. The exit code is the command's; for a pid,
    the process's when it ended while traced, else 0 (130 after Ctrl-C)."""
    from dotdbg.common.programs import exit_code_of, require_program

    if isinstance(target, list):
        require_program(target[0])
    traced = trace(target, keep, stdout_to_stderr=as_json)
    failures, exits = read_trace(traced.lines)
    if isinstance(target, int):
        label, shown = f"pid {target}", attached_exit(target, exits)
        code = shown if shown is not None else EXIT_INTERRUPTED if traced.interrupted else 0
    else:
        label, shown = " ".join(target), exit_code_of(traced.returncode)
        code = shown
    summary = summarize(label, shown, failures, exits, traced.output)
    summary.trace = keep
    return summary, code


def attached_exit(pid: int, exits: list[Exit]) -> int | None:
    ended = next((e for e in exits if e.pid == pid), None)
    if ended is None:
        return None
    if ended.code is not None:
        return ended.code
    return 128 + signal.Signals[ended.signal or "SIGKILL"].value
