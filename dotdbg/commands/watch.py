"""``dotdbg watch-python``, ``dotdbg pyspy`` and the stand-alone ``watch-python`` script."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, Optional

import typer

from dotdbg.commands import stacks as stacks_cli
from dotdbg.console import run

AllUsers = Annotated[
    bool, typer.Option("--all-users", "-a", help="Every user's processes, not just yours.")
]


class SortKey(str, Enum):
    rss = "rss"
    cpu = "cpu"
    gpu = "gpu"
    pid = "pid"


def watch_python(
    pattern: Annotated[
        Optional[str],  # noqa: UP045 - typer evaluates the annotation on Python 3.10 too
        typer.Option(
            "--pattern",
            "-p",
            metavar="REGEX",
            help="Only processes whose command line matches REGEX.",
        ),
    ] = None,
    all_users: AllUsers = False,
    tree: Annotated[
        bool, typer.Option("--tree", "-t", help="Children under their launcher or parent.")
    ] = False,
    pss: Annotated[
        bool, typer.Option("--pss", help="Add PSS/USS of the shown rows (sampled every 5 s).")
    ] = False,
    interval: Annotated[
        float,
        typer.Option(
            "--interval", "-n", min=0.1, metavar="SECONDS", help="Seconds between refreshes."
        ),
    ] = 0.5,
    sort: Annotated[SortKey, typer.Option("--sort", "-s", help="Order of the rows.")] = SortKey.rss,
    once: Annotated[bool, typer.Option("--once", help="Print one snapshot and exit.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one snapshot as JSON and exit.")
    ] = False,
    job: stacks_cli.JobOpt = None,
    nodes: stacks_cli.NodesOpt = None,
    remote: stacks_cli.RemoteOpt = None,
    in_job: stacks_cli.InJobOpt = None,
) -> None:
    """Watch every Python process: RSS, CPU, threads, env, rank, GPU memory; refreshed in place."""
    from dotdbg.procs.pyprocs import compile_pattern
    from dotdbg.watch import watcher as helper

    target = stacks_cli.target_of(job, nodes, remote)
    if target is not None:
        from dotdbg.watch import job as watch_job

        compile_pattern(pattern)  # a bad one is refused here, not on every node
        # a refresh starts a process on every node: not twice a second
        every = max(interval, watch_job.MIN_INTERVAL)
        raise typer.Exit(watch_job.run(target, pattern, all_users, every, once, as_json))

    options = helper.WatchOptions(
        compile_pattern(pattern), all_users, tree, pss, sort.value, interval, in_job
    )
    if once or as_json:
        helper.print_once(helper.take_snapshot(options), as_json)
    else:
        helper.run_live(options)


def pyspy(
    pattern: stacks_cli.PatternArg = None,
    tree: stacks_cli.TreeOpt = None,
    native: stacks_cli.NativeOpt = False,
    timeout: stacks_cli.TimeoutOpt = 10.0,
    all_users: AllUsers = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON stack record per process (JSON Lines).")
    ] = False,
    samples: stacks_cli.SamplesOpt = 1,
    interval: stacks_cli.IntervalOpt = 1.0,
    job: stacks_cli.JobOpt = None,
    nodes: stacks_cli.NodesOpt = None,
    remote: stacks_cli.RemoteOpt = None,
    in_job: stacks_cli.InJobOpt = None,
) -> None:
    """Where is every Python process right now: py-spy dump of each, in parallel."""
    from dotdbg.procs.pyprocs import compile_pattern
    from dotdbg.pyspy import dump as helper
    from dotdbg.stacks import run

    target = stacks_cli.target_of(job, nodes, remote)
    if as_json or target is not None or samples > 1 or in_job is not None:
        options = run.DumpOptions(
            pattern, tree, all_users, native, timeout, samples, interval, in_job
        )
        show = run.pyspy_json if as_json else run.pyspy_text
        raise typer.Exit(stacks_cli.stopped_exit(lambda: show(options, target)))
    code = helper.run(compile_pattern(pattern, "PATTERN"), tree, native, timeout, all_users)
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("watch-python")(watch_python)
    app.command("pyspy")(pyspy)


watch_app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
watch_app.command()(watch_python)


def watch_python_main() -> int:
    return run(watch_app, sys.argv[1:], prog_name="watch-python")
