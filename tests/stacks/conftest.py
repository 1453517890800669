"""A 6-rank job on the test SLURM cluster, started once for the module that asks for it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.infra.jobs import RANKS_PROGRAM
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
    with slurm_cluster.bare_srun_job(program, within=60) as (job, out):
        yield RankJob(job, *ranks_of(out), token)
