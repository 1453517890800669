"""Many processes' stacks merged into one call prefix tree and equivalence classes.

The idea is LLNL STAT's: walk every stack from its outermost frame and share the common start,
so each node of the tree carries the set of processes that pass through it; processes whose
stacks are identical form a class, and one of each class is enough to attach a debugger to.
With several samples a process whose stacks did not change is *stuck*; one whose stacks did is
*moving*, and only the outer part its samples share is merged (STAT's 3D tree, kept simple).

Pure functions of records: the work is done once per distinct stack, not once per process, so
10k ranks that wait in the same place cost little more than one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dotdbg.stackrecord import Frame, StackRecord, Thread

Path = tuple[Frame, ...]  # outermost frame first
Signature = tuple[Path, ...]  # the shown threads of one process


@dataclass(frozen=True)
class StackClass:
    """Processes with identical stacks; ``stuck`` is None with a single sample."""

    members: tuple[StackRecord, ...]  # in rank order, then host and pid
    paths: Signature
    stuck: bool | None = None

    @property
    def representative(self) -> StackRecord:
        return self.members[0]


@dataclass
class TreeNode:
    frame: Frame | None  # None at the root
    members: list[StackRecord] = field(default_factory=list)
    children: dict[Frame, TreeNode] = field(default_factory=dict)
    classes: list[StackClass] = field(default_factory=list)  # those that pass through here


@dataclass(frozen=True)
class Merged:
    root: TreeNode
    classes: tuple[StackClass, ...]  # smallest first: outliers are usually the culprit
    failed: tuple[StackRecord, ...]  # processes that could not be dumped
    samples: int = 1

    @property
    def processes(self) -> int:
        return len(self.root.members) + len(self.failed)

    @property
    def hosts(self) -> list[str]:
        return sorted({m.host for m in self.root.members} | {f.host for f in self.failed})


def order_key(record: StackRecord) -> tuple[bool, int, str, int]:
    return record.rank is None, record.rank or 0, record.host, record.pid


def is_main(thread: Thread, pid: int) -> bool:
    return thread.native_id == pid or thread.name == "MainThread"


def shown_threads(record: StackRecord, all_threads: bool) -> list[Thread]:
    """Every thread with ``all_threads``; else the main thread and the busy ones (an idle main
    thread is often the very one that hangs, in a recv or a lock)."""
    if all_threads:
        return list(record.threads)
    shown = [t for t in record.threads if not t.idle or is_main(t, record.pid)]
    return shown or list(record.threads[:1])


def signature(record: StackRecord, all_threads: bool) -> Signature:
    paths: list[Path] = []
    for thread in shown_threads(record, all_threads):
        path = thread.frames[::-1]
        if path and path not in paths:
            paths.append(path)
    return tuple(paths)


def merge(records: Sequence[StackRecord], all_threads: bool = False) -> Merged:
    """One sample of every process, merged."""
    groups: dict[Signature, list[StackRecord]] = {}
    failed = []
    for record in records:
        if record.error is not None:
            failed.append(record)
        else:
            groups.setdefault(signature(record, all_threads), []).append(record)
    classes = [StackClass(tuple(sorted(m, key=order_key)), sig) for sig, m in groups.items()]
    return _merged(classes, failed, 1)


def merge_samples(samples: Sequence[Sequence[StackRecord]], all_threads: bool = False) -> Merged:
    """Several samples of the same processes: each class is stuck or moving."""
    if len(samples) == 1:
        return merge(samples[0], all_threads)
    history: dict[tuple[str, int], list[StackRecord]] = {}
    for sample in samples:
        for record in sample:
            history.setdefault((record.host, record.pid), []).append(record)
    groups: dict[tuple[bool, Signature], list[StackRecord]] = {}
    failed = []
    for seen in history.values():
        last = seen[-1]
        if last.error is not None:
            failed.append(last)
            continue
        key = _over_time(seen, len(samples), all_threads)
        groups.setdefault(key, []).append(last)
    classes = [
        StackClass(tuple(sorted(m, key=order_key)), sig, stuck)
        for (stuck, sig), m in groups.items()
    ]
    return _merged(classes, failed, len(samples))


def _over_time(seen: list[StackRecord], samples: int, all_threads: bool) -> tuple[bool, Signature]:
    """(stuck, what to merge): the whole stack when it never changed, else the outer part of
    each thread that every sample shares."""
    signatures = [signature(r, all_threads) for r in seen if r.error is None]
    last = signatures[-1]
    if len(signatures) == samples and all(s == last for s in signatures):
        return True, last
    earlier = [_paths_by_thread(r, all_threads) for r in seen[:-1] if r.error is None]
    kept = []
    for thread, path in _paths_by_thread(seen[-1], all_threads).items():
        for paths in earlier:
            path = _common_prefix(path, paths.get(thread, ()))
        if path and path not in kept:
            kept.append(path)
    return False, tuple(kept)


def _paths_by_thread(record: StackRecord, all_threads: bool) -> dict[object, Path]:
    return {(t.native_id, t.id, t.name): t.frames[::-1] for t in shown_threads(record, all_threads)}


def _common_prefix(one: Path, other: Path) -> Path:
    length = 0
    for mine, theirs in zip(one, other, strict=False):
        if mine != theirs:
            break
        length += 1
    return one[:length]


def _merged(classes: list[StackClass], failed: list[StackRecord], samples: int) -> Merged:
    classes.sort(key=lambda c: (len(c.members), order_key(c.representative)))
    root = TreeNode(None)
    for stack_class in classes:
        _insert(root, stack_class)
    return Merged(root, tuple(classes), tuple(sorted(failed, key=order_key)), samples)


def _insert(root: TreeNode, stack_class: StackClass) -> None:
    """Add the class's members to every node its paths pass through, once per node."""
    touched = {id(root): root}
    for path in stack_class.paths:
        node = root
        for frame in path:
            child = node.children.get(frame)
            if child is None:
                child = node.children[frame] = TreeNode(frame)
            node = child
            touched[id(node)] = node
    for node in touched.values():
        node.members.extend(stack_class.members)
        node.classes.append(stack_class)
