"""A new engine is one subclass of ``fanout.engine.Engine``, here in this one module: with it,
``stacks``, ``pyspy --json`` and ``watch-python``'s job table work unchanged.

The toy engine's "nodes" are this machine, each reached by running the command directly with
the node's name in its environment; its dotdbg is a wrapper that keeps to the ranks placed on
that node (``node=alpha`` in their command line), so each rank is seen once, as on a cluster.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Iterator, Sequence
from contextlib import redirect_stdout

import pytest

from dotdbg.fanout import NodeResult
from dotdbg.fanout.engine import Engine
from dotdbg.stacks import run
from dotdbg.watch import job as watch_job
from tests.stacks.stacks_support import narrowed_dotdbg, ranks_placed

NODE_OF_RANK = ("alpha", "alpha", "beta", "beta", "beta")


class Loopback(Engine):
    """Every node is this machine; the command runs here with ``TOY_NODE`` set."""

    def __init__(self, remote: str) -> None:
        self.remote = remote

    def nodes(self) -> list[str]:
        return ["alpha", "beta"]

    def run(self, nodes: Sequence[str], argv: Sequence[str], timeout: float) -> list[NodeResult]:
        results = []
        for node in nodes:
            env = {**os.environ, "TOY_NODE": node}
            done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=timeout)
            results.append(NodeResult(node, done.returncode, done.stdout, done.stderr))
        return results


@pytest.fixture(scope="module")
def toy_job(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Loopback, str]]:
    folder = tmp_path_factory.mktemp("toy")
    with ranks_placed(folder, f"dotdbgtoy{os.getpid()}", NODE_OF_RANK) as pattern:
        yield Loopback(narrowed_dotdbg(folder)), pattern


def printed(call: object, *args: object) -> tuple[object, str]:
    out = io.StringIO()
    with redirect_stdout(out):
        code = call(*args)  # type: ignore[operator]
    return code, out.getvalue()


def test_stacks_through_a_toy_engine(toy_job: tuple[Loopback, str]) -> None:
    engine, pattern = toy_job
    options = run.DumpOptions(pattern, timeout=20)
    code, out = printed(run.stacks, options, engine, run.View(as_json=True))
    report = json.loads(out)
    assert code == 0 and report["hosts"] == ["alpha", "beta"] and report["node_problems"] == []
    assert [c["label"] for c in report["classes"]] == ["rank 4", "ranks 0-3"]
    hosts = {p["rank"]: p["host"] for c in report["classes"] for p in c["processes"]}
    assert hosts == dict(enumerate(NODE_OF_RANK))


def test_pyspy_json_and_watch_python_through_a_toy_engine(toy_job: tuple[Loopback, str]) -> None:
    engine, pattern = toy_job
    code, out = printed(run.pyspy_json, run.DumpOptions(pattern, timeout=20), engine)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and sorted((r["rank"], r["host"]) for r in records) == sorted(
        enumerate(NODE_OF_RANK)
    )
    found, problems = watch_job.snapshots(engine, watch_job.JobView(pattern))
    assert problems == [] and sorted(found) == ["alpha", "beta"]
    ranks = {node: sorted(p["rank"] for p in snap["processes"]) for node, snap in found.items()}
    assert ranks == {"alpha": [0, 1], "beta": [2, 3, 4]}
