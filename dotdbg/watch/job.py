"""watch-python over a SLURM job or a host list: each node runs ``dotdbg watch-python --once
--json`` and the snapshots become one table with a HOST column, a row per process (ranks in
order) and a total line per node."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from dotdbg.procs import ranks
from dotdbg.stacks.job import Target
from dotdbg.visible import one_line
from dotdbg.watch.view import elapsed, gigabytes

MIN_INTERVAL = 2.0  # seconds between refreshes of a whole job
HEADER = ("HOST", "PID", "RSS_GB", "%CPU", "THR", "ELAPSED", "GPU_GB", "RANK", "COMMAND")


def snapshots(
    target: Target, pattern: str | None, all_users: bool, timeout: float
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Each node's watch-python JSON snapshot, and one line per node that did not answer."""
    from dotdbg.stacks.job import node_problem, run_everywhere

    argv = [target.remote_dotdbg, "watch-python", "--json"]
    argv += ["--all-users"] * all_users + (["--pattern", pattern] if pattern else [])
    argv += ["--in-job", target.job] if target.job is not None else []
    found: dict[str, dict[str, Any]] = {}
    problems = []
    for result in run_everywhere(target, argv, timeout):
        try:
            found[result.node] = json.loads(result.stdout) if result.ok else {}
        except json.JSONDecodeError:
            found[result.node] = {}
        if not result.ok or not found[result.node]:
            problems.append(node_problem(result, argv, timeout) or f"{result.node}: no snapshot")
    return {node: snap for node, snap in found.items() if snap}, problems


def _rank_key(row: dict[str, Any]) -> tuple[int, int]:
    rank = row.get("rank")
    return (rank if isinstance(rank, int) else 1 << 30), row["pid"]


def _cells(node: str, row: dict[str, Any]) -> list[str]:
    gpu = row.get("gpu_memory_bytes")
    return [
        node,
        str(row["pid"]),
        gigabytes(row["rss_bytes"]),
        f"{row['cpu_percent']:.1f}",
        str(row["threads"]),
        elapsed(row["elapsed_seconds"]),
        gigabytes(gpu) if gpu is not None else "-",
        ranks.text(ranks.Ranks(row.get("rank"), row.get("local_rank"), None)),
        row["command"],
    ]


def _total(node: str, rows: Sequence[dict[str, Any]]) -> list[str]:
    gpu = sum(row.get("gpu_memory_bytes") or 0 for row in rows)
    return [
        node,
        f"{len(rows)} procs",
        gigabytes(sum(row["rss_bytes"] for row in rows)),
        f"{sum(row['cpu_percent'] for row in rows):.1f}",
        str(sum(row["threads"] for row in rows)),
        "",
        gigabytes(gpu) if gpu else "-",
        "",
        "total",
    ]


def table(found: dict[str, dict[str, Any]], problems: Sequence[str]) -> str:
    """Rows of every node (ranks in order), each node closed by its total line."""
    lines: list[list[str]] = [list(HEADER)]
    for node in sorted(found):
        rows = sorted(found[node].get("processes", []), key=_rank_key)
        # what the nodes sent is data: a process title with ESC must not reach the terminal
        lines += [[one_line(cell) for cell in _cells(node, row)] for row in rows]
        lines.append([one_line(cell) for cell in _total(node, rows)])
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER) - 1)]
    text = ""
    for line in lines:
        cells = [
            cell.ljust(width) if i == 0 else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=False))
        ]
        text += ("  ".join([*cells, line[-1]])).rstrip() + "\n"
    return text + "".join(f"no answer: {one_line(problem)}\n" for problem in problems)


def run(
    target: Target,
    pattern: str | None,
    all_users: bool,
    interval: float,
    once: bool,
    as_json: bool,
    timeout: float = 10.0,
) -> int:
    """One table (or JSON) of the whole job; live, refreshed every ``interval`` s until Ctrl-C."""
    while True:
        found, problems = snapshots(target, pattern, all_users, timeout)
        if as_json:
            print(json.dumps({"nodes": found, "node_problems": problems}, indent=1))
        elif once:
            sys.stdout.write(table(found, problems))
        else:
            clear = "\x1b[H\x1b[2J" if sys.stdout.isatty() else ""
            stamp = time.strftime("%H:%M:%S")
            sys.stdout.write(f"{clear}watch-python  {stamp}  Ctrl-C quits\n")
            sys.stdout.write(table(found, problems))
            sys.stdout.flush()
        if once or as_json:
            return 1 if problems else 0
        time.sleep(interval)
