"""One task on every node of a running SLURM job: ``srun --jobid J --overlap``.

The step asks for nothing of its own: ``--overlap`` shares the job's CPUs, memory and GRES
(SLURM 22.05 and later), ``--gres=none`` keeps it off the GPUs, one CPU a task, so it starts at
once even when the job holds every resource. SLURM_* variables of the caller (an ``salloc``
shell) are dropped, so they do not shape this step.

srun labels each line with its task number (``--label``), and cuts a longer line than 1024 bytes
(SLURM's MAX_MSG_LEN) into labelled pieces of exactly 1024 bytes, which other tasks' lines may
come between: a piece of 1024 bytes goes on in the task's next one (a line of exactly 1024 bytes
is followed by an empty piece, its newline). Each task runs a small sh wrapper that names its node
first and reports the command's exit code last.
"""

from __future__ import annotations

import os
import re
import select
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dotdbg.common import spawn
from dotdbg.common.programs import which
from dotdbg.common.spawn import Finished
from dotdbg.errors import DotdbgError
from dotdbg.fanout import NodeResult, found_on_node
from dotdbg.fanout.engine import Engine

MARK = "@dotdbg-fanout-"
WRAPPER = (
    f'printf \'{MARK}node %s\\n\' "${{SLURMD_NODENAME:-$(hostname)}}"; "$@"; rc=$?; '
    f'printf \'{MARK}rc %s\\n\' "$rc"; exit "$rc"'
)
PIECE_BYTES = 1024
_RC = re.compile(rb"^(.*)" + re.escape(MARK.encode()) + rb"rc (\d+)$", re.DOTALL)
SLURM_TIMEOUT = 30.0  # seconds for squeue
END_GRACE = 1.0  # seconds srun has to end the step after SIGTERM


@dataclass(frozen=True)
class SlurmJob(Engine):
    """The nodes of a running SLURM job of this user; one ``srun --overlap`` step runs a command
    on each, and only the job's own processes there are looked at."""

    job: str
    remote: str | None = None

    def nodes(self) -> list[str]:
        return job_nodes(self.job)

    def run(self, nodes: Sequence[str], argv: Sequence[str], timeout: float) -> list[NodeResult]:
        return run_on_job(self.job, nodes, argv, timeout)

    def run_meanwhile(
        self,
        nodes: Sequence[str],
        argv: Sequence[str],
        timeout: float,
        meanwhile: Callable[[], object],
    ) -> list[NodeResult]:
        return run_on_job(self.job, nodes, argv, timeout, meanwhile)

    def node_filter(self) -> list[str]:
        return ["--in-job", self.job]


def _slurm_env() -> dict[str, str]:
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("SLURM_") or key == "SLURM_CONF"
    }


def _require(program: str) -> str:
    found = which(program)
    if found is None:
        raise DotdbgError(
            f"{program} not found: --job needs SLURM's commands on this machine",
            hint="run it on the cluster's login node, or use --nodes HOSTS to go over ssh",
        )
    return found


def _query(argv: list[str]) -> Finished:
    """(exit code, stdout, stderr) of a SLURM command; a DotdbgError when it does not answer."""
    [done] = spawn.run_all([argv], SLURM_TIMEOUT, 1, env=_slurm_env())
    if done is None:
        raise DotdbgError(
            f"{os.path.basename(argv[0])} did not answer within {SLURM_TIMEOUT:g}s",
            hint="is slurmctld up? scontrol ping says",
        )
    return done


def job_nodes(job: str) -> list[str]:
    """The nodes of a running job of this user; a DotdbgError for any other job."""
    if not job.replace("_", "").isdigit():
        raise DotdbgError(f"--job {job!r} is not a job id", hint="a number, as squeue shows it")
    code, out, err = _query([_require("squeue"), "-h", "-j", job, "-o", "%T|%u|%N"])
    fields = out.strip().split("|")
    if code == 0 and not out.strip():
        raise DotdbgError(
            f"job {job} is not running (it has ended)", hint="squeue --me lists your jobs"
        )
    if code != 0 or len(fields) != 3:
        reason = err.strip().removeprefix("slurm_load_jobs error: ") or "no such job"
        raise DotdbgError(f"job {job}: {reason}", hint="squeue --me lists your jobs")
    state, user, nodelist = fields
    if state != "RUNNING":
        raise DotdbgError(
            f"job {job} is {state.lower()}, not running", hint="only a running job has stacks"
        )
    me = _user_name()
    if user != me and os.getuid() != 0:
        raise DotdbgError(
            f"job {job} belongs to {user}, not to {me}",
            hint="only the job's owner (or root) may start a step in it",
        )
    return expand_hostlist(nodelist)


def _user_name() -> str:
    """This user's name as squeue's %u shows it (getpass would bring termios for nothing)."""
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:  # no passwd entry (a container): squeue shows the uid
        return str(os.getuid())


def expand_hostlist(nodelist: str) -> list[str]:
    """SLURM's compressed host list (``gpu[01-03,07],login1``, ``r[1-2]-n[1-2]``) as names,
    here rather than through ``scontrol show hostnames``: one SLURM query, not two in a row."""
    return [host for item in _top_level(nodelist) for host in _expand(item)]


def _top_level(nodelist: str) -> list[str]:
    """The comma-separated items, commas inside brackets kept."""
    items, depth, start = [], 0, 0
    for at, char in enumerate(nodelist):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(nodelist[start:at])
            start = at + 1
    items.append(nodelist[start:])
    return [item.strip() for item in items if item.strip()]


