"""py-spy itself: where it is, and what one ``py-spy dump`` came to: ``ok``, or why not (gone,
denied, traced, timeout, failed), in words a user can act on.

Pure but for two reads of /proc (is the target still alive, who traces it), and light: the
node-side entry of ``stacks --job`` (``dotdbg.stacks.node``) imports it on every node.
"""

from __future__ import annotations

import sys

from dotdbg.common.programs import which
from dotdbg.common.spawn import beside_interpreter
from dotdbg.errors import DotdbgError
from dotdbg.procs import procfs

# py-spy's words for a refused attach, matched in lower case
_DENIED = ("permission denied", "operation not permitted", "(os error 1)")
RETRIED = ("missing: ", "failed: ", "denied: ")  # reasons that ``dotdbg gdb`` may get past
NO_PY_SPY = "missing: py-spy is not installed on this node"
ADVICE_LATER = "how to allow it is printed at the end"


def find_py_spy() -> str:
    """py-spy on PATH (which tests and users may point at a wrapper), else in dotdbg's own env."""
    found = which("py-spy") or beside_interpreter("py-spy")
    if found is None:
        raise DotdbgError(
            "py-spy is not installed (not on PATH, nor beside dotdbg)",
            hint=f"{_quoted(sys.executable)} -m pip install py-spy   (into dotdbg's own "
            "environment; or: pipx install py-spy), then run dotdbg pyspy again",
        )
    return found


def _quoted(word: str) -> str:
    import shlex

    return shlex.quote(word)


def classify(returncode: int, output: str) -> str:
    if returncode == 0:
        return "ok"
    lowered = output.lower()
    return "denied" if any(words in lowered for words in _DENIED) else "failed"


def explain(
    pid: int,
    start_ticks: int,
    finished: tuple[int, str, str] | None,
    as_json: bool,
    timeout: float,
) -> tuple[str, str]:
    """(status, text) of a dump of ``pid`` that ended with (returncode, stdout, stderr), or
    None when it ran out of ``timeout``; text is py-spy's output, or what went wrong."""
    if finished is None:
        return "timeout", f"py-spy did not finish within {timeout:g}s"
    returncode, out, err = finished
    output = out if returncode == 0 and as_json else (out + err).strip()
    status = classify(returncode, output)
    if status != "ok" and not procfs.same_process_alive(pid, start_ticks):
        # it exited between the scan and the dump: nothing of it is left to look at
        return "gone", "the process exited before py-spy could read it"
    traced = procfs.tracer_of(pid) if status == "denied" else None
    if traced is not None:  # root or not, one tracer at a time: no advice would help
        return "traced", already_traced(*traced)
    if status == "denied":  # py-spy's own advice ends in a shell's `!!`: explained at the end
        return (
            status,
            "ptrace refused: py-spy may not attach (how to allow it is printed at the end)",
        )
    if status == "failed" and returncode < 0:  # no message: it did not live to write one
        said = f" ({first_error_line(output)})" if output else ""
        return status, f"py-spy was killed by {signal_name(-returncode)}{said}"
    if status == "failed" and as_json:
        return status, first_error_line(output)
    return status, output


def already_traced(tracer: int, name: str) -> str:
    return (
        f"already traced by {name} (pid {tracer}): a process has one tracer at a time; "
        f"detach it (quit that gdb, stop that strace) and dump again"
    )


def signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def first_error_line(output: str) -> str:
    """py-spy's ``Error: …`` line without the Rust backtrace below it."""
    for line in output.splitlines():
        if line.startswith("Error:"):
            return "py-spy: " + line.removeprefix("Error:").strip()
    return output.splitlines()[0] if output else "py-spy failed without a message"
