"""A 6-rank job on the test SLURM cluster (module-wide), and dotdbg run as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.infra.jobs import RANKS_PROGRAM
from tests.infra.procs import wait_for
from tests.infra.slurm import SlurmCluster

BIN = Path(sys.executable).parent
DOTDBG = str(BIN / "dotdbg")


@dataclass(frozen=True)
class RankJob:
    job: int
    pids: dict[int, int]  # rank -> pid
    nodes: dict[int, str]  # rank -> node
    token: str  # in every rank's command line


def run_dotdbg(
    *args: str, env: dict[str, str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([DOTDBG, *args], capture_output=True, text=True, timeout=timeout, env=env)


def stacks_json(*args: str, env: dict[str, str]) -> dict:  # type: ignore[type-arg]
    done = run_dotdbg("stacks", "--json", *args, env=env)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def rank_job(
    slurm_cluster: SlurmCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RankJob]:
    """``srun -N 3 -n 6``: ranks 0-3 in a socket barrier, 4 loading a batch, 5 moving."""
    folder = tmp_path_factory.mktemp("job")
    token = f"dotdbgjob{os.getpid()}"
    program = folder / f"{token}.py"
    program.write_text(RANKS_PROGRAM)
    out = folder / "job.out"
    script = (
        "#!/bin/sh\n"
        "srun -N 3 -n 6 sh -c 'RANK=$SLURM_PROCID LOCAL_RANK=$SLURM_LOCALID "
        f"exec {sys.executable} {program}'\n"
    )
    job = slurm_cluster.sbatch(script, "-N3", "-n6", f"--output={out}")
    try:
        wait_for(lambda: out.exists() and out.read_text().count("ready") == 6, 60, "6 ranks")
        yield RankJob(job, *_ranks(out.read_text()), token)
    finally:
        slurm_cluster.run(["scancel", str(job)], check=False)


def _ranks(output: str) -> tuple[dict[int, int], dict[int, str]]:
    pids, nodes = {}, {}
    for line in output.splitlines():
        if line.startswith("ready "):
            _, rank, pid, node = line.split()
            pids[int(rank)], nodes[int(rank)] = int(pid), node
    return pids, nodes
