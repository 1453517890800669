"""``dotdbg stacks`` and ``dotdbg pyspy --json``: gather records (here, on a job's nodes, over
ssh, or from a file), merge them, print them."""

from __future__ import annotations

import os
import sys
from collections import Counter
from dataclasses import dataclass, field

from dotdbg.common.holding import stop_on_signals
from dotdbg.errors import DotdbgError

# With --job, --nodes or --exec the nodes are asked first and the modules for what comes back
# (records, merging, printing) are imported while they work (``_while_the_nodes_work``).
TYPE_CHECKING = False  # typing costs milliseconds of every start; mypy knows this name
if TYPE_CHECKING:
    import re
    import threading
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from dotdbg.fanout.engine import Engine
    from dotdbg.stacks.job import Gathered
    from dotdbg.stacks.merge import Merged
    from dotdbg.stacks.record import StackRecord

READ_BUFFER = 1 << 20  # a record file can be gigabytes of long lines
INDENTED_DEPTH = 200  # frames; a deeper tree's JSON is written on one line
EXIT_STOPPED_SIGNALS = (2, 15, 1)  # SIGINT, SIGTERM, SIGHUP: py-spy children die with dotdbg


@dataclass(frozen=True)
class DumpOptions:
    """What to dump and how: the options ``stacks`` and ``pyspy`` share."""

    pattern: str | None = None
    tree: int | None = None
    all_users: bool = False
    native: bool = False
    timeout: float = 10.0
    samples: int = 1
    interval: float = 1.0
    in_job: str | None = None  # only this SLURM job's processes (what --job asks each node)


@dataclass(frozen=True)
class View:
    """How to show the merged stacks."""

    all_threads: bool = False
    full: bool = False
    as_json: bool = False
    dot: Path | None = None
    svg: Path | None = None
    extra: dict[str, object] = field(default_factory=dict)


def remote_argv(remote: str, options: DumpOptions, node_filter: list[str]) -> list[str]:
    argv = [remote, "pyspy", "--json", "--timeout", f"{options.timeout:g}", *node_filter]
    argv += ["--samples", str(options.samples), "--interval", f"{options.interval:g}"]
    argv += ["--native"] * options.native + ["--all-users"] * options.all_users
    return argv + ([options.pattern] if options.pattern is not None else [])


def local_records(options: DumpOptions) -> list[StackRecord] | None:
    """Every sample of every matching process, in order; None when nothing matches."""
    from dotdbg.pyspy import outcome
    from dotdbg.stacks import local

    py_spy = _py_spy_or_none() if options.native else outcome.find_py_spy()
    pattern = _compile(options.pattern)
    targets = local.select(pattern, options.tree, options.all_users, options.in_job)
    if not targets:
        return None
    rounds = local.sample_records(
        py_spy, targets, options.native, options.timeout, options.samples, options.interval
    )
    return [record for sample in rounds for record in sample]


def _py_spy_or_none() -> str | None:
    """py-spy, or None where it is missing: ``--native`` then dumps with ``dotdbg gdb``."""
    from dotdbg.pyspy import outcome

    try:
        return outcome.find_py_spy()
    except DotdbgError:
        return None


def _compile(pattern: str | None) -> re.Pattern[str] | None:
    from dotdbg.procs.pyprocs import compile_pattern

    return compile_pattern(pattern, "PATTERN")


