"""``dotdbg stacks``: where is every process (of this machine, a SLURM job, a host list) stuck."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

if TYPE_CHECKING:
    from dotdbg.stacks.job import Target

PatternArg = Annotated[
    Optional[str],  # noqa: UP045 - typer evaluates the annotation on Python 3.10 too
    typer.Argument(metavar="PATTERN", help="Only processes whose command line matches this REGEX."),
]
TreeOpt = Annotated[
    Optional[int],  # noqa: UP045
    typer.Option("--tree", metavar="PID", help="PID and every Python process below it."),
]
NativeOpt = Annotated[
    bool, typer.Option("--native", help="Include C/C++ frames (py-spy --native).")
]
TimeoutOpt = Annotated[
    float,
    typer.Option(
        "--timeout", min=0.5, metavar="SECONDS", help="Seconds to wait for each dump (and node)."
    ),
]
AllUsersOpt = Annotated[
    bool, typer.Option("--all-users", "-a", help="Every user's processes, not just yours.")
]
SamplesOpt = Annotated[
    int,
    typer.Option(
        "--samples",
        min=1,
        max=100,
        metavar="N",
        help="Dumps per process, to tell stuck from moving.",
    ),
]
IntervalOpt = Annotated[
    float,
    typer.Option("--interval", min=0.0, metavar="SECONDS", help="Seconds between samples."),
]
JobOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--job",
        "-j",
        metavar="JOBID",
        help="Every node of this running SLURM job (srun --overlap).",
    ),
]
NodesOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option("--nodes", "-w", metavar="HOSTS", help="These hosts over ssh: 'gpu[01-16]'."),
]
RemoteOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--remote-dotdbg",
        metavar="PATH",
        help="dotdbg's absolute path on the nodes (default: $DOTDBG_REMOTE, else this one's).",
    ),
]

InJobOpt = Annotated[
    Optional[str],  # noqa: UP045
    typer.Option(
        "--in-job",
        metavar="JOBID",
        hidden=True,  # what --job asks of each node
        help="Only processes of this SLURM job on this node.",
    ),
]


def target_of(job: str | None, nodes: str | None, remote: str | None) -> Target | None:
    from dotdbg.errors import DotdbgError
    from dotdbg.stacks.job import Target

    if job is not None and nodes is not None:
        raise DotdbgError("--job and --nodes do not go together", hint="pick one")
    if job is None and nodes is None:
        return None
    return Target(job=job, nodes=nodes, remote=remote)


def stopped_exit(run: Callable[[], int]) -> int:
    """Run, turning a stop signal (after the clean-up it caused) into 128 + its number."""
    from dotdbg.common.holding import Stopped

    try:
        return run()
    except Stopped as stop:
        return stop.exit_code


def stacks(
    pattern: PatternArg = None,
    tree: TreeOpt = None,
    job: JobOpt = None,
    nodes: NodesOpt = None,
    samples: SamplesOpt = 1,
    interval: IntervalOpt = 1.0,
    all_threads: Annotated[
        bool, typer.Option("--all-threads", help="Show idle threads too (folded by default).")
    ] = False,
    full: Annotated[
        bool, typer.Option("--full", help="Every frame, not only where processes differ.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The tree and classes as JSON.")] = False,
    dot: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--dot", metavar="FILE", help="Also write the tree as Graphviz DOT."),
    ] = None,
    svg: Annotated[
        Optional[Path],  # noqa: UP045
        typer.Option("--svg", metavar="FILE", help="Also draw the tree as SVG (needs dot)."),
    ] = None,
    from_file: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--from", metavar="FILE", help="Merge records from a JSON Lines file ('-': stdin)."
        ),
    ] = None,
    native: NativeOpt = False,
    timeout: TimeoutOpt = 10.0,
    all_users: AllUsersOpt = False,
    remote: RemoteOpt = None,
) -> None:
    """Where is every process stuck: all stacks merged into one tree, processes grouped by stack."""
    from dotdbg.stacks import run

    options = run.DumpOptions(pattern, tree, all_users, native, timeout, samples, interval)
    view = run.View(all_threads, full, as_json, dot, svg)
    target = target_of(job, nodes, remote)
    code = stopped_exit(lambda: run.stacks(options, target, view, from_file))
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    app.command("stacks")(stacks)
