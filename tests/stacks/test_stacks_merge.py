"""The pure core: records, py-spy's JSON, rank sets, the prefix tree, classes and renderings."""

from __future__ import annotations

import io
import json
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotdbg.stacks import formats, ranksets, render
from dotdbg.stacks.jsonlines import read
from dotdbg.stacks.merge import merge, merge_samples
from dotdbg.stacks.pyspyjson import threads_from_dump
from dotdbg.stacks.record import (
    Frame,
    RecordError,
    StackRecord,
    Thread,
    from_json,
    write,
)

DATA = Path(__file__).parent / "data"


def frames(*names: str) -> tuple[Frame, ...]:
    """Innermost first, as records hold them; a function is always on the same line."""
    return tuple(Frame(name, f"/src/{name}.py", 10) for name in names)


def proc(
    pid: int, rank: int | None, *names: str, host: str = "h1", idle: bool = True
) -> StackRecord:
    main = Thread("MainThread", 1, pid, idle, False, frames(*names))
    return StackRecord(host, pid, 1, rank, rank, None, "train.py", "py-spy", (main,))


def job(ranks: int = 8, odd: int = 7) -> list[StackRecord]:
    """Ranks wait in all_reduce, except ``odd``, which is still loading data."""
    waiting = ("all_reduce", "train_step", "main", "<module>")
    loading = ("recv", "load_batch", "train_step", "main", "<module>")
    return [proc(100 + r, r, *(loading if r == odd else waiting)) for r in range(ranks)]


# -- records --------------------------------------------------------------------------------
def test_records_round_trip_through_json_lines() -> None:
    records = job(3)
    out = io.StringIO()
    write(records, out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["threads"][0]["frames"][0] == {
        "function": "all_reduce",
        "file": "/src/all_reduce.py",
        "line": 10,
        "native": False,
    }
    assert list(read(lines)) == records


def test_a_bad_line_names_its_number() -> None:
    with pytest.raises(RecordError, match=r"^dump.jsonl:2: host is null, not text$"):
        list(read(['{"host": "a", "pid": 1}', '{"pid": 2}'], "dump.jsonl"))


def test_py_spy_json_becomes_threads_main_first() -> None:
    threads = threads_from_dump((DATA / "pyspy_dump.json").read_text())
    assert [t.name for t in threads] == ["MainThread", "pin_memory"]
    main = threads[0]
    assert main.idle and main.gil is False and main.native_id is not None
    assert [(f.function, f.line, f.native) for f in main.frames] == [
        ("hang_here", 7, False),
        ("<module>", 8, False),
    ]


def test_native_frames_are_marked() -> None:
    threads = threads_from_dump((DATA / "pyspy_dump_native.json").read_text())
    functions = [(f.function, f.native) for f in threads[0].frames]
    assert ("clock_nanosleep", True) in functions and ("hang_here", False) in functions
    assert all(f.line is None for f in threads[0].frames if f.native)


# -- rank sets ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("numbers", "text"),
    [
        ([], ""),
        ([3], "3"),
        ([0, 1, 2], "0-2"),
        ([*range(63), *range(64, 128)], "0-62,64-127"),
        ([5, 1, 2, 5], "1-2,5"),
    ],
)
def test_compact_ranges(numbers: list[int], text: str) -> None:
    assert ranksets.compact(numbers) == text


def test_labels_use_ranks_and_host_pid_where_there_is_none() -> None:
    records = [proc(7, None, "f"), proc(9, None, "f", host="h2"), proc(5, 3, "f")]
    assert ranksets.label(records) == "rank 3 + h1:7 h2:9"
    many = [proc(pid, None, "f") for pid in range(10)]
    assert ranksets.label(many, limit=3) == "h1:0,1,2 +7 more"


# -- merging --------------------------------------------------------------------------------
def test_classes_are_smallest_first_with_a_representative() -> None:
    merged = merge(job(8, odd=5))
    assert [(ranksets.label(c.members), c.representative.pid) for c in merged.classes] == [
        ("rank 5", 105),
        ("ranks 0-4,6-7", 100),
    ]
    (module,) = merged.root.children.values()
    assert len(module.members) == 8


def test_identical_stacks_on_different_lines_are_different_classes() -> None:
    records = job(2, odd=9)
    moved = records[1].threads[0]
    shifted = replace(moved, frames=(replace(moved.frames[0], line=99), *moved.frames[1:]))
    records[1] = records[1]._replace(threads=(shifted,))
    assert len(merge(records).classes) == 2


def test_idle_threads_fold_unless_asked() -> None:
    record = job(1)[0]
    extra = Thread("pin_memory", 2, 999, True, False, frames("wait", "run"))
    record = record._replace(threads=(*record.threads, extra))
    assert len(merge([record]).classes[0].paths) == 1  # the idle main thread stays
    assert len(merge([record], all_threads=True).classes[0].paths) == 2


def test_failed_dumps_are_kept_apart() -> None:
    denied = job(1)[0]._replace(pid=555, threads=(), error="denied: ptrace refused")
    merged = merge([*job(2), denied])
    assert merged.processes == 3 and merged.failed == (denied,)
    (line,) = render.failure_lines(merged.failed)
    assert line.text == "not dumped: 1 process · rank 0: denied: ptrace refused"


