"""One command on every host of a list, over ssh, with ClusterShell's fan-out.

Host lists use ClusterShell's node-set syntax (``gpu[01-16]``, ``a,b,c[1-3]``). ssh runs in
batch mode (no password prompt); ``DOTDBG_SSH_OPTIONS`` adds options (``-F file``, ``-i key``),
and ``~/.ssh/config`` applies as usual.

A remote command whose ssh session goes away keeps running on its host unless told: sshd sends
it no signal without a terminal. sshd does start each session's command as the leader of a new
process group, though, so a small sh watchdog runs beside the command and reads the session's
stdin; at its end (ssh was killed, timed out, or dotdbg stopped) it signals the whole group:
the command and everything it started (py-spy), TERM first, KILL once the command has gone
(or after two seconds).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dotdbg.errors import DotdbgError
from dotdbg.fanout import NodeResult, found_on_node
from dotdbg.fanout.engine import Engine

SSH_FAILED = 255
FANOUT = 64  # ssh sessions at once
WATCHDOG = (
    'exec 3<&0; "$@" </dev/null & c=$!; '
    "( trap '' TERM; while read -r _ <&3; do :; done; kill -TERM 0; i=0; "
    "while kill -0 $c 2>/dev/null && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done; "
    "kill -KILL 0 ) "
    ">/dev/null 2>&1 & w=$!; exec 3<&-; wait $c; rc=$?; kill -KILL $w 2>/dev/null; exit $rc"
)


@dataclass(frozen=True)
class SshHosts(Engine):
    """The hosts of a ClusterShell node set, over ssh; every process of the user's there."""

    hosts: str
    remote: str | None = None
    ssh_options: str | None = None

    def nodes(self) -> list[str]:
        return expand(self.hosts)

    def run(self, nodes: Sequence[str], argv: Sequence[str], timeout: float) -> list[NodeResult]:
        return run_on_nodes(nodes, argv, timeout, self.ssh_options)

    def problem(self, result: NodeResult, argv: Sequence[str], timeout: float) -> str:
        return ssh_problem(result) or result.problem(argv, timeout)


def expand(nodeset: str) -> list[str]:
    """The hosts of a node set; a DotdbgError that says what is wrong with a bad one."""
    from ClusterShell.NodeSet import NodeSet, NodeSetParseError, RangeSetParseError

    try:
        nodes = list(NodeSet(nodeset))
    except (NodeSetParseError, RangeSetParseError) as error:
        raise DotdbgError(
            f"--nodes {nodeset!r} is not a host list: {error}",
            hint="hosts separated by commas, ranges in brackets: 'gpu[01-16]', 'a,b,c[1-3]'",
        ) from None
    if not nodes:
        raise DotdbgError("--nodes names no host", hint="e.g. --nodes 'gpu[01-16]'")
    return nodes


def chosen_options(given: str | None = None) -> str:
    """``given``, else ``DOTDBG_SSH_OPTIONS``: the ssh options for every host (push's too)."""
    return os.environ.get("DOTDBG_SSH_OPTIONS", "") if given is None else given


def remote_command(argv: Sequence[str]) -> str:
    return shlex.join(["sh", "-c", WATCHDOG, "dotdbg-fanout", *found_on_node(argv)])


def run_on_nodes(
    nodes: Sequence[str], argv: Sequence[str], timeout: float, ssh_options: str | None = None
) -> list[NodeResult]:
    """Run ``argv`` on every host; one that has not finished after ``timeout`` s is timed out."""
    from ClusterShell.NodeSet import NodeSet
    from ClusterShell.Task import task_self

    task = task_self()
    options = chosen_options(ssh_options)
    if options:
        task.set_info("ssh_options", options)
    task.set_info("fanout", FANOUT)
    task.set_info("connect_timeout", max(1, int(timeout)))
    worker = task.shell(
        remote_command(argv), nodes=NodeSet.fromlist(nodes), timeout=timeout, stderr=True
    )
    try:
        task.run()
        timed_out = set(worker.iter_keys_timeout())
        return [_result(worker, node, node in timed_out) for node in nodes]
    finally:
        task.abort(kill=True)  # ends every ssh still running, so each watchdog ends its command


def _result(worker: Any, node: str, timed_out: bool) -> NodeResult:
    try:
        returncode = None if timed_out else worker.node_retcode(node)
    except KeyError:  # never finished: the run was stopped
        returncode = None
    return NodeResult(
        node,
        returncode,
        _text(worker.node_buffer(node)),
        _text(worker.node_error(node)),
        timed_out=timed_out,
    )


def _text(raw: bytes | None) -> str:
    return raw.decode(errors="replace") + "\n" if raw else ""


def ssh_problem(result: NodeResult) -> str:
    """ssh's own failure (cannot connect, refused key), else ""."""
    if result.returncode != SSH_FAILED:
        return ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    return f"{result.node}: ssh failed: {lines[-1] if lines else 'no message'}"
