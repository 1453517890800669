"""The generic exec engine: any program that runs a command on a node, given as a template.

``--exec 'kubectl exec {host} -c trainer --'``, ``--exec 'docker exec {host}'`` or
``--exec 'flux exec -r {rank}'`` with ``--nodes 'trainer-[0-3]'``: for each host of the node set,
``{host}`` becomes its name and ``{rank}`` its position (0, 1, …), and dotdbg's own command line
is appended word for word. So the transport must pass its arguments on as they are, as kubectl,
docker, flux, srun, env and nsenter do (ssh joins them into one shell line: use ``--nodes``
without ``--exec`` for ssh).

Every node's transport runs at once, in a session of its own; one still running at the timeout
is ended (TERM, then KILL), and the node-side dotdbg ends its own dumps within their timeout.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass

from dotdbg.errors import DotdbgError
from dotdbg.fanout import NodeResult, found_on_node
from dotdbg.fanout.engine import Engine

FIELDS = ("{host}", "{rank}")
HINT = (
    "e.g. --exec 'kubectl exec {host} -c trainer --', 'docker exec {host}', 'flux exec -r {rank}'"
)
CANNOT_START = "cannot run "
GRACE = 1.0  # seconds between TERM and KILL for a transport that overran


@dataclass(frozen=True)
class ExecTemplate(Engine):
    template: str
    hosts: str
    remote: str | None = None

    def nodes(self) -> list[str]:
        from dotdbg.fanout.ssh import expand

        words(self.template)  # a bad template is refused before anything runs
        return expand(self.hosts)

    def run(self, nodes: Sequence[str], argv: Sequence[str], timeout: float) -> list[NodeResult]:
        command = found_on_node(argv)
        commands = [
            [*node_words(self.template, node, at), *command] for at, node in enumerate(nodes)
        ]
        return run_all(nodes, commands, timeout)

    def problem(self, result: NodeResult, argv: Sequence[str], timeout: float) -> str:
        if result.returncode is None and result.stderr.startswith(CANNOT_START):
            return f"{result.node}: --exec {result.stderr.strip()}"
        return result.problem(argv, timeout)


def words(template: str) -> list[str]:
    """The template's words; a DotdbgError for one that cannot name a node."""
    try:
        found = shlex.split(template)
    except ValueError as error:
        raise DotdbgError(f"--exec {template!r}: {error}", hint=HINT) from None
    if not found:
        raise DotdbgError("--exec names no program", hint=HINT)
    if not any(field in word for word in found for field in FIELDS):
        raise DotdbgError(
            f"--exec {template!r} names no node: it needs {{host}} or {{rank}}", hint=HINT
        )
    return found


def node_words(template: str, node: str, position: int) -> list[str]:
    """The template for one node: a plain replacement, nothing in it is evaluated."""
    return [
        word.replace("{host}", node).replace("{rank}", str(position)) for word in words(template)
    ]


Streams = tuple[list[bytes], list[bytes]]  # what one transport wrote on stdout, on stderr


def run_all(
    nodes: Sequence[str], commands: Sequence[list[str]], timeout: float
) -> list[NodeResult]:
    """Each node's command, all at once; each node's result, in the order of ``nodes``."""
    procs: list[subprocess.Popen[bytes] | str] = [_start(command) for command in commands]
    try:
        output, silent = _read_all(procs, time.monotonic() + timeout)
    finally:
        _end_all(procs)
    return [
        _result(node, proc, output[at], at in silent)
        for at, (node, proc) in enumerate(zip(nodes, procs, strict=True))
    ]


def _start(command: list[str]) -> subprocess.Popen[bytes] | str:
    """The transport's process, or why it could not start."""
    try:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C at the terminal is ours to pass on
        )
    except OSError as error:
        return f"{CANNOT_START}{command[0]}: {error.strerror}"


def _result(
    node: str, proc: subprocess.Popen[bytes] | str, streams: Streams, silent: bool
) -> NodeResult:
    if isinstance(proc, str):
        return NodeResult(node, None, "", proc + "\n")
    out, err = (b"".join(chunks).decode(errors="replace") for chunks in streams)
    if silent:
        return NodeResult(node, None, out, err, timed_out=True)
    code = proc.returncode
    return NodeResult(node, 128 - code if code < 0 else code, out, err)


def _read_all(
    procs: Sequence[subprocess.Popen[bytes] | str], deadline: float
) -> tuple[list[Streams], set[int]]:
    """Every transport's output until each has closed both streams and ended, or the deadline;
    and the positions of those that had not by then."""
    output: list[Streams] = [([], []) for _ in procs]
    with selectors.DefaultSelector() as selector:
        for at, proc in enumerate(procs):
            if not isinstance(proc, str):
                assert proc.stdout is not None and proc.stderr is not None
                selector.register(proc.stdout, selectors.EVENT_READ, (at, 0))
                selector.register(proc.stderr, selectors.EVENT_READ, (at, 1))
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                return output, {key.data[0] for key in selector.get_map().values()}
            for key, _ in selector.select(left):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    output[key.data[0]][key.data[1]].append(chunk)
                else:
                    selector.unregister(key.fileobj)
    silent = set()
    for at, proc in enumerate(procs):
        if isinstance(proc, str):
            continue
        try:  # both streams closed: it has ended, or is about to
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            silent.add(at)
    return output, silent


def _end_all(procs: Sequence[subprocess.Popen[bytes] | str]) -> None:
    """TERM to every transport still running (and what it started), KILL after a grace."""
    started = [proc for proc in procs if not isinstance(proc, str)]
    running = [proc for proc in started if proc.poll() is None]
    for proc in running:
        _signal_group(proc, signal.SIGTERM)
    until = time.monotonic() + GRACE
    for proc in running:
        try:
            proc.wait(max(0.0, until - time.monotonic()))
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait()
    for proc in started:
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def _signal_group(proc: subprocess.Popen[bytes], number: int) -> None:
    try:
        os.killpg(proc.pid, number)
    except ProcessLookupError:
        pass
