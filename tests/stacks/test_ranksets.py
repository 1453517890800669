"""Ranks not seen: which the world size promised, and on which node each was expected."""

from __future__ import annotations

from dotdbg.stacks.ranksets import not_seen
from dotdbg.stacks.record import StackRecord

NODES = ["node1", "node2", "node3"]


def rank(number: int, host: str, world: int | None = 6) -> StackRecord:
    return StackRecord(host, 100 + number, 1, number, None, None, "train.py", "py-spy",
                       world_size=world)  # fmt: skip


def test_ranks_of_a_silent_node_are_named_with_it() -> None:
    seen = [rank(0, "node1"), rank(1, "node1"), rank(2, "node2"), rank(3, "node2")]
    assert not_seen(seen, NODES, ["node3"]) == ["ranks 4-5 not seen: node3 did not answer"]


def test_a_rank_missing_from_a_node_that_answered() -> None:
    seen = [
        rank(0, "node1"),
        rank(1, "node1"),
        rank(2, "node2"),
        rank(4, "node3"),
        rank(5, "node3"),
    ]
    assert not_seen(seen, NODES, []) == ["rank 3 not seen: node2 answered without it"]


def test_without_a_block_layout_the_silent_nodes_are_named() -> None:
    seen = [rank(0, "node2"), rank(1, "node1"), rank(2, "node1"), rank(3, "node2")]  # cyclic
    assert not_seen(seen, NODES, ["node3"]) == ["ranks 4-5 not seen: node3 did not answer"]
    assert not_seen(seen, NODES, []) == [
        "ranks 4-5 not seen (every node answered: exited, or not matching the PATTERN?)"
    ]


def test_nothing_without_a_world_size_or_when_every_rank_is_there() -> None:
    assert not_seen([rank(0, "node1", None)], NODES, ["node3"]) == []
    assert not_seen([rank(n, NODES[n // 2]) for n in range(6)], NODES, []) == []
    assert not_seen([rank(0, "node1", 2)], [], []) == ["rank 1 not seen"]  # --from a file
    assert not_seen([rank(7, "node1", 6)], NODES, []) == [  # a rank beyond the world size
        "ranks 0-5 not seen (every node answered: exited, or not matching the PATTERN?)"
    ]
