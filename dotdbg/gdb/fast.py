"""``dotdbg gdb PID [--json]`` without the typer app: the dump is timed against
``pystack remote --native`` (benchmarks/gdb_dump), and loading typer and every command module
costs about 80 ms of the 1.5x allowed. ``dotdbg.entry`` routes here; any other form of the
command (options, ``--help``, a prompt, a core file) returns None and goes through typer.
"""

from __future__ import annotations

from dotdbg.errors import run_plain
from dotdbg.gdb import DEFAULT_TIMEOUT


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

    pid, as_json = wanted
    return run_plain(lambda: run.dump_pid(pid, "auto", DEFAULT_TIMEOUT, as_json))
