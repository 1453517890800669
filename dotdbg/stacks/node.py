"""The node side of ``stacks --job`` and ``pyspy --job``: ``dotdbg pyspy --json --in-job J …``,
run on every node of the job, answered before the command line is built (``dotdbg.cli.entry``).

Every node starts it for each ``stacks --job``, so it must cost little more than Python's own
start (issue 27): it scans /proc for the job's Python processes on this node, dumps them all at
once (``common.spawn``, not subprocess and threads) and writes each record's JSON from plain
dicts (``stacks.identity``, ``stacks.pyspyjson``), without the record's dataclasses. Only
``--native`` with a process py-spy could not take loads more: ``dotdbg gdb`` takes it over
(``stacks.fallback``). The caller merges the nodes' records and names the ranks nobody sent; a
node sees its own ranks only, so it does not.
"""

from __future__ import annotations

import json
import sys
import time

from dotdbg.common import spawn
from dotdbg.errors import DotdbgError, Stopped
from dotdbg.procs import procfs, pyprocs
from dotdbg.pyspy import outcome
from dotdbg.stacks import identity
from dotdbg.stacks.pyspyjson import thread_dicts

TYPE_CHECKING = False  # typing costs milliseconds of every node's start; mypy knows this name
if TYPE_CHECKING:
    import re
    from typing import Any

    from dotdbg.procs.pyprocs import PyProcess

AT_ONCE = 8  # dumps running at a time (as ``pyspy.dump.MAX_PARALLEL``)
_VALUED = {"--timeout", "--in-job", "--samples", "--interval"}
_FLAGS = {"--json": "json", "--native": "native", "--all-users": "all_users", "-a": "all_users"}
NO_MATCH = "no Python process matches"


class NodeOptions:
    """What ``stacks.run.remote_argv`` asks of a node."""

    __slots__ = ("all_users", "interval", "job", "native", "pattern", "samples", "timeout")

    def __init__(self, job: str, pattern: str | None, flags: set[str], values: dict[str, str]):
        self.job = job
        self.pattern = pattern
        self.native = "native" in flags
        self.all_users = "all_users" in flags
        self.timeout = _number(values.get("--timeout", "10"), 0.5)
        self.samples = int(values.get("--samples", "1"))
        self.interval = _number(values.get("--interval", "1"), 0.0)
        if not 1 <= self.samples <= 100:
            raise ValueError("samples")


def _number(text: str, minimum: float) -> float:
    value = float(text)
    if not value >= minimum:  # NaN fails too
        raise ValueError(text)
    return value


def parse(args: list[str]) -> NodeOptions | None:
    """The options after ``pyspy`` where they are the node-side form with ``--json`` and
    ``--in-job``; None for anything else (the full command line answers it, errors included)."""
    flags: set[str] = set()
    values: dict[str, str] = {}
    pattern = None
    words = iter(args)
    for word in words:
        if word in _VALUED:
            value = next(words, None)
            if value is None or word in values:
                return None
            values[word] = value
        elif word in _FLAGS:
            flags.add(_FLAGS[word])
        elif word.startswith("-") or pattern is not None:
            return None
        else:
            pattern = word
    if "json" not in flags or "--in-job" not in values:
        return None
    try:
        return NodeOptions(values["--in-job"], pattern, flags, values)
    except ValueError:
        return None


def run(options: NodeOptions) -> int:
    """Every sample of every process of the job on this node, one JSON line each; 0 when every
    dump worked, 1 when one failed or nothing matched."""
    _stop_on_signals()
    py_spy = _py_spy(options.native)
    targets = select(pyprocs.compile_pattern(options.pattern, "PATTERN"), options)
    if not targets:
        print(f"dotdbg: {NO_MATCH}", file=sys.stderr)
        return 1
    failed = False
    for number in range(options.samples):
        started = time.monotonic()
        for line, error in sample(py_spy, targets, options):
            sys.stdout.write(line + "\n")
            failed = failed or error
        sys.stdout.flush()
        if number < options.samples - 1:
            time.sleep(max(0.0, options.interval - (time.monotonic() - started)))
    return 1 if failed else 0


def _stop_on_signals() -> None:
    """SIGINT, SIGTERM or SIGHUP end the dumps running (``spawn.run_all`` kills them) and the
    command, with 128 + the signal's number (``cli.runner``)."""
    from dotdbg.common.rawsignal import signal

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _stopped)


def _stopped(number: int, _frame: object) -> None:
    raise Stopped(number)


def _py_spy(native: bool) -> str | None:
    """py-spy; None where it is missing and ``--native`` lets ``dotdbg gdb`` dump instead."""
    try:
        return outcome.find_py_spy()
    except DotdbgError:
        if native:
            return None
        raise


def select(pattern: re.Pattern[str] | None, options: NodeOptions) -> list[PyProcess]:
    """The job's Python processes on this node, in the order they started."""
    wanted = pyprocs.own_filter(pattern, options.all_users)
    found = pyprocs.Scanner(wanted).scan()
    mine = [process for process in found if procfs.in_this_job(process.environ, options.job)]
    return sorted(mine, key=lambda process: (process.stat.start_ticks, process.pid))


def sample(
    py_spy: str | None, targets: list[PyProcess], options: NodeOptions
) -> list[tuple[str, bool]]:
    """One JSON line per target (its record, with its threads or why it has none), and whether
    it has none."""
    records = [record(target, py_spy, options) for target in targets]
    if py_spy is not None:
        command = [py_spy, "dump", "--json"] + ["--native"] * options.native
        finished = spawn.run_all(
            [[*command, "--pid", str(target.pid)] for target in targets], options.timeout, AT_ONCE
        )
        for target, found, done in zip(targets, records, finished, strict=True):
            _fill(found, target, done, options.timeout)
    if options.native and any(
        (found["error"] or "").startswith(outcome.RETRIED) for found in records
    ):
        return _dumped_by_gdb(targets, records, options.timeout)
    return [(json.dumps(found, separators=(",", ":")), bool(found["error"])) for found in records]


def record(target: PyProcess, py_spy: str | None, options: NodeOptions) -> dict[str, Any]:
    found = identity.fields(target.pid, target.stat, target.argv, target.environ, "py-spy")
    if py_spy is None:
        found["error"] = outcome.NO_PY_SPY
    return found


def _fill(
    found: dict[str, Any], target: PyProcess, done: spawn.Finished | None, timeout: float
) -> None:
    status, text = outcome.explain(target.pid, target.stat.start_ticks, done, True, timeout)
    if status != "ok":
        found["error"] = f"{status}: {text}"
        return
    try:
        found["threads"] = thread_dicts(text)
    except ValueError as error:
        found["error"] = f"failed: py-spy printed no stacks ({error})"


def _dumped_by_gdb(
    targets: list[PyProcess], records: list[dict[str, Any]], timeout: float
) -> list[tuple[str, bool]]:
    """Each process py-spy could not take, dumped by ``dotdbg gdb --json`` (``--native``)."""
    from dotdbg.stacks.fallback import retried
    from dotdbg.stacks.record import from_dict

    done = retried(targets, [from_dict(found) for found in records], timeout)
    return [(found.to_json(), bool(found.error)) for found in done]
