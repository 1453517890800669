"""A merged tree as JSON and as Graphviz DOT (STAT draws its trees the same way: frames as
boxes, the processes that pass on each edge)."""

from __future__ import annotations

from collections.abc import Iterator

from dotdbg.stacks import ranksets, states
from dotdbg.stacks.cxxnames import cut
from dotdbg.stacks.merge import Merged, StackClass, TreeNode
from dotdbg.stacks.record import Frame, StackRecord
from dotdbg.stacks.render import short_file

TYPE_CHECKING = False  # typing costs milliseconds of every start; mypy knows this name
if TYPE_CHECKING:
    from typing import Any


def _who(record: StackRecord) -> dict[str, Any]:
    return {"host": record.host, "pid": record.pid, "rank": record.rank}


def _frame_json(frame: Frame) -> dict[str, Any]:
    return {
        "function": frame.function,
        "file": frame.file,
        "line": frame.line,
        "native": frame.native,
    }


def _node_json(node: TreeNode) -> dict[str, Any]:
    out: dict[str, Any] = _frame_json(node.frame) if node.frame else {}
    out["count"] = node.count
    out["label"] = ranksets.label(node.members, limit=None)
    out["processes"] = [_who(m) for m in node.members]
    out["children"] = [_node_json(child) for child in node.children.values()]
    return out


def _class_json(stack_class: StackClass) -> dict[str, Any]:
    return {
        "size": len(stack_class.members),
        "label": ranksets.label(stack_class.members, limit=None),
        "ranks": sorted({m.rank for m in stack_class.members if m.rank is not None}),
        "representative": _who(stack_class.representative),
        "stuck": stack_class.stuck,
        "state": stack_class.state,
        "processes": [_who(m) for m in stack_class.members],
        "sources": sorted({m.source for m in stack_class.members}),  # py-spy, pystack, gdb
        # innermost first, as in the records
        "threads": [[_frame_json(f) for f in reversed(path)] for path in stack_class.paths],
    }


def to_json(merged: Merged, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "processes": merged.processes,
        "hosts": merged.hosts,
        "samples": merged.samples,
        "classes": [_class_json(c) for c in merged.classes],
        "tree": _node_json(merged.root),
        "not_dumped": [{**_who(r), "error": r.error} for r in merged.failed],
        **(extra or {}),
    }


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def to_dot(merged: Merged) -> str:
    lines = [
        "digraph stacks {",
        '  node [shape=box, fontname="monospace", fontsize=10];',
        '  edge [fontname="monospace", fontsize=9];',
        f"  n0 [label={_quote(f'{merged.processes} processes')}, shape=ellipse];",
    ]
    lines += _dot_edges(merged.root, "n0", iter(range(1, 1 << 62)))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_edges(node: TreeNode, name: str, ids: Iterator[int]) -> list[str]:
    lines = []
    for child in node.children.values():
        assert child.frame is not None
        child_name = f"n{next(ids)}"
        function = cut(child.frame.function) if child.frame.native else child.frame.function
        label = f"{function}\n{short_file(child.frame.file)}"
        if child.frame.line is not None:
            label += f":{child.frame.line}"
        attributes = _leaf_colour(child) if not child.children else ""
        lines.append(f"  {child_name} [label={_quote(label)}{attributes}];")
        edge = f"{child.count}: {ranksets.label(child.members)}"
        lines.append(f"  {name} -> {child_name} [label={_quote(edge)}];")
        lines += _dot_edges(child, child_name, ids)
    return lines


_COLOURS = {  # the first state a leaf's classes have, in this order, colours it
    states.STUCK: ", color=red, penwidth=2",
    states.BUSY: ", color=darkorange, penwidth=2",
    states.MOVING: ", color=darkgreen",
    states.IDLE: ", color=grey",
}


def _leaf_colour(node: TreeNode) -> str:
    found = {c.state for c in node.classes}
    return next((colour for state, colour in _COLOURS.items() if state in found), "")
