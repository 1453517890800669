"""A summary as the lines ``dotdbg errtrace`` prints on stderr. Pure.

Paths and command lines come from the traced program: each goes through ``dotdbg.visible``.
"""

from __future__ import annotations

from collections import Counter

from dotdbg.errtrace.summary import Group, Summary
from dotdbg.visible import one_line

PATHS_PER_ERROR = 3


def lines(summary: Summary, show_all: bool) -> list[str]:
    ended = "" if summary.exit_code is None else f"; it exited with {summary.exit_code}"
    out = [
        f"errtrace: {summary.failures} failing system calls in {len(summary.processes)} "
        f"process(es) of {one_line(summary.command)}{ended}"
    ]
    if summary.likely:
        out.append("most likely:")
        out += [f"  {_group_line(each)}" for each in summary.likely]
    if show_all:
        out.append("every group (error, path, process):")
        out += [f"  {_group_line(each)}" for each in summary.groups]
    else:
        out.append("all failures by error (--all lists every group):")
        out += [f"  {line}" for line in _by_error(summary.groups)]
    if summary.trace:
        out.append(f"the whole trace: {one_line(summary.trace)}")
    return out


def _group_line(each: Group) -> str:
    where = one_line(each.path) if each.path else f"({'/'.join(each.calls)})"
    span = each.first.time if each.count == 1 else f"{each.first.time}..{each.last.time}"
    lines = (
        f"line {each.first.number}"
        if each.count == 1
        else (f"lines {each.first.number}..{each.last.number}")
    )
    why = f"  [{'; '.join(each.reasons)}]" if each.reasons else ""
    return (
        f"{each.errno} {where}  {'/'.join(each.calls)} x{each.count}, pid {each.pid}, "
        f"{span} ({lines}){why}"
    )


def _by_error(groups: list[Group]) -> list[str]:
    counts: Counter[str] = Counter()
    paths: dict[str, Counter[str]] = {}
    for each in groups:
        counts[each.errno] += each.count
        paths.setdefault(each.errno, Counter())[each.path or f"({'/'.join(each.calls)})"] += (
            each.count
        )
    out = []
    for errno, count in counts.most_common():
        top = paths[errno].most_common(PATHS_PER_ERROR)
        shown = ", ".join(f"{one_line(path)} x{n}" for path, n in top)
        more = len(paths[errno]) - len(top)
        out.append(f"{errno} x{count}: {shown}" + (f" and {more} more" if more > 0 else ""))
    return out
