"""``dotdbg memlimit`` and the stand-alone ``memlimit``: run a command under a memory limit."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from dotdbg.console import run

SHORT_HELP = "Run a command, or your shell, under a memory limit that is really in force."
HELP = (
    "Run CMD (default: your $SHELL) with at most LIMIT of RAM, e.g. `memlimit 5G -- python "
    "train.py`. Sizes are binary: G, GB and GiB all mean 2**30 bytes. Exit code: the command's, "
    "137 if the limit killed it, 2 on a bad argument."
)


def memlimit_command(
    limit: Annotated[
        str, typer.Argument(help="RAM ceiling: 512M, 5G, 1.5G (G = GiB).", metavar="LIMIT")
    ],
    command: Annotated[
        Optional[list[str]],  # noqa: UP045 - typer evaluates the annotation on Python 3.10 too
        typer.Argument(
            help="Command and its arguments, after -- (default: $SHELL).",
            metavar="CMD",
            show_default=False,
        ),
    ] = None,
    swap: Annotated[str, typer.Option(help="Swap allowed on top of LIMIT.", metavar="SIZE")] = "0",
    high: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            help="Soft limit: throttle above SIZE (cgroup v2 memory.high).", metavar="SIZE"
        ),
    ] = None,
    backend: Annotated[
        str, typer.Option(help="auto, systemd, cgroup2, cgroup1 or rlimit.", metavar="NAME")
    ] = "auto",
) -> None:
    from dotdbg.memlimit import build_limits, run_memlimit

    limits = build_limits(limit, swap=swap, high=high)
    raise typer.Exit(run_memlimit(limits, command or [], backend=backend))


def register(app: typer.Typer) -> None:
    app.command("memlimit", help=HELP, short_help=SHORT_HELP)(memlimit_command)


standalone = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
standalone.command(help=HELP)(memlimit_command)


def main() -> int:
    return run(standalone, sys.argv[1:], prog_name="memlimit")
