"""``dotdbg salloc JOB.sbatch``: the salloc line of a job script, for fast srun iterations."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

DESCRIPTION = (
    "Reads the #SBATCH lines of JOB.sbatch (up to its first command, as sbatch does) and "
    "prints the salloc command that asks for the same allocation (nodes, tasks, CPUs, GPUs, "
    "partition, time, memory...), without the options only a batch job uses (output, error, "
    "array, mail). Run it once, then `srun ...` as often as you like in the shell it opens, "
    "instead of sbatch each time; exit that shell when done. CMD after -- replaces the shell "
    "(default: bash). --run starts salloc right away. Warns when the current shell holds "
    "SLURM_* variables: of an allocation still running, or stale ones of one that ended. "
    "Exit code: 0 (with --run: salloc's), 2 on a bad argument."
)


def salloc(values: Values) -> int:
    import json
    import os
    import shlex
    import sys
    from pathlib import Path

    from dotdbg.errors import DotdbgError
    from dotdbg.salloc import sbatch, stale

    script = Path(values["script"])
    try:
        text = script.read_text(errors="replace")
    except OSError as error:
        raise DotdbgError(
            f"cannot read {script}: {error.strerror}", hint="give the job script"
        ) from None
    found = sbatch.read_directives(text)
    if not found.options:
        raise DotdbgError(
            f"{script} has no #SBATCH lines before its first command",
            hint="is it the job script you sbatch?",
        )
    argv, dropped = sbatch.salloc_argv(found, values["command"] or ["bash"])
    warning = stale.warning(os.environ)
    if warning:
        print(f"dotdbg salloc: warning: {warning}", file=sys.stderr)
    for number, word in found.unknown:
        print(
            f"dotdbg salloc: {script}:{number}: not understood, left out: {word}", file=sys.stderr
        )
    if values["json"]:
        print(
            json.dumps(
                {"salloc": argv, "line": shlex.join(argv), "dropped": dropped, "warning": warning},
                indent=2,
            )
        )
    elif not values["run"]:
        print(shlex.join(argv))
    if values["run"]:
        os.execvp("salloc", argv)
    return 0


COMMAND = Command(
    "salloc",
    "The salloc line for a job script's #SBATCH lines, and stale SLURM_* variables.",
    salloc,
    description=DESCRIPTION,
    usage="[OPTIONS] JOB.sbatch [-- CMD ARGS...]",
    arguments=(
        Argument("script", "The job script you sbatch.", metavar="JOB.sbatch", required=True),
        Argument(
            "command", "What salloc runs, after -- (default: bash).", metavar="CMD", many=True
        ),
    ),
    options=(
        Option(["--run"], "Start salloc now instead of printing the line.", default=False),
        Option(
            ["--json"],
            "The salloc argv, the dropped options and the warning as JSON.",
            default=False,
        ),
    ),
)