def gather(
    options: DumpOptions, engine: Engine | None, meanwhile: Callable[[], object] = lambda: None
) -> Gathered:
    """Every record, from here or from the engine's nodes; ``meanwhile`` runs while they work."""
    from dotdbg.fanout.engine import START_SLACK

    if engine is None:
        from dotdbg.stacks import identity
        from dotdbg.stacks.job import Gathered

        records = local_records(options)
        if records is None:
            return Gathered([], ["no Python process matches"], [identity.host_name()])
        return Gathered(records, [], [identity.host_name()])
    if options.tree is not None:
        raise DotdbgError(
            "--tree names a process on this machine", hint="use a PATTERN with --job or --nodes"
        )
    argv = remote_argv(engine.remote_dotdbg, options, engine.node_filter())
    # dumps take up to --timeout each, samples wait their interval, dotdbg takes time to start
    budget = options.timeout + (options.samples - 1) * options.interval
    budget += min(START_SLACK, options.timeout)
    nodes = engine.nodes()
    waiting = _said_after_a_second(f"asking {len(nodes)} nodes (up to {budget:g}s)…")
    try:
        finished = engine.run_meanwhile(nodes, argv, budget, meanwhile)
    finally:
        if waiting is not None:
            waiting.cancel()
    from dotdbg.stacks.job import collect

    return collect(engine, finished, argv, budget)


def _said_after_a_second(line: str) -> threading.Timer | None:
    """The wait's progress line for a person at a terminal; nothing (not even the timer's
    thread, or threading) for a script or a pipe, which would not be shown it."""
    if not sys.stderr.isatty():
        return None
    from dotdbg.common.output import after_a_second

    return after_a_second(line)


def _gather_stoppable(
    options: DumpOptions, engine: Engine | None, meanwhile: Callable[[], object] = lambda: None
) -> Gathered:
    """``gather``, with py-spy's children stopped when dotdbg is interrupted."""
    with stop_on_signals(EXIT_STOPPED_SIGNALS):
        return gather(options, engine, meanwhile)


def read_file(path: str) -> list[StackRecord]:
    """Records from a JSON Lines file (``-``: standard input), e.g. ``dotdbg gdb --json``."""
    from dotdbg.stacks.jsonlines import read
    from dotdbg.stacks.record import RecordError

    try:
        if path == "-":
            return list(read(sys.stdin.buffer, "<stdin>"))
        with open(path, "rb", buffering=READ_BUFFER) as handle:
            return list(read(handle, path))
    except OSError as error:
        raise DotdbgError(f"cannot read {path}: {error.strerror}") from None
    except RecordError as error:
        raise DotdbgError(
            str(error), hint="give the JSON Lines of dotdbg pyspy --json or dotdbg gdb --json"
        ) from None


def samples_in(records: list[StackRecord]) -> int:
    """How many times the most sampled process appears (each sample lists it once)."""
    counts = Counter((record.host, record.pid) for record in records)
    return max(counts.values(), default=1)


def pyspy_json(options: DumpOptions, engine: Engine | None) -> int:
    """One record per line per process and sample; 0 when every dump worked."""
    from dotdbg.stacks.record import write

    gathered = _gather_stoppable(options, engine)
    write(gathered.records, sys.stdout)
    sys.stdout.flush()
    return _problems_said(gathered)


def pyspy_text(options: DumpOptions, engine: Engine | None) -> int:
    """The dumps as py-spy prints them, one titled section per process, from every node."""
    from dotdbg.stacks.render import dump_text

    gathered = _gather_stoppable(options, engine)
    for record in gathered.records:
        print(dump_text(record), flush=True)
    code = _problems_said(gathered)
    _advice_if_denied([record for record in gathered.records if record.error])
    return code


def _problems_said(gathered: Gathered) -> int:
    """Each node's problem, and the ranks not seen, on stderr; the exit code: 0 when every dump
    worked."""
    from dotdbg.stacks import ranksets
    from dotdbg.visible import one_line

    missing = ranksets.not_seen(gathered.records, gathered.nodes, gathered.unanswered)
    for problem in [*gathered.problems, *missing]:
        print(f"dotdbg: {one_line(problem)}", file=sys.stderr)  # the nodes' own words
    failed = any(record.error for record in gathered.records)
    return 1 if gathered.problems or failed or not gathered.records else 0


