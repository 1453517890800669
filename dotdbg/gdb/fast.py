"""``dotdbg gdb PID [--json]`` without the typer app: the dump is timed against
``pystack remote --native`` (benchmarks/gdb_dump), and loading typer and every command module
costs about 80 ms of the 1.5x allowed. ``dotdbg.entry`` routes here; any other form of the
command (options, ``--help``, a prompt, a core file) returns None and goes through typer.
"""

from __future__ import annotations

import sys

from dotdbg.errors import DotdbgError
from dotdbg.gdb import DEFAULT_TIMEOUT

EXIT_INTERRUPTED = 130


def plain_dump(args: list[str]) -> tuple[int, bool] | None:
    """(pid, as_json) when ``args`` are just a pid and maybe ``--json``; else None."""
    rest = [arg for arg in args if arg != "--json"]
    if len(rest) != 1 or not rest[0].isdigit() or len(args) - len(rest) > 1:
        return None
    return int(rest[0]), len(args) > 1


def main(args: list[str]) -> int | None:
    wanted = plain_dump(args)
    if wanted is None:
        return None
    from dotdbg.gdb import run

    try:
        return run.dump_pid(wanted[0], "auto", DEFAULT_TIMEOUT, wanted[1])
    except DotdbgError as error:
        print("\n".join(error.lines()), file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
