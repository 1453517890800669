"""``dotdbg errtrace``: the failing system calls of a command (strace underneath), grouped by
error, path and process, the few that most likely explain its failure first."""
