"""``dotdbg gdb``: mixed Python and C/C++ stacks (pystack, or gdb with CPython's extension)."""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option, choice, number
from dotdbg.gdb import DEFAULT_TIMEOUT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values


def gdb(values: Values) -> int:
    from dotdbg.gdb import run

    request = run.parse(
        values["target"],
        values["core"],
        values["exe"],
        values["interactive"],
        values["tui"],
        values["break_in"],
        values["json"],
        values["via"],
        values["timeout"],
        values["check"],
    )
    if values["interactive"] or values["tui"] or values["break_in"]:
        return run.main(request)  # gdb's own prompt follows at once
    from dotdbg.common.output import slow_notice

    with slow_notice("reading the stacks (gdb takes a few seconds)"):
        return run.main(request)


COMMAND = Command(
    "gdb",
    "Python and C/C++ frames of every thread, interleaved: a live process or a core file.",
    gdb,
    usage="[OPTIONS] PID | --core FILE | --break-in -- COMMAND...",
    arguments=(
        Argument(
            "target",
            "The process; with --break-in, the command to run.",
            metavar="PID | -- COMMAND...",
            many=True,
        ),
    ),
    options=(
        Option(["--core"], "A core file instead of a live process.", metavar="FILE"),
        Option(["--exe"], "The interpreter the core file came from.", metavar="PYTHON"),
        Option(["--interactive", "-i"], "A gdb prompt with py-bt, py-list...", default=False),
        Option(["--tui"], "The gdb prompt in its text UI.", default=False),
        Option(["--break-in"], "Run COMMAND under gdb; SIGTRAP stops it in gdb.", default=False),
        Option(["--json"], "One JSON stack record (as dotdbg pyspy --json).", default=False),
        Option(
            ["--via"],
            "Which engine reads the stacks: auto (default), pystack or gdb.",
            metavar="ENGINE",
            convert=choice("auto", "pystack", "gdb"),
            default="auto",
        ),
        Option(
            ["--timeout"],
            f"Seconds each engine may take (default {DEFAULT_TIMEOUT:g}).",
            metavar="SECONDS",
            convert=number(minimum=0.5),
            default=DEFAULT_TIMEOUT,
        ),
        Option(["--check"], "Show what gdb needs for this interpreter, and where.", default=False),
    ),
)
