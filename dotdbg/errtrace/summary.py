"""Failed calls grouped by error, path and process, and the few that most likely explain a
failure ranked first. Pure: failures and the program's own words in, groups and text out.

What ranks a group up: an error that stops a program by itself (no space, a read-only file
system, an I/O error, no file descriptors left), a refusal (EACCES, EPERM) on a path, a path or
an error text the program then printed, and being the last failure of a process that went on
to fail. Errors that programs expect and handle (EAGAIN, ENOTTY from isatty, ECHILD...) rank
down. ENOENT alone ranks nothing: every Python start-up misses hundreds of files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from dotdbg.errtrace.parse import Exit, Failure

FATAL = frozenset({"ENOSPC", "EDQUOT", "EROFS", "EIO", "EFBIG", "EMFILE", "ENFILE", "ENOMEM"})
REFUSED = frozenset({"EACCES", "EPERM"})
EXPECTED = frozenset(
    {"EAGAIN", "EINTR", "ENOTTY", "ECHILD", "ESPIPE", "EINPROGRESS", "ENXIO", "ENODATA"}
    | {"ERESTARTSYS", "ERESTARTNOHAND", "ERESTARTNOINTR", "ERESTART_RESTARTBLOCK"}
)
# what a call answers in the normal course of things: readlink on a file that is no symlink
EXPECTED_FROM = frozenset({("readlink", "EINVAL"), ("readlinkat", "EINVAL")})
LIKELY_AT_MOST = 5
LIKELY_SCORE = 2


@dataclass
class Group:
    errno: str
    text: str
    path: str | None
    pid: int
    first: Failure
    last: Failure
    calls: list[str] = field(default_factory=list)
    count: int = 0
    score: int = 0
    reasons: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {
            "errno": self.errno,
            "text": self.text,
            "path": self.path,
            "pid": self.pid,
            "calls": self.calls,
            "count": self.count,
            "first": {"line": self.first.number, "time": self.first.time},
            "last": {"line": self.last.number, "time": self.last.time},
            "why": self.reasons,
        }


def group(failures: list[Failure]) -> list[Group]:
    groups: dict[tuple[str, str | None, int], Group] = {}
    for failure in failures:
        key = (failure.errno, failure.path, failure.pid)
        found = groups.get(key)
        if found is None:
            found = groups[key] = Group(
                failure.errno, failure.text, failure.path, failure.pid, failure, failure
            )
        found.last = failure
        found.count += 1
        if failure.call not in found.calls:
            found.calls.append(failure.call)
    return list(groups.values())


def rank(groups: list[Group], exits: list[Exit], output: str) -> list[Group]:
    """The groups that most likely explain the failure, best first; scores set on all."""
    failed_pids = {e.pid for e in exits if e.code != 0}
    last_of: dict[int, int] = {}
    for each in groups:
        last_of[each.pid] = max(last_of.get(each.pid, 0), each.last.number)
    for each in groups:
        _score(each, output, each.pid in failed_pids and last_of[each.pid] == each.last.number)
    likely = [each for each in groups if each.score >= LIKELY_SCORE]
    likely.sort(key=lambda each: (-each.score, -each.last.number))
    return likely[:LIKELY_AT_MOST]


def _score(each: Group, output: str, last_before_failing: bool) -> None:
    if each.errno in FATAL:
        each.score += 3
        each.reasons.append(each.text.lower())
    if each.errno in REFUSED and each.path:
        each.score += 2
        each.reasons.append("refused")
    if each.path and _mentions(output, each.path):
        each.score += 4
        each.reasons.append("the program printed this path")
    elif each.text and each.text in output:
        each.score += 2
        each.reasons.append(f"the program printed {each.text!r}")
    if last_before_failing:
        each.score += 1
        each.reasons.append("the last failure of a process that then failed")
    if each.errno in EXPECTED or any((call, each.errno) in EXPECTED_FROM for call in each.calls):
        each.score -= 5


def _mentions(output: str, path: str) -> bool:
    name = os.path.basename(path.rstrip("/"))
    return path in output or (len(name) >= 4 and name in output)


@dataclass
class Summary:
    command: str
    exit_code: int | None
    failures: int
    processes: list[int]
    likely: list[Group]
    groups: list[Group]
    trace: str | None = None

    def as_json(self) -> dict[str, object]:
        return {
            "command": self.command,
            "exit_code": self.exit_code,
            "failures": self.failures,
            "processes": self.processes,
            "likely": [each.as_json() for each in self.likely],
            "groups": [each.as_json() for each in self.groups],
            "trace": self.trace,
        }


def summarize(
    command: str, exit_code: int | None, failures: list[Failure], exits: list[Exit], output: str
) -> Summary:
    groups = group(failures)
    likely = rank(groups, exits, output)
    pids = sorted({f.pid for f in failures} | {e.pid for e in exits})
    return Summary(command, exit_code, len(failures), pids, likely, groups)
