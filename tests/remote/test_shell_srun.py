"""``dotdbg shell -- srun --pty --overlap --jobid J sh`` on the test SLURM cluster: the session
in a running job's allocation, its files on the step's input, its directory gone at exit."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect

from tests.infra.procs import wait_for
from tests.infra.slurm import SlurmCluster
from tests.remote.test_session_stream import PROMPT, TOKEN, leaks, said
from tests.remote.test_session_stream import local_home as local_home  # the fixture
from tests.remote.test_ssh_session import DOTDBG


def test_a_session_in_a_job_through_srun_pty(slurm_cluster: SlurmCluster, local_home: Path) -> None:
    (local_home / ".profile").write_text(f"PS1='{PROMPT}'\n")
    job = slurm_cluster.sbatch("#!/bin/sh\nsleep 300\n", "-N1", f"--chdir={local_home}")
    try:
        slurm_cluster.wait_running(job)
        env = {**slurm_cluster.env, "HOME": str(local_home), "SHELL": "/bin/bash", "TERM": "xterm"}
        srun = ["srun", "--pty", "--overlap", "--jobid", str(job), "sh"]
        child = pexpect.spawn(
            str(DOTDBG), ["shell", "--", *srun], env=env, timeout=90, dimensions=(50, 200)
        )
        try:
            child.expect_exact("for this session only")
            child.expect_exact(PROMPT)
            assert said(child, "echo $SLURM_JOB_ID").strip() == str(job)  # inside the job
            assert TOKEN in said(child, "tok")
            assert "run-step-1999 --seed 1999" in said(child, "ch -c entry-1999")
            directory = Path(said(child, "echo $__dotdbg_session").strip())
            assert directory.stat().st_mode & 0o777 == 0o700
            assert leaks(TOKEN) == []
            child.sendline("exit")
            child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
        wait_for(lambda: not directory.exists(), 30, "the session dir to go after exit")
    finally:
        slurm_cluster.run(["scancel", str(job)], check=False)
    assert os.path.isdir(local_home)
