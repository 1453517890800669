"""Ranks from a real MPI launcher: Open MPI's ``mpirun`` sets neither RANK nor SLURM_PROCID."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.jobs import RANKS_PROGRAM
from tests.infra.procs import kill_all, pids_with_argv, wait_for
from tests.stacks.stacks_support import run_dotdbg, stacks_json

pytestmark = pytest.mark.skipif(shutil.which("mpirun") is None, reason="no mpirun (openmpi-bin)")


@pytest.fixture(scope="module")
def mpi_job(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[int, int]]]:
    """``mpirun -n 6 python ranks.py``: ranks 0-3 in a barrier, 4 loading a batch, 5 moving."""
    folder = tmp_path_factory.mktemp("mpi")
    token = f"dotdbgmpi{os.getpid()}"
    program = folder / f"{token}.py"
    program.write_text(RANKS_PROGRAM)
    out = folder / "out"
    # as root (the CI runs as root) Open MPI wants both of these said out loud
    root = ["--allow-run-as-root"] if os.getuid() == 0 else []
    argv = ["mpirun", *root, "--oversubscribe", "-n", "6", sys.executable, str(program)]
    with open(out, "w") as handle:
        env = {**os.environ, "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_btl": "self,tcp"}
        proc = subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)  # fmt: skip
    try:
        wait_for(lambda: Path(out).read_text().count("ready") == 6, 60, "6 MPI ranks")
        # mpirun forwards each rank's output as it comes: lines may run into each other
        found = re.findall(r"ready (\d+) (\d+)", out.read_text())
        yield token, {int(rank): int(pid) for rank, pid in found}
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
        # Open MPI's ranks are not in mpirun's process group: they went on spinning in their
        # barrier, a core each, long after the test (56 of them found on a loaded machine)
        kill_all(pids_with_argv(program.name))
        wait_for(lambda: not pids_with_argv(program.name), 30, "the MPI ranks to end")


def test_mpirun_ranks_form_the_same_classes_as_srun_ones(
    mpi_job: tuple[str, dict[int, int]],
) -> None:
    token, pids = mpi_job
    report = stacks_json(token, env=dict(os.environ))
    assert [c["label"] for c in report["classes"]] == ["rank 4", "rank 5", "ranks 0-3"]
    shown = {p["rank"]: p["pid"] for c in report["classes"] for p in c["processes"]}
    assert shown == pids


def test_mpirun_ranks_carry_local_rank_and_world_size(mpi_job: tuple[str, dict[int, int]]) -> None:
    token, pids = mpi_job
    done = run_dotdbg("pyspy", "--json", token, env=dict(os.environ))
    records = [json.loads(line) for line in done.stdout.splitlines()]
    found = sorted((r["rank"], r["local_rank"], r["world_size"], r["pid"]) for r in records)
    assert found == [(rank, rank, 6, pids[rank]) for rank in range(6)]
