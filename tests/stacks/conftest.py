"""A 6-rank job on the test SLURM cluster, started once for the module that asks for it."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from tests.infra.jobs import RANKS_PROGRAM
from tests.infra.procs import wait_for
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import RankJob, ranks_of


@pytest.fixture(scope="module")
def rank_job(
    slurm_cluster: SlurmCluster, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[RankJob]:
    """A bare ``srun -N 3 -n 6 python``: ranks 0-3 in a socket barrier, 4 loading a batch, 5
    moving. No RANK is set: each rank is known by srun's SLURM_PROCID alone."""
    folder = tmp_path_factory.mktemp("job")
    token = f"dotdbgjob{os.getpid()}"
    program = folder / f"{token}.py"
    program.write_text(RANKS_PROGRAM)
    out = folder / "job.out"
    script = f"#!/bin/sh\nsrun -N 3 -n 6 {sys.executable} {program}\n"
    job = slurm_cluster.sbatch(script, "-N3", "-n6", f"--output={out}")
    try:
        wait_for(lambda: out.exists() and out.read_text().count("ready") == 6, 60, "6 ranks")
        yield RankJob(job, *ranks_of(out.read_text()), token)
    finally:
        slurm_cluster.run(["scancel", str(job)], check=False)
