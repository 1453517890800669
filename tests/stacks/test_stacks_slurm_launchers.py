"""A torchrun-style launcher under a real srun: srun gives the launcher's own process a
``SLURM_PROCID`` too, yet it is the launcher, not a rank; its ranks are known by ``RANK``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from tests.infra.jobs import RANKS_PROGRAM
from tests.infra.procs import wait_for
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import stacks_json

pytestmark = pytest.mark.slow

# Started by its shebang, so the kernel and dotdbg know it as torchrun; it starts its ranks as
# torchrun does: RANK, LOCAL_RANK and WORLD_SIZE set, the scheduler's variables inherited.
TORCHRUN = """
import os, subprocess, sys
program = sys.argv[1]
ranks = [
    subprocess.Popen([sys.executable, program], stdout=subprocess.PIPE, text=True,
                     env=dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE="2"))
    for rank in range(2)
]
for rank in ranks:
    print(rank.stdout.readline().strip(), flush=True)
for rank in ranks:
    rank.wait()
"""


@pytest.fixture(scope="module")
def torchrun_job(
    slurm_cluster: SlurmCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[int, str]]:
    folder = tmp_path_factory.mktemp("torchrun")
    token = f"dotdbgtr{os.getpid()}"
    (folder / f"{token}.py").write_text(RANKS_PROGRAM)
    launcher = folder / "torchrun"
    launcher.write_text(f"#!{sys.executable}\n{TORCHRUN}")
    launcher.chmod(0o755)
    out = folder / "job.out"
    script = f"#!/bin/sh\nsrun -N1 -n1 {launcher} {folder / f'{token}.py'}\n"
    job = slurm_cluster.sbatch(script, "-N1", "-n1", f"--output={out}")
    try:
        wait_for(lambda: out.exists() and out.read_text().count("ready") == 2, 60, "2 ranks")
        yield job, token
    finally:
        slurm_cluster.run(["scancel", str(job)], check=False)


def test_the_launcher_under_srun_is_not_a_rank(
    slurm_cluster: SlurmCluster, torchrun_job: tuple[int, str]
) -> None:
    job, token = torchrun_job
    report = stacks_json("--job", str(job), token, env={**slurm_cluster.env, "NO_COLOR": "1"})
    members = [p for c in report["classes"] for p in c["processes"]]
    assert len(members) == 3 and report["node_problems"] == []
    assert sorted(p["rank"] for p in members if p["rank"] is not None) == [0, 1]
    [agent] = [c for c in report["classes"] if c["processes"][0]["rank"] is None]
    assert agent["label"].startswith("node1:")  # shown by its pid, not as rank 0
    assert report["ranks_not_seen"] == []
