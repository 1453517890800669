"""``dotdbg salloc`` on the test SLURM cluster: the line it derives gets the allocation the job
script asks for, and the SLURM_* variables of a running or an ended allocation are pointed out."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from dotdbg.salloc.sbatch import read_directives, salloc_argv
from tests.infra.slurm import SlurmCluster
from tests.infra.spawner import BIN

TIMEOUT = 120
JOB = """\
#!/bin/bash
#SBATCH --job-name=train
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1   # one launcher per node
#SBATCH -c 1
#SBATCH --time 00:05:00
#SBATCH -p debug
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err

srun python train.py
#SBATCH --nodes=3
"""


def test_the_line_keeps_the_allocation_and_drops_the_batch_only_options() -> None:
    argv, dropped = salloc_argv(read_directives(JOB), ["bash"])
    assert argv == [
        "salloc", "--job-name=train", "--nodes=2", "--ntasks-per-node=1", "--cpus-per-task=1",
        "--time=00:05:00", "--partition=debug", "bash",
    ]  # fmt: skip
    assert dropped == ["output=%x-%j.out", "error=%x-%j.err"]


def test_the_methodologys_flags_come_through() -> None:
    script = "#SBATCH --nodes=1 --ntasks-per-node=1 --exclusive\n#SBATCH --cpus-per-task=96 " \
             "--gres=gpu:8\n#SBATCH -t 6:00:00 -G8\n"  # fmt: skip
    argv, _ = salloc_argv(read_directives(script), ["bash"])
    assert argv == [
        "salloc", "--nodes=1", "--ntasks-per-node=1", "--exclusive", "--cpus-per-task=96",
        "--gres=gpu:8", "--time=6:00:00", "--gpus=8", "bash",
    ]  # fmt: skip


def dotdbg_salloc(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [BIN / "dotdbg", "salloc", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
    )


@pytest.fixture
def job(tmp_path: Path) -> Path:
    path = tmp_path / "job.sbatch"
    path.write_text(JOB)
    return path


def test_run_gets_the_allocation_the_script_asks_for(
    slurm_cluster: SlurmCluster, job: Path
) -> None:
    report = "echo node $SLURM_NODEID of $SLURM_JOB_NUM_NODES, $SLURM_CPUS_PER_TASK cpu"
    done = dotdbg_salloc(slurm_cluster.env, "--run", str(job), "--", "srun", "bash", "-c", report)
    assert done.returncode == 0, done.stderr
    assert sorted(done.stdout.splitlines()) == ["node 0 of 2, 1 cpu", "node 1 of 2, 1 cpu"]
    assert "Granted job allocation" in done.stderr


def test_stale_variables_of_an_ended_allocation_are_pointed_out(
    slurm_cluster: SlurmCluster, job: Path
) -> None:
    inside = subprocess.run(
        ["salloc", "-N1", "env"],
        capture_output=True,
        text=True,
        env=slurm_cluster.env,
        timeout=TIMEOUT,
    )
    left = dict(
        line.split("=", 1) for line in inside.stdout.splitlines() if line.startswith("SLURM_")
    )
    ended = left["SLURM_JOB_ID"]
    done = dotdbg_salloc({**slurm_cluster.env, **left}, "--json", str(job))
    assert done.returncode == 0, done.stderr
    warning = json.loads(done.stdout)["warning"]
    assert f"stale SLURM_* variables from job {ended}" in warning
    assert f"dotdbg salloc: warning: {len(left) - ('SLURM_CONF' in left)} stale" in done.stderr


def test_inside_a_running_allocation_it_says_so(slurm_cluster: SlurmCluster, job: Path) -> None:
    done = subprocess.run(
        ["salloc", "-N1", str(BIN / "dotdbg"), "salloc", str(job)],
        capture_output=True,
        text=True,
        env=slurm_cluster.env,
        timeout=TIMEOUT,
    )
    assert done.returncode == 0, done.stderr
    assert "this shell is inside allocation" in done.stderr
    assert "(still running)" in done.stderr


def test_a_shell_without_slurm_variables_gets_no_warning(
    slurm_cluster: SlurmCluster, job: Path
) -> None:
    done = dotdbg_salloc(slurm_cluster.env, str(job))
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("salloc --job-name=train --nodes=2 ")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (None, "cannot read"),
        ("#!/bin/sh\nsrun true\n#SBATCH -N2\n", "has no #SBATCH lines before its first command"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, text: str | None, error: str) -> None:
    path = tmp_path / "job.sbatch"
    if text is not None:
        path.write_text(text)
    done = subprocess.run([BIN / "dotdbg", "salloc", str(path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("dotdbg: error: ") and error in done.stderr.splitlines()[0]
