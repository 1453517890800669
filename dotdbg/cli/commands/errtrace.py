"""``dotdbg errtrace``: which failing system calls explain why a command failed."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option, integer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

DESCRIPTION = (
    "Runs CMD under strace (or attaches to PID with -p) and summarizes its failing system "
    "calls: grouped by error, path and process, with the first and last occurrence, and the "
    "few that most likely explain a failure first: no space left (ENOSPC), a refusal (EACCES, "
    "EPERM), a missing file (ENOENT) that the program then printed, the last failure of a "
    "process that went on to fail. The program's output is shown as it runs; the summary "
    "goes to stderr (--json: to stdout). Ctrl-C stops the program, or detaches from PID, and "
    "still prints the summary. Exit code: the command's (with -p: the process's if it ended, "
    "else 0); 2 on a bad argument."
)


def errtrace(values: Values) -> int:
    import json
    import sys

    from dotdbg.errors import UsageError
    from dotdbg.errtrace import report
    from dotdbg.errtrace.run import run

    pid, command = values["pid"], values["command"]
    if (pid is None) == (not command):
        raise UsageError(
            "give a command after -- or -p PID (one of them)", help_command="dotdbg errtrace"
        )
    summary, code = run(pid if pid is not None else command, values["output"], values["json"])
    if values["json"]:
        print(json.dumps(summary.as_json(), indent=2))
    else:
        print("\n".join(report.lines(summary, values["all"])), file=sys.stderr)
    return code


COMMAND = Command(
    "errtrace",
    "Run a command under strace and show the failing system calls that explain its failure.",
    errtrace,
    description=DESCRIPTION,
    usage="[OPTIONS] -- CMD ARGS...  |  -p PID",
    arguments=(Argument("command", "The command to run, after --.", metavar="CMD", many=True),),
    options=(
        Option(
            ["-p", "--pid"],
            "Attach to this running process instead.",
            metavar="PID",
            dest="pid",
            convert=integer(1),
        ),
        Option(["--all"], "List every group, not only the counts per error.", default=False),
        Option(
            ["-o", "--output"], "Keep strace's whole trace in FILE.", metavar="FILE", dest="output"
        ),
        Option(
            ["--json"],
            "The summary as JSON on stdout (the command's stdout goes to stderr).",
            default=False,
        ),
    ),
)
