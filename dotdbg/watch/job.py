"""watch-python over a job (SLURM, a host list, an ``--exec`` transport): each node runs
``dotdbg watch-python --json --over S`` and the snapshots become one table with a HOST column, a
row per process (ranks in order, or ``--sort``'s, or ``--tree``'s) and a total line per node.

%CPU is each process's share of a core over the S seconds the node watched it, as the local
live view shows it, not over its lifetime: a spin that went idle shows 0, not its average.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dotdbg.common.output import progress
from dotdbg.fanout.engine import Engine
from dotdbg.procs import ranks
from dotdbg.visible import one_line
from dotdbg.watch.view import elapsed, gigabytes

MIN_INTERVAL = 2.0  # seconds between refreshes of a whole job
START_SLACK = 10.0  # seconds a node may take to start dotdbg, on top of its window
HEADER = ("HOST", "PID", "RSS_GB", "%CPU", "THR", "ELAPSED", "GPU_GB", "RANK", "COMMAND")
PSS_HEADER = ("PSS_GB", "USS_GB")
Row = dict[str, Any]


@dataclass(frozen=True)
class JobView:
    pattern: str | None = None
    all_users: bool = False
    sort: str | None = None  # None: ranks in order
    tree: bool = False
    pss: bool = False
    window: float = 0.5  # seconds each node watches CPU use for one snapshot


def node_argv(engine: Engine, view: JobView) -> list[str]:
    argv = [engine.remote_dotdbg, "watch-python", "--json", "--over", f"{view.window:g}"]
    argv += engine.node_filter() + ["--all-users"] * view.all_users + ["--pss"] * view.pss
    return argv + (["--pattern", view.pattern] if view.pattern else [])


def snapshots(engine: Engine, view: JobView) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each node's watch-python JSON snapshot, and one line per node that did not answer."""
    from dotdbg.stacks.job import node_problem, run_everywhere

    argv = node_argv(engine, view)
    timeout = view.window + START_SLACK
    found: dict[str, dict[str, Any]] = {}
    problems = []
    for result in run_everywhere(engine, argv, timeout):
        try:
            found[result.node] = json.loads(result.stdout) if result.ok else {}
        except json.JSONDecodeError:
            found[result.node] = {}
        if not result.ok or not found[result.node]:
            problems.append(
                node_problem(engine, result, argv, timeout) or f"{result.node}: no snapshot"
            )
    return {node: snap for node, snap in found.items() if snap}, problems


def _rank_key(row: Row) -> tuple[int, int]:
    rank = row.get("rank")
    return (rank if isinstance(rank, int) else 1 << 30), row["pid"]


_SORT_KEYS: dict[str, Callable[[Row], tuple[float, int]]] = {
    "rss": lambda row: (-row["rss_bytes"], row["pid"]),
    "cpu": lambda row: (-row["cpu_percent"], row["pid"]),
    "gpu": lambda row: (-(row.get("gpu_memory_bytes") or 0), row["pid"]),
    "pid": lambda row: (0, row["pid"]),
}


def ordered(rows: Sequence[Row], sort: str | None, tree: bool) -> list[tuple[str, Row]]:
    """(tree prefix, row) in the order shown: ``sort``'s (ranks first by default), each
    process under its parent with ``tree``."""
    rows = sorted(rows, key=_rank_key if sort is None else _SORT_KEYS[sort])
    if not tree:
        return [("", row) for row in rows]
    listed = {row["pid"] for row in rows}
    children: dict[int, list[Row]] = {}
    for row in rows:
        if row["ppid"] in listed and row["ppid"] != row["pid"]:
            children.setdefault(row["ppid"], []).append(row)
    out: list[tuple[str, Row]] = []
    for row in rows:
        if row["ppid"] not in listed or row["ppid"] == row["pid"]:
            _walk(row, "", "", children, out)
    return out


def _walk(
    row: Row, own: str, below: str, children: dict[int, list[Row]], out: list[tuple[str, Row]]
) -> None:
    out.append((own, row))
    kids = children.pop(row["pid"], [])
    for position, child in enumerate(kids):
        last = position == len(kids) - 1
        branch, indent = ("└─ ", "   ") if last else ("├─ ", "│  ")
        _walk(child, below + branch, below + indent, children, out)


def _cells(node: str, prefix: str, row: Row, pss: bool) -> list[str]:
    gpu = row.get("gpu_memory_bytes")
    cells = [
        node,
        str(row["pid"]),
        gigabytes(row["rss_bytes"]),
        f"{row['cpu_percent']:.1f}",
        str(row["threads"]),
        elapsed(row["elapsed_seconds"]),
        gigabytes(gpu) if gpu is not None else "-",
        ranks.text(ranks.Ranks(row.get("rank"), row.get("local_rank"), None)),
    ]
    if pss:
        cells += [gigabytes(row.get("pss_bytes")), gigabytes(row.get("uss_bytes"))]
    return [*cells, prefix + row["command"]]


def _total(node: str, rows: Sequence[Row], pss: bool) -> list[str]:
    gpu = sum(row.get("gpu_memory_bytes") or 0 for row in rows)
    cells = [
        node,
        f"{len(rows)} procs",
        gigabytes(sum(row["rss_bytes"] for row in rows)),
        f"{sum(row['cpu_percent'] for row in rows):.1f}",
        str(sum(row["threads"] for row in rows)),
        "",
        gigabytes(gpu) if gpu else "-",
        "",
    ]
    return [*cells, *[""] * (2 * pss), "total"]


def table(found: dict[str, dict[str, Any]], problems: Sequence[str], view: JobView) -> str:
    """Rows of every node in ``view``'s order, each node closed by its total line."""
    header = [*HEADER[:-1], *PSS_HEADER * view.pss, HEADER[-1]]
    lines: list[list[str]] = [header]
    for node in sorted(found):
        rows = found[node].get("processes", [])
        # what the nodes sent is data: a process title with ESC must not reach the terminal
        lines += [
            [one_line(cell) for cell in _cells(node, prefix, row, view.pss)]
            for prefix, row in ordered(rows, view.sort, view.tree)
        ]
        lines.append([one_line(cell) for cell in _total(node, rows, view.pss)])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header) - 1)]
    text = ""
    for line in lines:
        cells = [
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=False))
        ]
        text += ("  ".join([*cells, line[-1]])).rstrip() + "\n"
    return text + "".join(f"no answer: {one_line(problem)}\n" for problem in problems)


def run(engine: Engine, view: JobView, once: bool, as_json: bool) -> int:
    """One table (or JSON) of the whole job; live until Ctrl-C, each refresh watching the nodes
    for ``view.window`` seconds (the refresh interval)."""
    first = True
    while True:
        if first and view.window > 1:  # later waits have a table to look at
            progress(f"watching the job's nodes for {view.window:g}s…", "watch-python")
        first = False
        found, problems = snapshots(engine, view)
        if as_json:
            print(json.dumps({"nodes": found, "node_problems": problems}, indent=1))
        elif once:
            sys.stdout.write(table(found, problems, view))
        else:
            clear = "\x1b[H\x1b[2J" if sys.stdout.isatty() else ""
            stamp = time.strftime("%H:%M:%S")
            sys.stdout.write(f"{clear}watch-python  {stamp}  Ctrl-C quits\n")
            sys.stdout.write(table(found, problems, view))
            sys.stdout.flush()
        if once or as_json:
            return 1 if problems else 0
