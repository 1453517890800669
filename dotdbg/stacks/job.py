"""dotdbg on every node of a job, through its engine (``fanout.engine``), and its records
brought back here.

A node runs dotdbg by absolute path: a non-interactive ssh shell, or an srun task, does not get
the PATH an interactive login does. The path is ``--remote-dotdbg``, else ``$DOTDBG_REMOTE``,
else this very dotdbg's own path (right on a shared file system, where every node sees the same
install).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dotdbg.fanout import NOT_FOUND, NodeResult
from dotdbg.fanout.engine import Engine
from dotdbg.stacks.jsonlines import read
from dotdbg.stacks.record import RecordError, StackRecord


@dataclass(frozen=True)
class Gathered:
    """The records of every node, each failed node's problem, and the nodes asked."""

    records: list[StackRecord]
    problems: list[str]  # one line per node that failed, with the fix where there is one
    nodes: list[str]
    unanswered: list[str] = field(default_factory=list)  # nodes that sent no record at all


def run_everywhere(engine: Engine, argv: Sequence[str], timeout: float) -> list[NodeResult]:
    return engine.run(engine.nodes(), argv, timeout)


def node_problem(engine: Engine, result: NodeResult, argv: Sequence[str], timeout: float) -> str:
    """One line naming the node, what went wrong, and how to fix it."""
    problem = engine.problem(result, argv, timeout)
    if result.returncode == NOT_FOUND:
        problem += (
            f"; hint: install dotdbg on {result.node} (on PATH or in ~/.local/bin), or name its "
            "path there with --remote-dotdbg PATH (or DOTDBG_REMOTE)"
        )
    return problem


def collect(
    engine: Engine, results: Sequence[NodeResult], argv: Sequence[str], timeout: float
) -> Gathered:
    """Every node's records, labelled with the node's name as the engine calls it."""
    records: list[StackRecord] = []
    problems = []
    unanswered = []
    for result in results:
        try:
            found = list(read(result.stdout.splitlines(), where=result.node))
        except RecordError as error:
            problems.append(f"{result.node}: sent something that is not a stack record ({error})")
            unanswered.append(result.node)
            continue
        records += [record._replace(host=result.node) for record in found]
        problem = _problem(engine, result, bool(found), argv, timeout)
        if problem:
            problems.append(problem)
        if not found and not problem.endswith(NO_MATCH):
            unanswered.append(result.node)
    return Gathered(records, problems, [result.node for result in results], unanswered)


NO_MATCH = "no Python process matches"


def _problem(
    engine: Engine, result: NodeResult, found: bool, argv: Sequence[str], timeout: float
) -> str:
    if result.returncode == 1 and not result.timed_out:
        if found:
            return ""  # some dumps failed: each record says why
        if NO_MATCH in result.stderr:
            return f"{result.node}: {NO_MATCH}"
    return "" if result.ok else node_problem(engine, result, argv, timeout)
