"""Real engines started by the suite itself: a SLURM cluster and an sshd on loopback."""
