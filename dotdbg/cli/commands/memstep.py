"""``dotdbg memstep``: RSS and GPU memory growth per step of a Python script."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

DESCRIPTION = (
    "Runs the script with your interpreter one step at a time: each `# %%` cell, or else "
    "each top-level statement (the body of `if __name__ == '__main__':` stepped into). "
    "After each step, on stderr: its RSS growth, its peak above the start, the RSS, and the "
    "same for PyTorch's CUDA memory when the script uses CUDA; at the end, the step that "
    "kept the most. A step that keeps memory it does not need is the leak.\n\n"
    "From code or pdb, in an environment where dotdbg is installed: `with "
    "dotdbg.memstep.step('load'):`, `@dotdbg.memstep.step`, or `memstep.mark('label')` "
    "between two points. Exit code: the script's; 2 on a bad argument."
)


def memstep(values: Values) -> int:
    import json
    import sys

    from dotdbg.errors import UsageError
    from dotdbg.memstep.command import largest, run

    if not values["command"]:
        raise UsageError(
            "missing the command: -- python SCRIPT ARGS", help_command="dotdbg memstep"
        )
    code, readings = run(values["command"], stdout_to_stderr=values["json"])
    if values["json"]:
        print(json.dumps({"exit_code": code, "steps": readings}, indent=2))
    summary = largest(readings)
    if summary:
        print(summary, file=sys.stderr)
    return code


COMMAND = Command(
    "memstep",
    "Memory growth per step of a Python script: RSS and GPU, each cell or statement.",
    memstep,
    description=DESCRIPTION,
    usage="[OPTIONS] -- python SCRIPT ARGS...",
    arguments=(Argument("command", "python SCRIPT ARGS, after --.", metavar="CMD", many=True),),
    options=(
        Option(
            ["--json"],
            "Every step's readings as JSON on stdout (the script's stdout goes to stderr).",
            default=False,
        ),
    ),
)