def stacks(
    options: DumpOptions, engine: Engine | None, view: View, from_file: str | None = None
) -> int:
    if from_file is not None:
        from dotdbg.stacks.job import Gathered

        gathered = Gathered(read_file(from_file), [], [])
    else:
        gathered = _gather_stoppable(options, engine, _modules_to_merge)
    from dotdbg.stacks import ranksets
    from dotdbg.stacks.merge import merge_samples

    records = gathered.records
    merged = merge_samples(_split_samples(records), view.all_threads)
    missing = ranksets.not_seen(records, gathered.nodes, gathered.unanswered)
    _show(merged, gathered.problems, missing, view)
    _advice_if_denied(merged.failed)
    if not records:
        return 1
    return 1 if gathered.problems or merged.failed else 0


def _modules_to_merge() -> None:
    """What merging and printing the records need, imported while the nodes work."""
    import json  # noqa: F401
    import re  # noqa: F401

    from dotdbg.stacks import formats, job, jsonlines, merge, ranksets, record, render  # noqa: F401


def _advice_if_denied(failed: Sequence[StackRecord]) -> None:
    """How to allow ptrace, on stderr after the report, as each refused dump's line promised."""
    denied = [record for record in failed if (record.error or "").startswith("denied: ")]
    if denied:
        from dotdbg.pyspy import dump as pyspy
        from dotdbg.stacks import identity

        others = any(
            record.host == identity.host_name() and _not_mine(record.pid) for record in denied
        )
        print(pyspy.advice_here(others), file=sys.stderr)


def _not_mine(pid: int) -> bool:
    try:
        return os.stat(f"/proc/{pid}").st_uid != os.getuid()
    except OSError:
        return False


def _split_samples(records: list[StackRecord]) -> list[list[StackRecord]]:
    """Records in the order they came, the k-th of each process in sample k."""
    rounds: list[list[StackRecord]] = [[] for _ in range(samples_in(records))]
    seen: Counter[tuple[str, int]] = Counter()
    for record in records:
        key = (record.host, record.pid)
        rounds[seen[key]].append(record)
        seen[key] += 1
    return rounds


def _show(merged: Merged, problems: list[str], missing: list[str], view: View) -> None:
    from dotdbg.stacks import formats, render
    from dotdbg.stacks.record import MAX_FRAMES

    # the tree is as deep as the deepest stack (at most MAX_FRAMES): JSON and DOT walk it
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 3 * MAX_FRAMES + 1_000))

    dot_text = formats.to_dot(merged) if view.dot is not None or view.svg is not None else ""
    if view.dot is not None:
        _write_atomic(view.dot, dot_text)
    if view.svg is not None:
        _write_svg(view.svg, dot_text)
    if view.as_json:
        import json

        report = formats.to_json(merged, {"node_problems": problems, "ranks_not_seen": missing})
        # json's indenting encoder is pure Python and quadratic in the depth: deep trees compact
        deepest = max((len(path) for c in merged.classes for path in c.paths), default=0)
        print(json.dumps(report, indent=1 if deepest <= INDENTED_DEPTH else None))
        return
    lines = render.all_lines(merged, view.full)
    lines += [render.Line(f"no answer: {problem}", "error") for problem in problems]
    lines += [render.Line(line, "error") for line in missing]
    if sys.stdout.isatty():
        from dotdbg.common.output import rich_console

        rich_console(highlight=False, soft_wrap=True).print(render.styled(lines))
    else:
        sys.stdout.write(render.plain(lines))


def _write_atomic(path: Path, text: str) -> None:
    from dotdbg.home.fileops import atomic_write

    try:
        atomic_write(path, text.encode())
    except OSError as error:
        raise DotdbgError(f"cannot write {path}: {error.strerror}") from None


def _write_svg(path: Path, dot_text: str) -> None:
    import shutil
    import subprocess

    dot = shutil.which("dot")
    if dot is None:
        raise DotdbgError(
            "--svg needs Graphviz's dot program, which is not installed",
            hint="apt install graphviz (or brew install graphviz), or write --dot FILE instead",
        )
    done = subprocess.run(
        [dot, "-Tsvg"], input=dot_text, capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        raise DotdbgError(f"dot failed: {done.stderr.strip()[:200]}")
    _write_atomic(path, done.stdout)
