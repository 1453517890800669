"""mem-fill, disk-fill and gpu-fill: as ``dotdbg`` commands and as console scripts of their own."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, Optional

import typer

from dotdbg.common.sizes import parse_size
from dotdbg.console import run

# The helpers (ctypes, mmap, subprocess) are imported inside the commands: `dotdbg` starts fast.

# typer evaluates annotations on Python 3.10 too, so Optional stays (UP045).
HoldOption = Annotated[
    Optional[float],  # noqa: UP045
    typer.Option(
        "--hold",
        metavar="SECONDS",
        min=0,
        help="Release after SECONDS. Default: hold until Ctrl-C or SIGTERM.",
    ),
]
CommandArgument = Annotated[
    Optional[list[str]],  # noqa: UP045
    typer.Argument(metavar="-- CMD ARGS", show_default=False),
]


def _until_stopped(work: Callable[[], int]) -> None:
    """Run ``work`` with SIGINT/SIGTERM turned into clean-up; exit with its code or 128+signal."""
    from dotdbg.common import holding

    with holding.stop_on_signals():
        try:
            code = work()
        except holding.Stopped as stop:
            code = stop.exit_code
    if code:
        raise typer.Exit(code)


def mem_fill(
    size: Annotated[
        str, typer.Argument(metavar="SIZE", help="RAM to commit: 512M, 10G, 1.5G (G = 2**30).")
    ],
    command: CommandArgument = None,
    step: Annotated[
        str, typer.Option("--step", metavar="SIZE", help="Commit this much at a time.")
    ] = "1G",
    hold: HoldOption = None,
    force: Annotated[
        bool, typer.Option("--force", help="Go past MemAvailable (or the cgroup's room).")
    ] = False,
    random_bytes: Annotated[
        Optional[bool],  # noqa: UP045
        typer.Option(
            "--random/--no-random",
            help="Fill with random bytes. Default: only when zram or zswap would compress.",
            show_default=False,
        ),
    ] = None,
    oom_score_adj: Annotated[
        Optional[int],  # noqa: UP045
        typer.Option(
            min=-1000,
            max=1000,
            help="oom_score_adj given to CMD. Default: 1000, killed first.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Commit RAM step by step, check RSS grew, hold it; with -- CMD, run CMD as the OOM victim."""
    from dotdbg.fill import mem

    if oom_score_adj is None:
        oom_score_adj = mem.VICTIM_OOM_SCORE_ADJ
    options = mem.MemFillOptions(
        target=parse_size(size),
        step=parse_size(step, "--step"),
        hold_seconds=hold,
        command=tuple(command or ()),
        force=force,
        incompressible=random_bytes,
        oom_score_adj=oom_score_adj,
    )
    _until_stopped(lambda: mem.run_mem_fill(options))


def disk_fill(
    args: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Argument(
            metavar="PATH | --tmpfs SIZE -- CMD ARGS",
            help="Directory on the filesystem to fill (default: $TMPDIR or /tmp).",
            show_default=False,
        ),
    ] = None,
    leave: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--leave", metavar="SIZE", help="Space to leave available: 1G, 500M."),
    ] = None,
    hold: HoldOption = None,
    tmpfs: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--tmpfs", metavar="SIZE", help="Run CMD with a private SIZE tmpfs on /tmp, $TMPDIR."
        ),
    ] = None,
) -> None:
    """Fill a filesystem until --leave is available, with a nameless file; or give CMD a small /tmp.

    The space comes back when disk-fill ends, even after kill -9: the file has no name.
    """
    from dotdbg.fill import disk

    request = disk.parse_request(leave, tmpfs, list(args or ()), hold)
    _until_stopped(lambda: disk.run_request(request))


def gpu_fill(
    leave: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--leave", metavar="SIZE", help="GPU memory to leave free on each device."),
    ] = None,
    take: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--take", metavar="SIZE", help="GPU memory to take on each device."),
    ] = None,
    device: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--device",
            "-d",
            metavar="N|UUID",
            help="CUDA ordinal (after CUDA_VISIBLE_DEVICES) or GPU-/MIG- UUID; repeat for more."
            " Default: every visible device.",
            show_default=False,
        ),
    ] = None,
    hold: HoldOption = None,
) -> None:
    """Take GPU memory through the CUDA driver until --leave is free on each device.

    Free memory is measured after gpu-fill's own CUDA context exists.
    """
    from dotdbg.fill import gpu
    from dotdbg.gpu.cuda import load_libcuda

    options = gpu.GpuFillOptions(
        leave=None if leave is None else parse_size(leave, "--leave"),
        take=None if take is None else parse_size(take, "--take"),
        devices=tuple(device or ()),
        hold_seconds=hold,
    )
    gpu.require_one_size(options.leave, options.take)
    _until_stopped(lambda: gpu.run_gpu_fill(options, loader=load_libcuda))


COMMANDS: dict[str, Callable[..., None]] = {
    "mem-fill": mem_fill,
    "disk-fill": disk_fill,
    "gpu-fill": gpu_fill,
}


def register(app: typer.Typer) -> None:
    for name, function in COMMANDS.items():
        app.command(name)(function)


def _script_app(name: str) -> typer.Typer:
    app = typer.Typer(name=name, add_completion=False, pretty_exceptions_enable=False)
    app.command(name)(COMMANDS[name])
    return app


def mem_fill_main() -> int:
    return run(_script_app("mem-fill"), sys.argv[1:], prog_name="mem-fill")


def disk_fill_main() -> int:
    return run(_script_app("disk-fill"), sys.argv[1:], prog_name="disk-fill")


def gpu_fill_main() -> int:
    return run(_script_app("gpu-fill"), sys.argv[1:], prog_name="gpu-fill")
