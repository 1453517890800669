"""mem-fill, disk-fill and gpu-fill: as ``dotdbg`` commands and as scripts of their own.

The fillers (ctypes, mmap, subprocess) are imported inside the commands: ``--help`` starts fast.
"""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option, integer, number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dotdbg.cli.parser import Values

HOLD = Option(
    ["--hold"],
    "Release after SECONDS. Default: hold until Ctrl-C or SIGTERM.",
    metavar="SECONDS",
    convert=number(minimum=0),
)
COMMAND_WORDS = Argument(
    "command", "The command to run while the filler holds.", many=True, metavar="CMD"
)


def _until_stopped(work: Callable[[], int]) -> int:
    """Run ``work`` with SIGINT/SIGTERM turned into clean-up (``Stopped``: exit 128 + signal)."""
    from dotdbg.common import holding

    with holding.stop_on_signals():
        return work()


def mem_fill(values: Values) -> int:
    from dotdbg.common.sizes import parse_size
    from dotdbg.fill import mem

    adj = values["oom_score_adj"]
    options = mem.MemFillOptions(
        target=parse_size(values["size"]),
        step=parse_size(values["step"], "--step"),
        hold_seconds=values["hold"],
        command=tuple(values["command"]),
        force=values["force"],
        incompressible=values["random_bytes"],
        oom_score_adj=mem.VICTIM_OOM_SCORE_ADJ if adj is None else adj,
    )
    return _until_stopped(lambda: mem.run_mem_fill(options))


def disk_fill(values: Values) -> int:
    from dotdbg.fill import disk

    request = disk.parse_request(
        values["leave"], values["tmpfs"], list(values["args"]), values["hold"]
    )
    return _until_stopped(lambda: disk.run_request(request))


def gpu_fill(values: Values) -> int:
    from dotdbg.common.sizes import parse_size
    from dotdbg.fill import gpu
    from dotdbg.gpu.cuda import load_libcuda

    leave, take = values["leave"], values["take"]
    options = gpu.GpuFillOptions(
        leave=None if leave is None else parse_size(leave, "--leave"),
        take=None if take is None else parse_size(take, "--take"),
        devices=tuple(values["device"]),
        hold_seconds=values["hold"],
    )
    gpu.require_one_size(options.leave, options.take)
    return _until_stopped(lambda: gpu.run_gpu_fill(options, loader=load_libcuda))


MEM_FILL = Command(
    "mem-fill",
    "Commit RAM step by step, check RSS grew, hold it; with -- CMD, run CMD as the OOM victim.",
    mem_fill,
    usage="[OPTIONS] SIZE [-- CMD ARGS...]",
    arguments=(
        Argument("size", "RAM to commit: 512M, 10G, 1.5G (G = 2**30).", required=True),
        COMMAND_WORDS,
    ),
    options=(
        Option(
            ["--step"], "Commit this much at a time (default: 1G).", metavar="SIZE", default="1G"
        ),
        HOLD,
        Option(["--force"], "Go past MemAvailable (or the cgroup's room).", default=False),
        Option(
            ["--random"],
            "Fill with random bytes. Default: only when zram or zswap would compress.",
            dest="random_bytes",
        ),
        Option(
            ["--no-random"],
            "Never random bytes, even with zram or zswap.",
            dest="random_bytes",
            const=False,
        ),
        Option(
            ["--oom-score-adj"],
            "oom_score_adj given to CMD. Default: 1000, killed first.",
            metavar="N",
            convert=integer(-1000, 1000),
        ),
    ),
)

DISK_FILL = Command(
    "disk-fill",
    "Fill a filesystem until --leave is available, with a nameless file; or give CMD a small /tmp.",
    disk_fill,
    description="The space comes back when disk-fill ends, even after kill -9: the file has "
    "no name.",
    usage="[OPTIONS] --leave SIZE [PATH] | --tmpfs SIZE -- CMD ARGS...",
    arguments=(
        Argument(
            "args",
            "Directory on the filesystem to fill (default: $TMPDIR or /tmp); "
            "with --tmpfs, the command.",
            metavar="PATH | CMD",
            many=True,
        ),
    ),
    options=(
        Option(["--leave"], "Space to leave available: 1G, 500M.", metavar="SIZE"),
        HOLD,
        Option(["--tmpfs"], "Run CMD with a private SIZE tmpfs on /tmp, $TMPDIR.", metavar="SIZE"),
    ),
)

GPU_FILL = Command(
    "gpu-fill",
    "Take GPU memory through the CUDA driver until --leave is free on each device.",
    gpu_fill,
    description="Free memory is measured after gpu-fill's own CUDA context exists.",
    options=(
        Option(["--leave"], "GPU memory to leave free on each device.", metavar="SIZE"),
        Option(["--take"], "GPU memory to take on each device.", metavar="SIZE"),
        Option(
            ["--device", "-d"],
            "CUDA ordinal (after CUDA_VISIBLE_DEVICES) or GPU-/MIG- "
            "UUID; repeat for more. Default: every visible device.",
            metavar="N|UUID",
            default=[],
        ),
        HOLD,
    ),
)
