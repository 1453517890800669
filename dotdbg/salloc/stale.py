"""SLURM_* variables in the shell that would start salloc: an allocation still running (then
salloc nests a new one and srun here goes to the old), or one that ended (its variables stay
behind and change what srun and salloc do)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping

JOB_VARIABLES = ("SLURM_JOB_ID", "SLURM_JOBID")


def warning(environ: Mapping[str, str]) -> str | None:
    job = next((environ[name] for name in JOB_VARIABLES if environ.get(name)), None)
    names = sorted(name for name in environ if name.startswith("SLURM_") and name != "SLURM_CONF")
    if job is None:
        return None if not names else _stale_without_job(names)
    state = job_state(job, environ)
    if state == "RUNNING":
        return (
            f"this shell is inside allocation {job} (still running): salloc here asks for a "
            f"second one, and srun in this shell keeps going to job {job}"
        )
    ended = "no longer known to SLURM" if state is None else f"now {state}"
    return (
        f"{len(names)} stale SLURM_* variables from job {job} ({ended}) are set in this shell: "
        "they change what salloc and srun do; exit this shell (Ctrl-D), or run "
        "`unset ${!SLURM_@}`, before salloc"
    )


def _stale_without_job(names: list[str]) -> str:
    shown = ", ".join(names[:3]) + (" ..." if len(names) > 3 else "")
    return f"SLURM_* variables are set in this shell ({shown}): they change what salloc does"


def job_state(job: str, environ: Mapping[str, str]) -> str | None:
    """squeue's state of the job, None when it does not know it (or squeue is missing)."""
    squeue = shutil.which("squeue", path=environ.get("PATH"))
    if squeue is None:
        return None
    try:
        done = subprocess.run(
            [squeue, "-h", "-j", job, "-o", "%T"],
            capture_output=True,
            text=True,
            timeout=30,
            env=dict(environ),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    state = done.stdout.strip().splitlines()
    return state[0] if done.returncode == 0 and state else None
