"""``dotdbg salloc JOB.sbatch``: the salloc line of a job script's #SBATCH lines, for the
methodology's salloc-once, srun-many debug loop, and a warning on stale SLURM_* variables."""