def test_samples_tell_stuck_from_moving() -> None:
    first = job(4, odd=3)
    second = [*first[:3], proc(103, 3, "parse", "load_batch", "train_step", "main", "<module>")]
    merged = merge_samples([first, second, [*first[:3], first[3]]])
    assert {ranksets.label(c.members): c.stuck for c in merged.classes} == {
        "rank 3": False,
        "ranks 0-2": True,
    }
    moving = merged.classes[0]
    # only what every sample shares is merged
    assert [f.function for f in moving.paths[0]] == ["<module>", "main", "train_step", "load_batch"]


# -- rendering ------------------------------------------------------------------------------
def test_tree_text_folds_long_chains_and_names_the_branches() -> None:
    deep = ("all_reduce", *(f"layer{i}" for i in range(8)), "main", "<module>")
    records = [proc(100 + r, r, *deep) for r in range(3)] + [proc(200, 3, "recv", *deep[1:])]
    text = render.plain(render.all_lines(merge(records)))
    assert text.startswith(
        "4 processes on 1 host, 2 classes\n└─ <module> (<module>.py:10)  4 processes · ranks 0-3\n"
    )
    assert "   ⋮ 7 more frames\n" in text
    assert "├─ recv (recv.py:10)  1 process · rank 3" in text
    assert "└─ all_reduce (all_reduce.py:10)  3 processes · ranks 0-2" in text
    full = render.plain(render.all_lines(merge(records), full=True))
    assert "⋮ 7 more frames" not in full and "layer3 (layer3.py:" in full


def test_a_class_shows_the_frames_where_it_parts_from_the_others() -> None:
    text = render.plain(render.class_lines(merge(job(4, odd=3))))
    assert text.splitlines()[:6] == [
        "Classes, smallest first (2):",
        "[1] 1 process · rank 3",
        "    representative: pid 103 on h1 (rank 3): train.py",
        "    recv (recv.py:10)",
        "    load_batch (load_batch.py:10)",
        "    train_step (train_step.py:10)",
    ]


def test_a_class_dumped_by_another_tool_than_py_spy_says_which() -> None:
    records = job(4, odd=3)
    records[3] = records[3]._replace(source="pystack")
    text = render.plain(render.class_lines(merge(records)))
    assert text.splitlines()[1] == "[1] 1 process · rank 3 · dumped by pystack"
    assert "[2] 3 processes · ranks 0-2\n" in text
    assert formats.to_json(merge(records))["classes"][0]["sources"] == ["pystack"]


def test_json_and_dot_carry_the_same_tree(tmp_path: Path) -> None:
    merged = merge(job(4, odd=3))
    report = formats.to_json(merged)
    assert [c["ranks"] for c in report["classes"]] == [[3], [0, 1, 2]]
    assert report["tree"]["count"] == 4
    dot = formats.to_dot(merged)
    assert 'n0 -> n1 [label="4: ranks 0-3"];' in dot
    assert '[label="1: rank 3"]' in dot and '[label="3: ranks 0-2"]' in dot
    done = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "<svg" in done.stdout, done.stderr


def test_all_threads_of_a_class_are_told_apart() -> None:
    """Each thread's frames under its own line, not run together (issue 26.4)."""
    record = job(1)[0]
    extra = Thread("pin_memory", 2, 999, True, False, frames("wait", "run"))
    record = record._replace(threads=(*record.threads, extra))
    text = render.plain(render.class_lines(merge([record], all_threads=True)))
    assert text.splitlines()[3:] == [
        "    ── thread 100 'MainThread'",
        "    all_reduce (all_reduce.py:10)",
        "    train_step (train_step.py:10)",
        "    main (main.py:10)",
        "    <module> (<module>.py:10)",
        "    ── thread 999 'pin_memory'",
        "    wait (wait.py:10)",
        "    run (run.py:10)",
    ]
    alone = render.plain(render.class_lines(merge([record])))
    assert "── thread" not in alone  # one thread shown: nothing to tell apart


HOSTILE = st.sampled_from([',"threads":[', '],"error":', "{", "[", '"', "\\", "\x1b]52;c;"])
TEXT = st.lists(st.one_of(HOSTILE, st.text(max_size=5)), max_size=4).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    commands=st.lists(TEXT, min_size=1, max_size=4),
    errors=st.lists(st.one_of(st.none(), TEXT), min_size=1, max_size=4),
    function=TEXT,
)
def test_reading_identical_stacks_once_changes_no_record(
    commands: list[str], errors: list[str | None], function: str
) -> None:
    """The reader parses each distinct threads text once; whatever the strings hold, every
    record reads back as it was written, as a whole-line parse reads it."""
    thread = Thread("MainThread", 1, 5, True, None, (Frame(function, "/a.py", 3),))
    records = [
        StackRecord("h", pid, 1, pid, 0, None, command, "py-spy", () if error else (thread,), error)
        for pid, (command, error) in enumerate(zip(commands * 2, errors * 2, strict=False))
    ]
    out = io.StringIO()
    write(records, out)
    lines = out.getvalue().splitlines()
    assert list(read(lines)) == records == [from_json(line) for line in lines]


@pytest.mark.parametrize(
    "line",
    [
        # a "threads" in a nested object is not the record's: the whole line decides
        '{"host":"a","pid":1,"extra":{"x":0,"threads":[{"frames":[]}],"error":null}}',
        '{"host":"a","pid":1,"threads":[],"threads":[{"name":"T"}],"error":null}',
        '{"host":"a","pid":1,"command":"[","threads":[{"name":"T"}],"error":null}',
    ],
)
def test_the_fast_reader_agrees_with_a_whole_line_parse(line: str) -> None:
    assert list(read([line])) == [from_json(line)]
