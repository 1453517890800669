"""``memlimit`` and ``dotdbg memlimit``: run a command, or your shell, under a memory limit."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

DESCRIPTION = (
    "Run CMD (default: your $SHELL) with at most LIMIT of RAM, e.g. `memlimit 5G -- python "
    "train.py`. Sizes are binary: G, GB and GiB all mean 2**30 bytes. Exit code: the command's, "
    "137 if the limit killed it, 2 on a bad argument."
)


def memlimit(values: Values) -> int:
    from dotdbg.memlimit import build_limits, run_memlimit

    limits = build_limits(values["limit"], swap=values["swap"], high=values["high"])
    return run_memlimit(limits, values["command"], backend=values["backend"])


COMMAND = Command(
    "memlimit",
    "Run a command, or your shell, under a memory limit that is really in force.",
    memlimit,
    description=DESCRIPTION,
    usage="[OPTIONS] LIMIT [-- CMD ARGS...]",
    arguments=(
        Argument("limit", "RAM ceiling: 512M, 5G, 1.5G (G = GiB).", required=True),
        Argument(
            "command",
            "Command and its arguments, after -- (default: $SHELL).",
            metavar="CMD",
            many=True,
        ),
    ),
    options=(
        Option(
            ["--swap"], "Swap allowed on top of LIMIT (default: 0).", metavar="SIZE", default="0"
        ),
        Option(
            ["--high"], "Soft limit: throttle above SIZE (cgroup v2 memory.high).", metavar="SIZE"
        ),
        Option(
            ["--backend"],
            "auto (default), systemd, cgroup2, cgroup1 or rlimit.",
            metavar="NAME",
            default="auto",
        ),
    ),
)
