"""``dotdbg which``: the file Python really imports for a module, and whether a line ran."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values

DESCRIPTION = (
    "Asks the interpreter you would run (python on PATH, or --python) from the current "
    "directory: the file `import MODULE` picks, the copies it shadows (the current directory, "
    "PYTHONPATH, editable installs, site-packages), namespace packages' portions. The module "
    "itself is not run, except for :ATTR, which imports it to find where ATTR is defined "
    "(and which class of the hierarchy defines a method).\n\n"
    "--ran FILE:LINE -- CMD runs CMD and says whether that line executed, in which process "
    "and called from where, without editing the file (sys.monitoring on Python 3.12+, "
    "sys.settrace before). Exit code: 0 it ran, 1 it did not, 2 on a bad argument."
)


def which(values: Values) -> int:
    from dotdbg.errors import UsageError

    if values["ran"] is not None:
        # the parser hands the first word after -- to MODULE[:ATTR]
        command = [values["target"], *values["command"]] if values["target"] else []
        if not command:
            raise UsageError(
                "--ran FILE:LINE needs the command to run after --", help_command="dotdbg which"
            )
        return _ran(values["ran"], command, values["json"])
    if values["target"] is None:
        raise UsageError("missing MODULE", help_command="dotdbg which")
    if values["command"]:
        raise UsageError(
            "a command after -- goes with --ran FILE:LINE only", help_command="dotdbg which"
        )
    return _module(values)


def _module(values: Values) -> int:
    import json

    from dotdbg.which import locate, report

    module, attr = locate.split_target(values["target"])
    found = locate.probe(locate.user_python(values["python"]), module, attr)
    result = report.summary(found)
    if values["json"]:
        print(json.dumps(result, indent=2))
    else:
        print("\n".join(report.lines(result)))
    return 0 if result["imported"] is not None else 1


def _ran(spot: str, command: list[str], as_json: bool) -> int:
    import json

    from dotdbg.which import ran

    outcome = ran.run(ran.parse_spot(spot), command)
    if as_json:
        print(json.dumps(ran.outcome_json(outcome), indent=2))
    else:
        print("\n".join(ran.outcome_lines(outcome)))
    return 0 if outcome.ran else 1


COMMAND = Command(
    "which",
    "Which copy of a module Python imports, what it shadows, and whether a line ran.",
    which,
    description=DESCRIPTION,
    usage="[OPTIONS] MODULE[:ATTR]  |  --ran FILE:LINE -- CMD ARGS...",
    arguments=(
        Argument("target", "pkg.module or pkg.module:Class.method", metavar="MODULE[:ATTR]"),
        Argument("command", "With --ran: the command to run, after --.", metavar="CMD", many=True),
    ),
    options=(
        Option(["--python"], "The interpreter to ask (default: python on PATH).", metavar="PATH"),
        Option(["--ran"], "Run CMD and tell whether FILE:LINE executed.", metavar="FILE:LINE"),
        Option(["--json"], "One JSON object on stdout.", default=False),
    ),
)
