"""``dotdbg stacks``: where is every process (of this machine, a SLURM job, a host list) stuck.

The options it shares with ``pyspy`` and ``watch-python`` are defined here once.
"""

from __future__ import annotations

from dotdbg.cli.parser import Argument, Command, Option, integer, number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from dotdbg.cli.parser import Values
    from dotdbg.fanout.engine import Engine
    from dotdbg.stacks.run import DumpOptions

PATTERN = Argument("pattern", "Only processes whose command line matches this REGEX.")
TREE = Option(
    ["--tree"], "PID and every Python process below it.", metavar="PID", convert=integer()
)
NATIVE = Option(["--native"], "Include C/C++ frames (py-spy --native).", default=False)
TIMEOUT = Option(
    ["--timeout"],
    "Seconds to wait for each dump (and node); default 10.",
    metavar="SECONDS",
    convert=number(minimum=0.5),
    default=10.0,
)
ALL_USERS = Option(["--all-users", "-a"], "Every user's processes, not just yours.", default=False)
SAMPLES = Option(
    ["--samples"],
    "Dumps per process, to tell stuck from moving (1 to 100).",
    metavar="N",
    convert=integer(1, 100),
    default=1,
)
INTERVAL = Option(
    ["--interval"],
    "Seconds between samples (default 1).",
    metavar="SECONDS",
    convert=number(minimum=0),
    default=1.0,
)
JOB = Option(
    ["--job", "-j"], "Every node of this running SLURM job (srun --overlap).", metavar="JOBID"
)
NODES = Option(["--nodes", "-w"], "These hosts over ssh: 'gpu[01-16]'.", metavar="HOSTS")
EXEC = Option(
    ["--exec"],
    "Reach each --nodes host through this command: 'kubectl exec {host} -c trainer --'.",
    metavar="TEMPLATE",
    dest="exec_template",
)
REMOTE = Option(
    ["--remote-dotdbg"],
    "dotdbg's absolute path on the nodes (default: $DOTDBG_REMOTE, else this one's).",
    metavar="PATH",
    dest="remote",
)
IN_JOB = Option(
    ["--in-job"], "Only processes of this SLURM job on this node.", metavar="JOBID", hidden=True
)  # what --job asks of each node


def engine_of(values: Values) -> Engine | None:
    """The engine the options name: --job (SLURM), --nodes (ssh), --nodes with --exec; None for
    this machine."""
    from dotdbg.errors import DotdbgError

    job, nodes, template, remote = (
        values.get(key) for key in ("job", "nodes", "exec_template", "remote")
    )
    if job is not None and nodes is not None:
        raise DotdbgError("--job and --nodes do not go together", hint="pick one")
    if template is not None and nodes is None:
        raise DotdbgError(
            "--exec needs --nodes HOSTS: the names its {host} takes",
            hint="e.g. --nodes 'trainer-[0-3]' --exec 'kubectl exec {host} -c trainer --'",
        )
    if job is not None:
        from dotdbg.fanout.slurm import SlurmJob

        return SlurmJob(job, remote)
    if template is not None and nodes is not None:
        from dotdbg.fanout.generic import ExecTemplate

        return ExecTemplate(template, nodes, remote)
    if nodes is not None:
        from dotdbg.fanout.ssh import SshHosts

        return SshHosts(nodes, remote)
    return None


def dump_options(values: Values) -> DumpOptions:
    from dotdbg.stacks import run

    return run.DumpOptions(
        values["pattern"],
        values["tree"],
        values["all_users"],
        values["native"],
        values["timeout"],
        values["samples"],
        values["interval"],
        values.get("in_job"),
    )


def stacks(values: Values) -> int:
    from dotdbg.stacks import run

    dot, svg = (None if values[k] is None else _path(values[k]) for k in ("dot", "svg"))
    view = run.View(values["all_threads"], values["full"], values["json"], dot, svg)
    return run.stacks(dump_options(values), engine_of(values), view, values["from"])


def _path(text: str) -> Path:
    from pathlib import Path  # only for --dot and --svg: pathlib costs every start 5 ms

    return Path(text)


COMMAND = Command(
    "stacks",
    "Where is every process stuck: all stacks merged into one tree, processes grouped by stack.",
    stacks,
    arguments=(PATTERN,),
    options=(
        TREE,
        JOB,
        NODES,
        EXEC,
        SAMPLES,
        INTERVAL,
        Option(["--all-threads"], "Show idle threads too (folded by default).", default=False),
        Option(["--full"], "Every frame, not only where processes differ.", default=False),
        Option(["--json"], "The tree and classes as JSON.", default=False),
        Option(["--dot"], "Also write the tree as Graphviz DOT.", metavar="FILE"),
        Option(["--svg"], "Also draw the tree as SVG (needs dot).", metavar="FILE"),
        Option(["--from"], "Merge records from a JSON Lines file ('-': stdin).", metavar="FILE"),
        NATIVE,
        TIMEOUT,
        ALL_USERS,
        REMOTE,
    ),
)
