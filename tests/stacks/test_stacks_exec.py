"""``--exec TEMPLATE``: the generic engine, with real programs as the transport (``env``, ``sh``).

All "nodes" are this machine: the transport puts the node's name in the environment and the
remote dotdbg keeps to the ranks placed on that node (``node=n2`` in their command line), so
each rank is seen once. The PATTERN then holds a space: it must reach the node word for word.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator

import pytest

from dotdbg.fanout.generic import node_words
from tests.infra.procs import cmdline_of, wait_for
from tests.stacks.stacks_support import narrowed_dotdbg, ranks_placed, run_dotdbg

NODE_OF_RANK = ("n1", "n1", "n2", "n2", "n3", "n3")


@pytest.fixture(scope="module")
def exec_job(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """Ranks 0-5, two a node; (dotdbg's path on the nodes, a PATTERN for the ranks)."""
    folder = tmp_path_factory.mktemp("exec")
    with ranks_placed(folder, f"dotdbgexec{os.getpid()}", NODE_OF_RANK) as pattern:
        yield narrowed_dotdbg(folder), pattern


def test_stacks_through_an_env_transport(exec_job: tuple[str, str]) -> None:
    remote, pattern = exec_job
    args = ("--nodes", "n[1-3]", "--exec", "env TOY_NODE={host}", "--remote-dotdbg", remote)
    done = run_dotdbg("stacks", "--json", *args, pattern, env=dict(os.environ))
    report = json.loads(done.stdout)
    assert report["hosts"] == ["n1", "n2", "n3"] and report["node_problems"] == [], done.stderr
    assert [c["label"] for c in report["classes"]] == ["rank 4", "rank 5", "ranks 0-3"]
    hosts = {p["rank"]: p["host"] for c in report["classes"] for p in c["processes"]}
    assert hosts == dict(enumerate(NODE_OF_RANK))


HANGS_ON_N2 = 'sh -c \'[ "$0" = n2 ] && exec sleep 613; TOY_NODE=$0 exec "$@"\' {host}'


def test_a_transport_that_hangs_is_ended_at_the_timeout(exec_job: tuple[str, str]) -> None:
    remote, pattern = exec_job
    args = ("--nodes", "n[1-3]", "--exec", HANGS_ON_N2, "--remote-dotdbg", remote)
    started = time.monotonic()
    done = run_dotdbg("stacks", "--timeout", "2", *args, pattern, env=dict(os.environ))
    took = time.monotonic() - started
    assert done.returncode == 1
    assert "no answer: n2: no answer within 4s (0 lines sent)" in done.stdout
    assert done.stdout.startswith("4 processes on 2 hosts")
    assert took < 30  # the budget (4 s) and a second's grace, with room for a loaded machine
    wait_for(lambda: not sleepers(), 10, "the hung transport to be ended")


def sleepers() -> list[int]:
    return [
        int(pid)
        for pid in os.listdir("/proc")
        if pid.isdigit() and cmdline_of(int(pid)).split() == ["sleep", "613"]
    ]


def test_a_transport_that_cannot_start_is_named(exec_job: tuple[str, str]) -> None:
    remote, pattern = exec_job
    args = ("--nodes", "n1", "--exec", "kubectl-not-here exec {host} --", "--remote-dotdbg", remote)
    done = run_dotdbg("stacks", *args, pattern, env=dict(os.environ))
    assert done.returncode == 1
    assert (
        "no answer: n1: --exec cannot run kubectl-not-here: No such file or directory"
        in done.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--nodes", "n1", "--exec", "kubectl exec pod --"), "names no node: it needs {host}"),
        (("--nodes", "n1", "--exec", "kubectl 'exec"), "No closing quotation"),
        (("--exec", "docker exec {host}"), "--exec needs --nodes HOSTS"),
    ],
)
def test_a_bad_template_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    done = run_dotdbg("stacks", *args, env=dict(os.environ))
    assert done.returncode == 2 and done.stdout == ""
    first, hint = done.stderr.splitlines()
    assert message in first and hint.startswith("hint: ")


def test_rank_is_the_nodes_position_for_flux() -> None:
    assert node_words("flux exec -r {rank}", "node7", 2) == ["flux", "exec", "-r", "2"]
    assert node_words("kubectl exec {host} -c trainer --", "pod-1", 0)[2] == "pod-1"
