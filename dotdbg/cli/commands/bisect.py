"""``dotdbg bisect GOOD BAD -- CMD``: find the commit that broke CMD."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option, choice, integer, number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

DESCRIPTION = (
    "git bisect, run for you: at each commit the submodules are updated, the package is "
    "reinstalled (pip install -e . when the python on PATH has this checkout installed in "
    "editable mode, or --setup CMD), and CMD runs with its output kept aside. Exit 0 marks "
    "the commit good, 125 skip, others bad; when CMD runs pytest, its exits 2-5 (collection "
    "or usage error, no tests) are skips, not bad. A step over --timeout counts as skip (or "
    "bad: --timeout-is bad). The culprit and its parent are then run again to confirm, and "
    "the culprit's subject, author and pull request are shown.\n\n"
    "Whatever happens (the answer, an error, Ctrl-C, kill) the run ends with `git bisect "
    "reset`: the branch, working tree and submodules are as before. Refused: uncommitted "
    "changes, a bisection already in progress. Exit code: 0 culprit found and confirmed, 1 "
    "not found or not confirmed, 2 on a bad argument, 130/143 when stopped."
)


def bisect(values: Values) -> int:
    import json
    import os
    import sys

    from dotdbg.bisect import report, setup
    from dotdbg.bisect.git import Git
    from dotdbg.bisect.session import bisect as run_bisect
    from dotdbg.bisect.steps import Plan
    from dotdbg.bisect.verdict import runs_pytest
    from dotdbg.common.programs import require_program
    from dotdbg.errors import UsageError

    command = values["command"]
    if not command:
        raise UsageError("missing the command to run after --", help_command="dotdbg bisect")
    require_program(command[0])
    top = Git(os.getcwd()).out("rev-parse", "--show-toplevel")
    steps = setup.setup_command(values["setup"], values["no_setup"], top)
    print(f"dotdbg bisect: {setup.describe(steps)}", file=sys.stderr)
    plan = Plan(
        command,
        steps,
        values["timeout"],
        values["timeout_is"],
        runs_pytest(command),
        frozenset(values["skip_exit"]),
    )
    result = run_bisect(Git(top), values["good"], values["bad"], plan)
    if values["json"]:
        print(json.dumps(report.as_json(result), indent=2))
    else:
        print("\n".join(report.lines(result)))
    return 0 if result.confirmed else 1


COMMAND = Command(
    "bisect",
    "Find the commit that broke a command: git bisect with reinstalls, timeouts and a "
    "confirmed answer.",
    bisect,
    description=DESCRIPTION,
    usage="[OPTIONS] GOOD BAD -- CMD ARGS...",
    arguments=(
        Argument("good", "A commit where CMD works (a tag, a sha).", required=True),
        Argument("bad", "A later commit where it fails (HEAD).", required=True),
        Argument(
            "command", "The test, after --: pytest tests/test_x.py -x", metavar="CMD", many=True
        ),
    ),
    options=(
        Option(["--setup"], "Shell command run at each commit before CMD.", metavar="CMD"),
        Option(["--no-setup"], "No reinstall step, even for an editable install.", default=False),
        Option(
            ["--timeout"],
            "Seconds one run of CMD may take.",
            metavar="SECONDS",
            convert=number(minimum=0.1),
        ),
        Option(
            ["--timeout-is"],
            "What a run over --timeout counts as: skip (default) or bad.",
            metavar="VERDICT",
            convert=choice("skip", "bad"),
            default="skip",
        ),
        Option(
            ["--skip-exit"],
            "Count this exit code of CMD as skip (repeatable).",
            metavar="CODE",
            convert=integer(1, 255),
            default=[],
        ),
        Option(["--json"], "The result as one JSON object on stdout.", default=False),
    ),
)
