"""gdb's command lines (a batch dump, a prompt on a live process or a core, a program run under
gdb for ``--break-in``) and the batch run itself, whose JSON line ``ingdb.py`` prints.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dotdbg.gdb.needs import Needs, init_commands
from dotdbg.gdb.pystack_dump import DumpFailure
from dotdbg.stacks.record import Thread, thread_from_dict

INGDB = str(Path(__file__).with_name("ingdb.py"))
JSON_MARK = "@dotdbg-json@ "
TERM_GRACE_SECONDS = 3.0  # gdb detaches on SIGTERM; after that it is killed
_DENIED = re.compile(r"ptrace: Operation not permitted|Could not attach to process")
_GONE = re.compile(r"ptrace: No such process|No such process\.")


@dataclass(frozen=True)
class Target:
    """What gdb opens: a live process (``pid``), or a core file with its executable."""

    pid: int | None = None
    core: str | None = None
    executable: str | None = None

    def args(self) -> list[str]:
        if self.pid is not None:
            return ["-p", str(self.pid)]
        return [self.executable or "", self.core or ""]


@dataclass(frozen=True)
class GdbDump:
    threads: list[Thread]
    python: bool  # whether the extension was there to read Python frames


def command(gdb: str, needs: Needs, batch: bool) -> list[str]:
    argv = [gdb, "-q", *(["-nx", "-batch"] if batch else [])]
    for init in init_commands(needs):
        argv += ["-iex", init]
    return [*argv, "-x", INGDB]


def after_load(needs: Needs) -> list[str]:
    if needs.extension is None:
        return []
    return ["-ex", f"dotdbg-load-extension {needs.extension.path}"]


def dump_argv(gdb: str, needs: Needs, target: Target) -> list[str]:
    return [*command(gdb, needs, True), *target.args(), *after_load(needs), "-ex", "dotdbg-json"]


def prompt_argv(gdb: str, needs: Needs, target: Target, tui: bool) -> list[str]:
    opened = [*command(gdb, needs, False), *(["--tui"] if tui else []), *target.args()]
    return [*opened, *after_load(needs), "-ex", "dotdbg-bt"]


def break_in_argv(gdb: str, needs: Needs, program: Sequence[str], tui: bool) -> list[str]:
    return [
        *command(gdb, needs, False),
        *(["--tui"] if tui else []),
        *after_load(needs),
        "-ex",
        "dotdbg-break-in",
        "-ex",
        "run",
        "--args",
        *program,
    ]


def run_dump(argv: list[str], timeout: float) -> GdbDump:
    """Run gdb in batch mode; its threads, or a DumpFailure saying why there are none."""
    # errors="replace": gdb's warnings quote the target's file names, which need not be UTF-8
    with subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
        close_fds=False,  # gdb holds the keeper's pipe (tracee.kept_running): gdb is a tracer
    ) as gdb:
        try:
            out, err = gdb.communicate(timeout=timeout)
        except BaseException:
            _stop(gdb)
            raise
    return parse_dump(out, err)


def _stop(gdb: subprocess.Popen[str]) -> None:
    """SIGTERM first: gdb then detaches from the process, which a SIGKILL would leave stopped."""
    gdb.send_signal(signal.SIGTERM)
    try:
        gdb.communicate(timeout=TERM_GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        gdb.kill()
        gdb.communicate()


def parse_dump(out: str, err: str) -> GdbDump:
    """gdb's batch output: the JSON line, unless gdb could not open the target (then no thread)."""
    for line in out.splitlines():
        if line.startswith(JSON_MARK):
            data = json.loads(line[len(JSON_MARK) :])
            threads = [thread_from_dict(thread) for thread in data["threads"]]
            if threads:
                return GdbDump(threads, data["python"])
    raise _failure(err + out)


def _failure(output: str) -> DumpFailure:
    if _DENIED.search(output):
        return DumpFailure("denied", "ptrace refused: gdb may not attach")
    if _GONE.search(output):
        return DumpFailure("gone", "the process exited")
    last = next((line for line in reversed(output.splitlines()) if line.strip()), "no output")
    return DumpFailure("unreadable", f"gdb: {last.strip()}")


def exec_prompt(argv: list[str]) -> int:
    """Run an interactive gdb in this terminal; Ctrl-C belongs to gdb meanwhile."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        # close_fds=False: gdb holds the keeper's pipe, as in run_dump
        with subprocess.Popen(argv, preexec_fn=_default_sigint, close_fds=False) as gdb:
            return gdb.wait()
    finally:
        signal.signal(signal.SIGINT, previous)


def _default_sigint() -> None:  # pragma: no cover - runs in the child before exec
    signal.signal(signal.SIGINT, signal.SIG_DFL)
