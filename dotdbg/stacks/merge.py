"""Many processes' stacks merged into one call prefix tree and equivalence classes.

The idea is LLNL STAT's: walk every stack from its outermost frame and share the common start,
so each node of the tree carries the set of processes that pass through it; processes whose
stacks are identical form a class, and one of each class is enough to attach a debugger to.
Frames are compared by their merge key (``framekey``: a native frame without its address).

With several samples each class gets a state (``states``): *stuck*, *busy*, *idle* or *moving*;
only the outer part a moving process's samples share is merged (STAT's 3D tree, kept simple).

Pure functions of records: the work is done once per distinct stack, not once per process, so
10k ranks that wait in the same place cost little more than one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from dotdbg.stacks import states
from dotdbg.stacks.framekey import key
from dotdbg.stacks.record import Frame, StackRecord, Thread

Path = tuple[Frame, ...]  # outermost frame first, merge keys
Signature = tuple[Path, ...]  # the shown threads of one process


@dataclass(frozen=True)
class StackClass:
    """Processes with identical stacks; ``state`` is one of ``states.NAMES``, or None when a
    single sample cannot tell."""

    members: tuple[StackRecord, ...]  # in rank order, then host and pid
    paths: Signature
    state: str | None = None
    thread_names: tuple[str, ...] = ()  # one per path, the representative's

    @property
    def representative(self) -> StackRecord:
        return self.members[0]

    @property
    def stuck(self) -> bool | None:
        return None if self.state is None else self.state == states.STUCK


@dataclass
class TreeNode:
    """A frame of the merged tree and the processes that pass through it."""

    frame: Frame | None  # None at the root
    children: dict[Frame, TreeNode] = field(default_factory=dict)
    classes: list[StackClass] = field(default_factory=list)  # those that pass through here
    count: int = 0  # processes that pass through here

    @property
    def members(self) -> list[StackRecord]:
        """Built on demand: a million processes 50 frames deep would be 50 million entries."""
        return [member for each in self.classes for member in each.members]


@dataclass(frozen=True)
class Merged:
    """The prefix tree of every stack and the classes of processes with identical stacks."""

    root: TreeNode
    classes: tuple[StackClass, ...]  # smallest first: outliers are usually the culprit
    failed: tuple[StackRecord, ...]  # processes that could not be dumped
    samples: int = 1

    @property
    def processes(self) -> int:
        return self.root.count + len(self.failed)

    @property
    def hosts(self) -> list[str]:
        found = {m.host for c in self.classes for m in c.members}
        return sorted(found | {f.host for f in self.failed})


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


class _Paths:
    """Each thread's path, built once per distinct thread object: records read from JSON share
    the thread objects of identical stacks (``jsonlines.read``)."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[Thread, Path]] = {}

    def of(self, thread: Thread) -> Path:
        found = self._seen.get(id(thread))
        if found is None:  # the thread is kept in the value, so its id is not reused
            found = self._seen[id(thread)] = (thread, tuple(map(key, reversed(thread.frames))))
        return found[1]


@dataclass(frozen=True)
class _Shown:
    """What a class shows of its stacks."""

    paths: Signature
    names: tuple[str, ...]
    threads: tuple[Thread, ...]


def _shown(record: StackRecord, all_threads: bool, paths: _Paths) -> _Shown:
    kept: dict[Path, tuple[str, Thread]] = {}
    for thread in shown_threads(record, all_threads):
        path = paths.of(thread)
        if path and path not in kept:
            kept[path] = (_thread_name(thread), thread)
    return _Shown(
        tuple(kept), tuple(n for n, _ in kept.values()), tuple(t for _, t in kept.values())
    )


def _thread_name(thread: Thread) -> str:
    number = thread.native_id if thread.native_id is not None else thread.id
    return f"{number or '?'}" + (f" {thread.name!r}" if thread.name else "")


def signature(record: StackRecord, all_threads: bool) -> Signature:
    return _shown(record, all_threads, _Paths()).paths


def merge(records: Sequence[StackRecord], all_threads: bool = False) -> Merged:
    """One sample of every process, merged; a process idle in a known loop is said *idle*."""
    groups: dict[tuple[str | None, Signature], tuple[list[StackRecord], _Shown]] = {}
    failed = []
    paths = _Paths()
    # identical stacks read from JSON share one threads tuple: each is classified once
    by_threads: dict[int, tuple[tuple[Thread, ...], list[StackRecord]]] = {}
    for record in records:
        if record.error is not None:
            failed.append(record)
            continue
        found = by_threads.get(id(record.threads))
        if found is None:
            shown = _shown(record, all_threads, paths)
            state = states.IDLE if states.idle_loop(shown.threads) else None
            members = groups.setdefault((state, shown.paths), ([], shown))[0]
            found = by_threads[id(record.threads)] = (record.threads, members)
        found[1].append(record)
    classes = [
        StackClass(tuple(sorted(m, key=order_key)), sig, state, shown.names)
        for (state, sig), (m, shown) in groups.items()
    ]
    return _merged(classes, failed, 1)


def merge_samples(samples: Sequence[Sequence[StackRecord]], all_threads: bool = False) -> Merged:
    """Several samples of the same processes: each class is stuck, busy, idle or moving."""
    if len(samples) == 1:
        return merge(samples[0], all_threads)
    history: dict[tuple[str, int], list[StackRecord]] = {}
    for sample in samples:
        for record in sample:
            history.setdefault((record.host, record.pid), []).append(record)
    groups: dict[tuple[str, Signature], list[StackRecord]] = {}
    names: dict[tuple[str, Signature], tuple[str, ...]] = {}
    failed = []
    paths = _Paths()
    for seen in history.values():
        last = seen[-1]
        if last.error is not None:
            failed.append(last)
            continue
        state, shown = _over_time(seen, len(samples), all_threads, paths)
        groups.setdefault((state, shown.paths), []).append(last)
        names.setdefault((state, shown.paths), shown.names)
    classes = [
        StackClass(tuple(sorted(m, key=order_key)), sig, state, names[(state, sig)])
        for (state, sig), m in groups.items()
    ]
    return _merged(classes, failed, len(samples))


def _over_time(
    seen: list[StackRecord], samples: int, all_threads: bool, paths: _Paths
) -> tuple[str, _Shown]:
    """(state, what to merge): the whole stack when it never changed, else the outer part of
    each thread that every sample shares."""
    dumped = [r for r in seen if r.error is None]
    shown = [_shown(r, all_threads, paths) for r in dumped]
    last = shown[-1]
    if len(dumped) == samples and all(s.paths == last.paths for s in shown):
        return states.unchanged([s.threads for s in shown]), last
    earlier = [_paths_by_thread(r, all_threads, paths) for r in dumped[:-1]]
    kept: dict[Path, str] = {}
    for thread in shown_threads(dumped[-1], all_threads):
        path = paths.of(thread)
        for others in earlier:
            path = _common_prefix(path, others.get(_thread_id(thread), ()))
        if path and path not in kept:
            kept[path] = _thread_name(thread)
    return states.MOVING, _Shown(tuple(kept), tuple(kept.values()), ())


def _thread_id(thread: Thread) -> tuple[int | None, int | None, str | None]:
    return thread.native_id, thread.id, thread.name


def _paths_by_thread(record: StackRecord, all_threads: bool, paths: _Paths) -> dict[object, Path]:
    return {_thread_id(t): paths.of(t) for t in shown_threads(record, all_threads)}


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
    """Add the class to every node its paths pass through, once per node."""
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
        node.count += len(stack_class.members)
        node.classes.append(stack_class)
