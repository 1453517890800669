"""Compact names for sets of processes: ``ranks 0-62,64-127``, ``node2:4711,4712`` without a rank.

Hand-written rather than ClusterShell's RangeSet: formatting 10k ranks took RangeSet 29 ms
(it sorts strings), this 2 ms, and a merge formats one set per tree node.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from dotdbg.stacks.record import StackRecord


def compact(numbers: Iterable[int]) -> str:
    """``0-62,64-127`` for those numbers, in ascending order, each once."""
    ordered = sorted(set(numbers))
    if not ordered:
        return ""
    runs = []
    start = previous = ordered[0]
    for number in ordered[1:]:
        if number != previous + 1:
            runs.append(_run(start, previous))
            start = number
        previous = number
    runs.append(_run(start, previous))
    return ",".join(runs)


def _run(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


def label(records: Sequence[StackRecord], limit: int | None = 8) -> str:
    """Ranks as ranges, then ``host:pid,pid`` for processes without a rank.

    With ``limit``, at most that many pids are named and a ``+N more`` counts the rest.
    """
    ranks = [record.rank for record in records if record.rank is not None]
    parts = []
    if ranks:
        parts.append(("rank " if len(set(ranks)) == 1 else "ranks ") + compact(ranks))
    rankless = [record for record in records if record.rank is None]
    if rankless:
        parts.append(_pids_by_host(rankless, limit))
    return " + ".join(parts)


def _pids_by_host(records: Sequence[StackRecord], limit: int | None) -> str:
    by_host: dict[str, list[int]] = {}
    for record in records:
        by_host.setdefault(record.host, []).append(record.pid)
    named = 0
    parts = []
    for host, pids in sorted(by_host.items()):
        room = len(pids) if limit is None else max(0, limit - named)
        if room == 0:
            break
        shown = sorted(pids)[:room]
        named += len(shown)
        parts.append(f"{host}:{','.join(map(str, shown))}")
    text = " ".join(parts)
    rest = len(records) - named
    return f"{text} +{rest} more" if rest else text


def not_seen(
    records: Sequence[StackRecord], nodes: Sequence[str], unanswered: Sequence[str]
) -> list[str]:
    """One line per group of ranks the job's world size promised but no record shows, naming
    the node each was expected on where the layout tells it, and whether that node answered.

    ``nodes`` is the job's node list in the engine's order; with ranks placed in blocks of the
    same size in that order (srun's and torchrun's default), the block of a rank names its node.
    """
    world = max((r.world_size for r in records if r.world_size), default=0)
    seen = {r.rank for r in records if r.rank is not None}
    lost = [rank for rank in range(world) if rank not in seen]
    if not lost:
        return []
    if not nodes:  # records read from a file: which nodes were asked is not known
        return [f"{_what(lost)} not seen"]
    placed = _block_layout(records, nodes, world)
    if placed is None:
        return [_line(lost, list(unanswered))]
    by_node: dict[str, list[int]] = {}
    for rank in lost:
        by_node.setdefault(placed(rank), []).append(rank)
    return [_line(ranks, [node], node in unanswered) for node, ranks in by_node.items()]


def _block_layout(
    records: Sequence[StackRecord], nodes: Sequence[str], world: int
) -> Callable[[int], str] | None:
    """Rank → node, when the ranks seen sit in equal blocks along ``nodes``; else None."""
    if not nodes or world % len(nodes):
        return None
    size = world // len(nodes)
    for record in records:
        if record.rank is None:
            continue
        if record.rank >= world or nodes[record.rank // size] != record.host:
            return None
    return lambda rank: nodes[rank // size]


def _what(ranks: list[int]) -> str:
    return f"{'rank' if len(ranks) == 1 else 'ranks'} {compact(ranks)}"


def _line(ranks: list[int], nodes: list[str], silent: bool = True) -> str:
    what = f"{_what(ranks)} not seen"
    if not nodes:
        return f"{what} (every node answered: exited, or not matching the PATTERN?)"
    if not silent:
        return f"{what}: {nodes[0]} answered without {'it' if len(ranks) == 1 else 'them'}"
    return f"{what}: {', '.join(nodes)} did not answer"