def _expand(item: str) -> list[str]:
    opened = item.find("[")
    if opened < 0:
        return [item]
    closed = item.find("]", opened)
    if closed < 0:
        raise DotdbgError(f"SLURM gave a host list dotdbg cannot read: {item!r}")
    prefix, body, rest = item[:opened], item[opened + 1 : closed], item[closed + 1 :]
    tails = _expand(rest)
    return [f"{prefix}{number}{tail}" for number in _numbers(body, item) for tail in tails]


def _numbers(body: str, item: str) -> list[str]:
    """``01-03,07`` as ``01 02 03 07``: the width of the first number of a range is kept."""
    found = []
    for part in body.split(","):
        first, _, last = part.partition("-")
        if not first.isdigit() or not (last or first).isdigit():
            raise DotdbgError(f"SLURM gave a host list dotdbg cannot read: {item!r}")
        found += [str(n).zfill(len(first)) for n in range(int(first), int(last or first) + 1)]
    return found


def srun_argv(job: str, nodes: Sequence[str], argv: Sequence[str]) -> list[str]:
    count = str(len(nodes))
    return [
        _require("srun"),
        f"--jobid={job}",
        "--overlap",
        f"--nodes={count}",
        f"--ntasks={count}",
        "--ntasks-per-node=1",
        f"--nodelist={','.join(nodes)}",
        "--gres=none",
        "--cpus-per-task=1",
        "--kill-on-bad-exit=0",
        "--input=none",
        "--label",
        "--quiet",
        "--job-name=dotdbg",
        "/bin/sh",
        "-c",
        WRAPPER,
        "dotdbg-fanout",
        *found_on_node(argv),
    ]


@dataclass
class _Task:
    """One srun task's node, lines and exit code, as they come in."""

    node: str = ""
    stdout: list[bytes] = field(default_factory=list)
    stderr: list[bytes] = field(default_factory=list)
    partial: dict[str, bytes] = field(default_factory=lambda: {"out": b"", "err": b""})
    returncode: int | None = None


class _Collector:
    """srun's labelled pieces, put back together into each task's lines."""

    def __init__(self) -> None:
        self.tasks: dict[int, _Task] = {}
        self.messages: list[str] = []  # srun's own, not from a task

    def piece(self, stream: str, raw: bytes) -> None:
        label, sep, text = raw.partition(b": ")
        if not sep or not label.strip().isdigit():
            self.messages.append(raw.decode(errors="replace"))
            return
        task = self.tasks.setdefault(int(label), _Task())
        if len(text) == PIECE_BYTES:
            task.partial[stream] += text
            return
        line, task.partial[stream] = task.partial[stream] + text, b""
        if stream == "err":
            task.stderr.append(line)
        else:
            self._stdout_line(task, line)

    def _stdout_line(self, task: _Task, line: bytes) -> None:
        if line.startswith(MARK.encode() + b"node ") and not task.node:
            task.node = line.split(b" ", 1)[1].decode(errors="replace")
            return
        ended = _RC.match(line)
        if ended:
            task.returncode = int(ended.group(2))
            line = ended.group(1)
            if not line:
                return
        task.stdout.append(line)


def run_on_job(
    job: str,
    nodes: Sequence[str],
    argv: Sequence[str],
    timeout: float,
    meanwhile: Callable[[], object] = lambda: None,
) -> list[NodeResult]:
    """Run ``argv`` once on each of ``nodes``; a node silent after ``timeout`` s is timed out.
    ``meanwhile()`` runs once the step is started."""
    deadline = time.monotonic() + timeout
    # a session of its own: a Ctrl-C at the terminal is ours to pass on, not srun's
    srun = spawn.Child(srun_argv(job, nodes, argv), env=_slurm_env(), new_session=True)
    collector = _Collector()
    try:
        meanwhile()
        finished = _read(srun, collector, len(nodes), deadline)
    finally:
        # SIGTERM: srun asks slurmctld to cancel the step (slurmstepd then kills every process
        # of it) and waits for every node to confirm; a node that cannot (stopped, dead) would
        # hold it for ten seconds and more, so srun gets a second, then KILL: the cancel is asked
        srun.stop(END_GRACE)
    return _results(collector, nodes, timed_out=not finished)


def _read(srun: spawn.Child, collector: _Collector, count: int, deadline: float) -> bool:
    """Read until srun ends or every task reported its exit code; False at the deadline."""
    names = dict(zip(srun.streams, ("out", "err"), strict=True))
    buffers = dict.fromkeys(names, b"")
    poller = select.poll()
    for fd in names:
        poller.register(fd, select.POLLIN)
    while srun.open:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        for fd, _ in poller.poll(int(left * 1000) + 1):
            chunk = os.read(fd, 65536)
            if not chunk:
                poller.unregister(fd)
                srun.open.discard(fd)
                os.close(fd)
                chunk = b"\n" if buffers[fd] else b""
            *lines, buffers[fd] = (buffers[fd] + chunk).split(b"\n")
            for line in lines:
                collector.piece(names[fd], line)
        reported = [t for t in collector.tasks.values() if t.returncode is not None]
        if len(reported) == count:
            return True
    return True


def _results(collector: _Collector, nodes: Sequence[str], timed_out: bool) -> list[NodeResult]:
    by_node = {task.node: task for task in collector.tasks.values() if task.node}
    unnamed = [task for task in collector.tasks.values() if not task.node]
    results = []
    for node in nodes:
        task = by_node.get(node) or (unnamed.pop(0) if unnamed else _Task(node))
        messages = [m for m in collector.messages if node in m]
        silent = task.returncode is None
        results.append(
            NodeResult(
                node,
                task.returncode,
                _text(task.stdout),
                "".join(line + "\n" for line in messages) + _text(task.stderr),
                timed_out=silent and timed_out,
            )
        )
    return results


def _text(lines: list[bytes]) -> str:
    return b"".join(line + b"\n" for line in lines).decode(errors="replace")
