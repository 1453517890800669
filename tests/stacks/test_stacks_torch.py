"""Real PyTorch, where it is installed (issue 23.7): a gloo DDP job of 6 ranks on the test SLURM
cluster, in which rank 5 skips an all_reduce. ``stacks --native --job`` must name the collective
the other ranks wait in (native frames, merged into one class) and the odd rank's Python line.

Skipped without torch: PyPI's Linux torch brings the CUDA libraries (gigabytes), so it is not
a test dependency. The NCCL variant needs an NVIDIA GPU.
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import pytest

from tests.infra.procs import wait_for
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import stacks_json

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.torch, pytest.mark.slow]

ODD = 5
PROGRAM = textwrap.dedent(
    f"""
    import os, time
    import torch, torch.distributed as dist

    def skip_the_collective():
        time.sleep(3600)

    def step(rank):
        if rank == {ODD}:
            skip_the_collective()
        dist.all_reduce(torch.ones(4))

    rank = int(os.environ["SLURM_PROCID"])
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{{os.environ['PORT']}}", rank=rank, world_size=6,
        timeout=__import__("datetime").timedelta(hours=1),
    )
    print("ready", rank, flush=True)
    step(rank)
    """
)


def test_native_tree_names_the_collective_and_the_odd_ranks_line(
    slurm_cluster: SlurmCluster, tmp_path: Path
) -> None:
    token = f"dotdbgtorch{os.getpid()}"
    program = tmp_path / f"{token}.py"
    program.write_text(PROGRAM)
    out = tmp_path / "job.out"
    port = 20_000 + os.getpid() % 20_000
    script = f"#!/bin/sh\nPORT={port} srun -N 3 -n 6 {sys.executable} {program}\n"
    job = slurm_cluster.sbatch(script, "-N3", "-n6", f"--output={out}")
    try:
        wait_for(lambda: out.exists() and out.read_text().count("ready") == 6, 300, "6 ranks")
        env = {**slurm_cluster.env, "NO_COLOR": "1"}
        report = stacks_json("--native", "--job", str(job), token, env=env)
        labels = {c["label"]: c for c in report["classes"]}
        assert set(labels) == {"rank 5", "ranks 0-4"}, list(labels)
        waiting = [f for thread in labels["ranks 0-4"]["threads"] for f in thread]
        assert any(f["function"].endswith("all_reduce") and not f["native"] for f in waiting)
        native = [f["function"] for f in waiting if f["native"]]
        assert any("gloo" in name.lower() for name in native), native
        odd = labels["rank 5"]["threads"][0]
        assert any(f["function"] == "skip_the_collective" and f["line"] == 6 for f in odd)
    finally:
        slurm_cluster.run(["scancel", str(job)], check=False)
