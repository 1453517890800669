"""The caller's side of ``stacks --job`` (issue 27): the step starts before the modules for what
comes back are imported, and nothing of the process machinery it does not use is imported."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from dotdbg.fanout.slurm import run_on_job
from dotdbg.stacks.run import DumpOptions, remote_argv
from tests.infra.slurm import SlurmCluster
from tests.stacks.stacks_support import DOTDBG, RankJob

pytestmark = pytest.mark.slow

NOT_IMPORTED = {
    "subprocess",  # srun and squeue run through common.spawn
    "selectors",
    "threading",  # no progress timer where stderr is no terminal
    "typing",
    "pathlib",  # only for --dot and --svg
    "getpass",  # termios
    "shutil",  # bz2, lzma
    "dotdbg.pyspy.dump",  # what dumps here, not on the nodes
    "dotdbg.stacks.local",
    "dotdbg.stacks.fallback",
}


def test_stacks_job_imports_no_process_machinery(
    slurm_cluster: SlurmCluster, rank_job: RankJob
) -> None:
    argv = [sys.executable, "-X", "importtime", DOTDBG, "stacks", "--job", str(rank_job.job)]
    done = subprocess.run(
        [*argv, rank_job.token], capture_output=True, text=True, env=slurm_cluster.env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("6 processes on 3 hosts")
    imported = {
        line.rsplit("|", 1)[1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    assert "dotdbg.stacks.merge" in imported
    assert imported & NOT_IMPORTED == set()


def _running_children(program: str) -> list[int]:
    """Our children that run ``program``, from /proc (the parent pid in stat, then argv[0])."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                ppid = int(stat.read().rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                argv0 = cmdline.read().split(b"\0")[0]
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and os.path.basename(argv0) == program.encode():
            found.append(int(entry))
    return found


def test_the_step_runs_while_the_caller_prepares(
    slurm_cluster: SlurmCluster, rank_job: RankJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``meanwhile`` (stacks imports the merge there) runs with srun already started, and the
    nodes' records come back after it."""
    for key, value in slurm_cluster.env.items():
        monkeypatch.setenv(key, value)
    argv = remote_argv(DOTDBG, DumpOptions(pattern=rank_job.token), ["--in-job", str(rank_job.job)])
    seen: list[list[int]] = []
    nodes = ["node1", "node2", "node3"]
    results = run_on_job(
        str(rank_job.job), nodes, argv, 60, lambda: seen.append(_running_children("srun"))
    )
    assert len(seen) == 1 and len(seen[0]) == 1, seen
    assert [result.node for result in results] == nodes
    assert all(result.ok and result.stdout.count("\n") == 2 for result in results), results
    assert _running_children("srun") == []  # ended and reaped


@pytest.mark.parametrize(
    "module",
    [
        "dotdbg.stacks.record",
        "dotdbg.stacks.merge",
        "dotdbg.stacks.render",
        "dotdbg.stacks.job",
        "dotdbg.stacks.run",
        "dotdbg.fanout",
        "dotdbg.fanout.slurm",
    ],
)
def test_the_dataclasses_of_the_job_path_have_docstrings(module: str) -> None:
    """dataclasses calls inspect.signature to make a docstring for a class without one: with
    the 11 that lacked one, 5 ms of every ``stacks --job``'s start (issue 27)."""
    import dataclasses
    import importlib

    found = vars(importlib.import_module(module)).values()
    kinds = [c for c in found if isinstance(c, type) and c.__module__ == module]
    classes = [c for c in kinds if dataclasses.is_dataclass(c)]
    assert classes
    made_up = [
        c.__name__ for c in classes if (c.__doc__ or c.__name__ + "(").startswith(c.__name__ + "(")
    ]
    assert made_up == []
