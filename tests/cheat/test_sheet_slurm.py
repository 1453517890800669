"""py-spy's job-wide dump on a real SLURM cluster (munge, slurmctld, three slurmd on this
machine) with a bare `srun python` job on two nodes: the setting where its earlier text reached
one node and found no rank, since srun-started ranks are no python's children (issue 28.1)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dotdbg.paths import resource_dir
from tests.cheat.entry_runner import VENV_BIN, entries_of
from tests.infra.procs import wait_for
from tests.infra.slurm import SlurmCluster

pytestmark = pytest.mark.slow
SHEETS = resource_dir("cheatsheets")

RANK = """\
import os, sys, time
def qq_waiting_rank():
    print("ready", os.environ["SLURM_PROCID"], os.getpid(), flush=True)
    time.sleep(300)
qq_waiting_rank()
"""


def test_the_job_wide_dump_reaches_every_node_and_rank(
    slurm_cluster: SlurmCluster, tmp_path: Path
) -> None:
    program = tmp_path / "rank.py"
    program.write_text(RANK)
    out = tmp_path / "job.out"
    script = f"#!/bin/sh\nsrun -N 2 -n 2 {sys.executable} {program}\n"
    job = slurm_cluster.sbatch(script, "-N2", "-n2", f"--output={out}")
    try:
        wait_for(lambda: out.exists() and out.read_text().count("ready") == 2, 60, "2 ranks")
        lines = out.read_text().splitlines()
        pids = [line.split()[2] for line in lines if line.startswith("ready")]
        entries = entries_of("py-spy", SHEETS / "py-spy")
        (entry,) = [e for e in entries if "srun --overlap" in e.command]
        command = entry.command.replace("<jobid>", str(job))
        env = {**slurm_cluster.env, "PATH": f"{VENV_BIN}:{os.environ['PATH']}"}
        started = time.monotonic()
        done = subprocess.run(
            ["bash", "-c", command], env=env, capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stderr
        for pid in pids:
            assert f"Process {pid}:" in done.stdout, (pid, done.stdout, done.stderr)
        assert "qq_waiting_rank" in done.stdout
        assert time.monotonic() - started < 170
    finally:
        slurm_cluster.run(["scancel", str(job)], check=False)
