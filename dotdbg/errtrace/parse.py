"""strace's output (``-f -tt -y -Z -o FILE``) read into failed calls and process exits. Pure.

A line is ``PID HH:MM:SS.ffffff rest``; ``rest`` is a call ``name(args) = -1 ERRNO (text)``,
its two halves when another process interrupted it (``name(args <unfinished ...>`` then
``<... name resumed>args) = -1 …``), an exit (``+++ exited with N +++``, ``+++ killed by SIG
+++``), or a signal (``--- SIGCHLD {…} ---``, ignored).
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass

_HEAD = re.compile(r"(?P<pid>\d+)\s+(?P<time>\d\d:\d\d:\d\d\.\d+)\s+(?P<rest>.*)")
_FAILED = re.compile(
    r"(?P<name>\w+)\((?P<args>.*)\)\s+=\s+(?:-1|\?)\s+(?P<errno>E[A-Z0-9]+)\s+\((?P<text>.*)\)\s*"
)
_UNFINISHED = re.compile(r"(?P<name>\w+)\((?P<args>.*) <unfinished \.\.\.>")
_RESUMED = re.compile(r"<\.\.\. (?P<name>\w+) resumed>(?P<args>.*)")
_EXIT = re.compile(r"\+\+\+ (?:exited with (?P<code>\d+)|killed by (?P<signal>SIG\w+)).*\+\+\+")
# where a path sits in the arguments: first for open, stat, execve...; second, after a
# directory fd, for the *at calls; or written by strace -y after a file descriptor: 3</tmp/x>
_QUOTED = re.compile(r'"(?P<path>(?:[^"\\]|\\.)*)"(?P<cut>\.\.\.)?')
_AT = re.compile(r"(?:AT_FDCWD|-?\d+)(?:<(?P<dir>[^>]*)>)?,\s*(?=\")")
_FD = re.compile(r"-?\d+<(?P<path>[^>]*)>")


@dataclass(frozen=True)
class Failure:
    number: int  # the line of the trace, from 1
    pid: int
    time: str
    call: str
    errno: str
    text: str
    path: str | None


@dataclass(frozen=True)
class Exit:
    pid: int
    code: int | None  # None: killed by ``signal``
    signal: str | None


def read_trace(lines: list[str]) -> tuple[list[Failure], list[Exit]]:
    failures: list[Failure] = []
    exits: list[Exit] = []
    pending: dict[int, str] = {}  # pid -> the first half of an interrupted call
    for number, line in enumerate(lines, 1):
        head = _HEAD.fullmatch(line.rstrip("\n"))
        if head is None:
            continue
        pid, rest = int(head["pid"]), head["rest"]
        unfinished = _UNFINISHED.fullmatch(rest)
        if unfinished is not None:
            pending[pid] = f"{unfinished['name']}({unfinished['args']}"
            continue
        resumed = _RESUMED.fullmatch(rest)
        if resumed is not None:
            start = pending.pop(pid, f"{resumed['name']}(")
            rest = start + resumed["args"]
        failure = _failure(number, pid, head["time"], rest)
        if failure is not None:
            failures.append(failure)
            continue
        ended = _EXIT.fullmatch(rest)
        if ended is not None:
            code = int(ended["code"]) if ended["code"] is not None else None
            exits.append(Exit(pid, code, ended["signal"]))
    return failures, exits


def _failure(number: int, pid: int, time: str, rest: str) -> Failure | None:
    call = _FAILED.fullmatch(rest)
    if call is None:
        return None
    return Failure(
        number,
        pid,
        time,
        call["name"],
        call["errno"],
        call["text"],
        path_of(call["name"], call["args"]),
    )


def path_of(call: str, args: str) -> str | None:
    folder = None
    if call.endswith(("at", "at2")) or call == "statx":
        at = _AT.match(args)
        if at is not None:
            folder, args = at["dir"], args[at.end() :]
    quoted = _QUOTED.match(args)
    if quoted is not None:
        path = _unescape(quoted["path"]) + ("..." if quoted["cut"] else "")
        return os.path.join(folder, path) if folder and not path.startswith("/") else path
    fd = _FD.match(args)
    return fd["path"] if fd is not None else None


def _unescape(text: str) -> str:
    """strace writes bytes it cannot show as \\NNN or \\xNN, and \\" and \\\\."""
    if "\\" not in text:
        return text
    raw: bytes = codecs.escape_decode(text.encode())[0]
    return raw.decode(errors="replace")
