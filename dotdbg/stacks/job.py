"""dotdbg on every node of a SLURM job or a host list, and its records brought back here.

A node runs dotdbg by absolute path: a non-interactive ssh shell, or an srun task, does not get
the PATH an interactive login does. The path is ``--remote-dotdbg``, else ``$DOTDBG_REMOTE``,
else this very dotdbg's own path (right on a shared file system, where every node sees the same
install).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace

from dotdbg.fanout import NodeResult
from dotdbg.stacks.record import RecordError, StackRecord, read

START_SLACK = 10.0  # seconds a node may take to start dotdbg, on top of its dumps


@dataclass(frozen=True)
class Target:
    """Where to run: a SLURM job, or a host list (ClusterShell node set)."""

    job: str | None = None
    nodes: str | None = None
    remote: str | None = None  # dotdbg's path on the nodes

    @property
    def remote_dotdbg(self) -> str:
        return self.remote or os.environ.get("DOTDBG_REMOTE") or own_path()


@dataclass(frozen=True)
class Gathered:
    records: list[StackRecord]
    problems: list[str]  # one line per node that failed, with the fix where there is one
    nodes: list[str]


def own_path() -> str:
    """This dotdbg's absolute path, as the shell found it (a ~/.local/bin link stays a link)."""
    launched = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(launched) == "dotdbg" and os.path.isfile(launched):
        return launched
    beside = os.path.join(os.path.dirname(sys.executable), "dotdbg")
    return beside if os.path.isfile(beside) else "dotdbg"


def run_everywhere(target: Target, argv: Sequence[str], timeout: float) -> list[NodeResult]:
    if target.job is not None:
        from dotdbg.fanout import slurm

        nodes = slurm.job_nodes(target.job)
        return slurm.run_on_job(target.job, nodes, argv, timeout)
    from dotdbg.fanout import ssh

    assert target.nodes is not None
    return ssh.run_on_nodes(ssh.expand(target.nodes), argv, timeout)


def node_problem(result: NodeResult, argv: Sequence[str], timeout: float) -> str:
    """One line naming the node, what went wrong, and how to fix it."""
    from dotdbg.fanout.ssh import ssh_problem

    problem = ssh_problem(result) or result.problem(argv, timeout)
    if result.returncode == 127:  # the shell found no such program
        problem += (
            f"; hint: install dotdbg on {result.node} (on PATH or in ~/.local/bin), or name its "
            "path there with --remote-dotdbg PATH (or DOTDBG_REMOTE)"
        )
    return problem


def collect(results: Sequence[NodeResult], argv: Sequence[str], timeout: float) -> Gathered:
    """Every node's records, labelled with the node's name as the user gave it."""
    records: list[StackRecord] = []
    problems = []
    for result in results:
        try:
            found = list(read(result.stdout.splitlines(), where=result.node))
        except RecordError as error:
            problems.append(f"{result.node}: sent something that is not a stack record ({error})")
            continue
        records += [replace(record, host=result.node) for record in found]
        if found and result.returncode == 1 and not result.timed_out:
            continue  # some dumps failed: each record says why
        if not found and result.returncode == 1 and "no Python process" in result.stderr:
            problems.append(f"{result.node}: no Python process matches")
        elif not result.ok:
            problems.append(node_problem(result, argv, timeout))
    return Gathered(records, problems, [result.node for result in results])
