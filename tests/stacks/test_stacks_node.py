"""The node side of ``stacks --job`` (``dotdbg.stacks.node``), run as ``stacks --job`` runs it:
a step of the real 6-rank job on the test cluster, with the command line ``remote_argv`` builds.

Issue 27: every node starts it for each ``stacks --job``, so what it imports is its cost. The
guard reads ``python -X importtime`` of the real step, not a timing.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from dotdbg.fanout.slurm import SlurmJob
from dotdbg.stacks import node
from dotdbg.stacks.record import from_json
from dotdbg.stacks.run import DumpOptions, remote_argv
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import DOTDBG, RankJob

pytestmark = pytest.mark.slow

# what the full command line brings and the node entry has no use for
NOT_IMPORTED = {
    "dataclasses",  # the record's classes: 41 generated methods compiled at import
    "subprocess",  # and with it threading, selectors, signal handling: common.spawn instead
    "threading",
    "selectors",
    "pathlib",
    "shutil",
    "inspect",
    "typing",
    "concurrent.futures",
    "logging",
    "dotdbg.cli.registry",
    "dotdbg.cli.parser",
    "dotdbg.stacks.run",
    "dotdbg.stacks.record",
    "dotdbg.stacks.local",
    "dotdbg.pyspy.dump",
}


def on_node(
    cluster: SlurmCluster, job: int, node_name: str, argv: list[str]
) -> subprocess.CompletedProcess[str]:
    step = ["srun", f"--jobid={job}", "--overlap", "-w", node_name, "-N1", "-n1", "--quiet"]
    return cluster.run([*step, *argv], check=False, timeout=120)


def node_argv(job: int, token: str) -> list[str]:
    """The node's command line, as ``stacks --job J TOKEN`` builds it."""
    return remote_argv(DOTDBG, DumpOptions(pattern=token), SlurmJob(str(job)).node_filter())


def test_the_node_entry_imports_nothing_it_does_not_use(
    slurm_cluster: SlurmCluster, rank_job: RankJob
) -> None:
    argv = node_argv(rank_job.job, rank_job.token)
    done = on_node(
        slurm_cluster, rank_job.job, "node2", [sys.executable, "-X", "importtime", *argv]
    )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "dotdbg.stacks.node" in imported
    assert imported & NOT_IMPORTED == set()
    pids = sorted(from_json(line).pid for line in done.stdout.splitlines())
    assert pids == sorted(
        pid for rank, pid in rank_job.pids.items() if rank_job.nodes[rank] == "node2"
    )


def test_the_node_entry_writes_the_records_the_full_command_writes(
    slurm_cluster: SlurmCluster, rank_job: RankJob
) -> None:
    """node1's ranks (0 and 1) wait in a barrier, so two dumps of them are alike to the byte:
    the light entry's lines are those of ``pyspy --json --in-job`` through the full parser, and
    each is a record as ``StackRecord.to_json`` writes it (the fast reader's form)."""
    argv = node_argv(rank_job.job, rank_job.token)
    light = on_node(slurm_cluster, rank_job.job, "node1", argv)
    full_cli = "import sys; from dotdbg.cli.entry import run_command as r; "
    full_cli += "sys.exit(r('pyspy', sys.argv[1:], 'dotdbg pyspy', 'dotdbg', False))"
    full = on_node(
        slurm_cluster, rank_job.job, "node1", [sys.executable, "-c", full_cli, *argv[2:]]
    )
    assert light.returncode == full.returncode == 0, light.stderr + full.stderr
    lines = light.stdout.splitlines()
    assert lines == full.stdout.splitlines()
    assert [from_json(line).to_json() for line in lines] == lines
    assert [from_json(line).rank for line in lines] == [0, 1]
    assert light.stderr == ""  # a node sees its own ranks only: it does not name the others


@pytest.mark.parametrize(
    "options",
    [
        DumpOptions(),
        DumpOptions(pattern="train[.]py", native=True, timeout=2.5, samples=3, interval=0.2),
        DumpOptions(pattern="x", all_users=True, samples=100, interval=0),
    ],
)
def test_parse_reads_what_remote_argv_writes(options: DumpOptions) -> None:
    parsed = node.parse(remote_argv("dotdbg", options, ["--in-job", "42"])[2:])
    assert parsed is not None
    assert (parsed.job, parsed.pattern, parsed.native, parsed.all_users) == (
        "42",
        options.pattern,
        options.native,
        options.all_users,
    )
    assert (parsed.timeout, parsed.samples, parsed.interval) == (
        options.timeout,
        options.samples,
        options.interval,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--json", "x"],  # no --in-job: a user's own pyspy --json
        ["--in-job", "7", "x"],  # no --json: text dumps
        ["--json", "--in-job", "7", "--tree", "1"],
        ["--json", "--in-job", "7", "--timeout=3"],
        ["--json", "--in-job", "7", "--timeout", "0.1"],
        ["--json", "--in-job", "7", "--samples", "0"],
        ["--json", "--in-job", "7", "--samples", "x"],
        ["--json", "--in-job", "7", "--interval", "nan"],
        ["--json", "--in-job", "7", "a", "b"],
        ["--json", "--in-job"],
        ["--json", "--in-job", "7", "--in-job", "8"],
    ],
)
def test_any_other_form_is_left_to_the_full_command_line(args: list[str]) -> None:
    assert node.parse(args) is None
