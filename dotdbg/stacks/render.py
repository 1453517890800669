"""A merged tree as lines of text: the prefix tree, then the classes, then what failed.

The same lines are printed plain (pipes) or styled with rich (a terminal). A chain of frames
every process below passes through alike is folded to its ends unless ``full`` is asked for;
a class lists only the frames where it parts from the others, innermost first as py-spy
prints them (the first line is where it waits).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from dotdbg.stacks import ranksets, states
from dotdbg.stacks.cxxnames import cut
from dotdbg.stacks.merge import Merged, StackClass, TreeNode
from dotdbg.stacks.record import Frame, StackRecord, title
from dotdbg.visible import one_line

TYPE_CHECKING = False  # typing costs milliseconds of every start; mypy knows this name
if TYPE_CHECKING:
    from rich.text import Text

FOLD_ABOVE = 4  # a chain of more frames than this shows its first one and its last two
_PYTHON_LIB = re.compile(r"/lib/python\d[\d.]*t?/(.+)$")


@dataclass(frozen=True)
class Line:
    """One line of the report and its kind (its colour on a terminal)."""

    text: str
    kind: str  # "head", "frame", "fold", "section", "class", "note", "error"
    note: str = ""  # the processes a frame holds, shown after it


def short_file(path: str | None) -> str:
    """``torch/distributed/distributed_c10d.py`` rather than the whole site-packages path."""
    if not path:
        return "?"
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in path:
            return path.rsplit(marker, 1)[1]
    found = _PYTHON_LIB.search(path)
    return found.group(1) if found else path.rsplit("/", 1)[-1]


def frame_text(frame: Frame) -> str:
    where = short_file(frame.file)
    if frame.line is not None:
        where += f":{frame.line}"
    function = cut(frame.function) if frame.native else frame.function
    return f"{function} ({where})"


def members_note(members: Sequence[StackRecord]) -> str:
    return f"{_count(len(members), 'process', 'es')} · {ranksets.label(members)}"


def _count(number: int, noun: str, plural: str = "s") -> str:
    return f"{number} {noun}{plural * (number != 1)}"


def header(merged: Merged) -> Line:
    text = f"{_count(merged.processes, 'process', 'es')} on {_count(len(merged.hosts), 'host')}"
    text += f", {_count(len(merged.classes), 'class', 'es')}"
    if merged.samples > 1:
        text += f", {merged.samples} samples"
    return Line(text, "head")


def tree_lines(merged: Merged, full: bool = False) -> list[Line]:
    lines: list[Line] = []
    children = list(merged.root.children.values())
    for position, child in enumerate(children):
        last = position == len(children) - 1
        _node_lines(child, merged.root, "", last, full, lines, top=True)
    return lines


def _chain(node: TreeNode) -> list[TreeNode]:
    """``node`` and the single children below it that hold the same processes."""
    chain = [node]
    while len(chain[-1].children) == 1:
        (child,) = chain[-1].children.values()
        if child.count != node.count:  # fewer: some processes branched off
            break
        chain.append(child)
    return chain


def _node_lines(
    node: TreeNode,
    parent: TreeNode,
    indent: str,
    last: bool,
    full: bool,
    lines: list[Line],
    top: bool = False,
) -> None:
    chain = _chain(node)
    if not full and len(chain) > FOLD_ABOVE:
        shown: list[TreeNode | int] = [chain[0], len(chain) - 3, chain[-2], chain[-1]]
    else:
        shown = list(chain)
    branch = "└─ " if last else "├─ "
    below = indent + ("   " if last else "│  ")
    changed = top or node.count != parent.count
    for position, item in enumerate(shown):
        lead = indent + branch if position == 0 else below
        if isinstance(item, int):
            lines.append(Line(f"{lead}⋮ {item} more frames", "fold"))
            continue
        note = members_note(item.members) if position == 0 and changed else ""
        if not item.children:
            note = _leaf_note(item, note)
        lines.append(Line(lead + frame_text(item.frame) if item.frame else lead, "frame", note))
    end = chain[-1]
    kids = list(end.children.values())
    for position, child in enumerate(kids):
        _node_lines(child, end, below, position == len(kids) - 1, full, lines)


def _leaf_note(node: TreeNode, note: str) -> str:
    found = {c.state for c in node.classes}
    flags = ", ".join(state for state in states.NAMES if state in found)
    return f"{note}  [{flags}]".strip() if flags else note


def class_lines(merged: Merged, full: bool = False) -> list[Line]:
    if not merged.classes:
        return []
    lines = [Line(f"Classes, smallest first ({len(merged.classes)}):", "section")]
    for number, stack_class in enumerate(merged.classes, 1):
        lines.extend(_one_class(merged.root, number, stack_class, full))
    return lines


def _one_class(root: TreeNode, number: int, stack_class: StackClass, full: bool) -> list[Line]:
    rep = stack_class.representative
    state = f" · {stack_class.state}" if stack_class.state else ""
    # py-spy is the usual dumper; another one names frames its own way (docs/stacks.md)
    others = sorted({member.source for member in stack_class.members} - {"py-spy"})
    dumped = f" · dumped by {', '.join(others)}" if others else ""
    lines = [
        Line(f"[{number}] {members_note(stack_class.members)}{state}{dumped}", "class"),
        Line(
            f"    representative: pid {rep.pid} on {rep.host}"
            f"{f' (rank {rep.rank})' if rep.rank is not None else ''}: {rep.command}",
            "note",
        ),
    ]
    threads = len(stack_class.paths)
    for number, path in enumerate(stack_class.paths):
        if threads > 1:  # else one thread's frames would run on into the next one's
            name = stack_class.thread_names[number] if stack_class.thread_names else "?"
            lines.append(Line(f"    ── thread {name}", "note"))
        own = _own_frames(root, path, len(stack_class.members), full)
        lines.extend(Line(f"    {frame_text(frame)}", "frame") for frame in reversed(own))
        if len(own) < len(path):
            shared = _count(len(path) - len(own), "outer frame")
            lines.append(Line(f"    ⋮ {shared} shared", "fold"))
    return lines


def _own_frames(
    root: TreeNode, path: tuple[Frame, ...], size: int, full: bool
) -> tuple[Frame, ...]:
    """The frames from where this path parts from other classes (that frame included) inward."""
    if full:
        return path
    node, parted = root, 0
    for depth, frame in enumerate(path):
        node = node.children[frame]
        if node.count > size:
            parted = depth
    return path[parted:]


def failure_lines(failed: Sequence[StackRecord]) -> list[Line]:
    """What could not be dumped, one line per reason."""
    by_reason: dict[str, list[StackRecord]] = {}
    for record in failed:
        by_reason.setdefault(record.error or "?", []).append(record)
    return [
        Line(f"not dumped: {members_note(records)}: {reason}", "error")
        for reason, records in by_reason.items()
    ]


def all_lines(merged: Merged, full: bool = False) -> list[Line]:
    lines = [header(merged), *tree_lines(merged, full)]
    classes = class_lines(merged, full)
    if classes:
        lines += [Line("", "note"), *classes]
    return lines + failure_lines(merged.failed)


def plain(lines: Sequence[Line]) -> str:
    """Every line as one line of text: frames, titles and reasons come from other processes,
    and their control characters are shown as escapes (``visible``)."""
    return "".join(
        one_line(f"{line.text}  {line.note}" if line.note else line.text).rstrip() + "\n"
        for line in lines
    )


_STYLES = {
    "head": "bold",
    "frame": "",
    "fold": "dim",
    "section": "bold underline",
    "class": "bold yellow",
    "note": "dim",
    "error": "red",
}


def styled(lines: Sequence[Line]) -> Text:
    from rich.text import Text

    text = Text()
    for line in lines:
        text.append(one_line(line.text), style=_STYLES[line.kind])
        if line.note:
            text.append("  " + one_line(line.note), style="cyan")
        text.append("\n")
    text.rstrip()
    return text


def dump_text(record: StackRecord) -> str:
    """One process as ``py-spy dump`` shows it, under a title naming its node, pid and rank."""
    lines = [title(record)]
    if record.error is not None:
        lines.append(f"[{record.error}]")
    for thread in record.threads:
        state = "idle" if thread.idle else "active"
        state += "+gil" if thread.gil else ""
        lines.append(f'Thread {thread.native_id or thread.id} ({state}): "{thread.name or ""}"')
        lines += [f"    {frame_text(frame)}" for frame in thread.frames]
    return "\n".join(map(one_line, lines)) + "\n"
