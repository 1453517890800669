"""The engine seam: how a job-wide command (``stacks``, ``pyspy``, ``watch-python`` with
``--job``, ``--nodes`` or ``--exec``) reaches a job's nodes.

An engine says which nodes belong to the job (``nodes``, named as the user knows them: records
come back labelled with these names), which of a node's processes belong to it (``node_filter``:
options the node-side dotdbg adds), and how to run one command on each node (``run``). The tools
above it build the node-side command, collect each node's output and merge; they never ask
which engine they have. A new engine is one subclass (``tests/stacks/test_toy_engine.py``).

Three are built in: ``fanout.slurm`` (``srun --overlap`` in a running job), ``fanout.ssh``
(ClusterShell's ssh fan-out to a host list) and ``fanout.generic`` (any program that runs a
command on a node: ``kubectl exec``, ``docker exec``, ``flux exec``).
"""

from __future__ import annotations

import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from dotdbg.fanout import NodeResult

START_SLACK = 10.0  # seconds a node may take to start dotdbg, on top of its own work


class Engine(ABC):
    """One way to reach the nodes of a job; ``remote`` is dotdbg's path on them."""

    remote: str | None = None

    @property
    def remote_dotdbg(self) -> str:
        return self.remote or os.environ.get("DOTDBG_REMOTE") or own_path()

    @abstractmethod
    def nodes(self) -> list[str]:
        """The job's nodes; a DotdbgError (one line, a hint) when the job cannot be used."""

    @abstractmethod
    def run(self, nodes: Sequence[str], argv: Sequence[str], timeout: float) -> list[NodeResult]:
        """``argv`` once on each node, every node's result in the order of ``nodes``; a node
        silent after ``timeout`` seconds is timed out, and nothing is left running on it."""

    def run_meanwhile(
        self,
        nodes: Sequence[str],
        argv: Sequence[str],
        timeout: float,
        meanwhile: Callable[[], object],
    ) -> list[NodeResult]:
        """``run``, with ``meanwhile()`` called once the nodes have their command: what the
        caller needs for the results (its imports) is done while they work. Here it is called
        first; an engine that can start the nodes first overrides this."""
        meanwhile()
        return self.run(nodes, argv, timeout)

    def node_filter(self) -> list[str]:
        """Options of the node-side dotdbg that keep it to the job's processes on its node."""
        return []

    def problem(self, result: NodeResult, argv: Sequence[str], timeout: float) -> str:
        """One line on what went wrong on the node ("" when nothing did)."""
        return result.problem(argv, timeout)


def own_path() -> str:
    """This dotdbg's absolute path, as the shell found it (a ~/.local/bin link stays a link)."""
    launched = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(launched) == "dotdbg" and os.path.isfile(launched):
        return launched
    beside = os.path.join(os.path.dirname(sys.executable), "dotdbg")
    return beside if os.path.isfile(beside) else "dotdbg"
