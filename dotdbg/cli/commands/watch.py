"""``watch-python`` and ``pyspy``, as ``dotdbg`` commands and (watch-python) a script of its own."""

from __future__ import annotations

from dotdbg.cli.commands import stacks as shared
from dotdbg.cli.parser import Command, Option, choice, number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Values


def watch_python(values: Values) -> int:
    from dotdbg.procs.pyprocs import compile_pattern

    pattern, interval = values["pattern"], values["interval"]
    engine = shared.engine_of(values)
    if engine is not None:
        from dotdbg.watch import job

        compile_pattern(pattern)  # a bad one is refused here, not on every node
        once = values["once"] or values["json"]
        # live, a refresh starts a process on every node: at most one every MIN_INTERVAL
        window = interval if once else max(interval, job.MIN_INTERVAL)
        view = job.JobView(
            pattern, values["all_users"], values["sort"], values["tree"], values["pss"], window
        )
        return job.run(engine, view, values["once"], values["json"])
    from dotdbg.watch import watcher

    options = watcher.WatchOptions(
        compile_pattern(pattern),
        values["all_users"],
        values["tree"],
        values["pss"],
        values["sort"] or "rss",
        interval,
        values["in_job"],
    )
    if values["once"] or values["json"]:
        snapshot = watcher.take_snapshot(options, over=values["over"] or 0.0)
        watcher.print_once(snapshot, values["json"])
    else:
        watcher.run_live(options)
    return 0


def pyspy(values: Values) -> int:
    engine = shared.engine_of(values)
    if values["json"] or engine is not None or values["samples"] > 1 or values["in_job"]:
        from dotdbg.stacks import run

        show = run.pyspy_json if values["json"] else run.pyspy_text
        return show(shared.dump_options(values), engine)
    from dotdbg.procs.pyprocs import compile_pattern
    from dotdbg.pyspy import dump

    pattern = compile_pattern(values["pattern"], "PATTERN")
    return dump.run(
        pattern, values["tree"], values["native"], values["timeout"], values["all_users"]
    )


WATCH_PYTHON = Command(
    "watch-python",
    "Watch every Python process: RSS, CPU, threads, env, rank, GPU memory; refreshed in place.",
    watch_python,
    options=(
        Option(
            ["--pattern", "-p"], "Only processes whose command line matches REGEX.", metavar="REGEX"
        ),
        shared.ALL_USERS,
        Option(["--tree", "-t"], "Children under their launcher or parent.", default=False),
        Option(["--pss"], "Add PSS/USS of the shown rows (sampled every 5 s).", default=False),
        Option(
            ["--interval", "-n"],
            "Seconds between refreshes (default 0.5).",
            metavar="SECONDS",
            convert=number(minimum=0.1),
            default=0.5,
        ),
        Option(
            ["--sort", "-s"],
            "Order of the rows: rss (default; ranks with --job), cpu, gpu or pid.",
            metavar="KEY",
            convert=choice("rss", "cpu", "gpu", "pid"),
        ),
        Option(["--once"], "Print one snapshot and exit.", default=False),
        Option(["--json"], "Print one snapshot as JSON and exit.", default=False),
        shared.JOB,
        shared.NODES,
        shared.EXEC,
        shared.REMOTE,
        shared.IN_JOB,
        Option(
            ["--over"],
            "With --json: %CPU over this many seconds, not over each process's life.",
            metavar="SECONDS",
            convert=number(minimum=0),
            hidden=True,
        ),  # what watch-python --job asks of each node
    ),
)

PYSPY = Command(
    "pyspy",
    "Where is every Python process right now: py-spy dump of each, in parallel.",
    pyspy,
    arguments=(shared.PATTERN,),
    options=(
        shared.TREE,
        shared.NATIVE,
        shared.TIMEOUT,
        shared.ALL_USERS,
        Option(["--json"], "One JSON stack record per process (JSON Lines).", default=False),
        shared.SAMPLES,
        shared.INTERVAL,
        shared.JOB,
        shared.NODES,
        shared.EXEC,
        shared.REMOTE,
        shared.IN_JOB,
    ),
)
