"""Reading JSON Lines fast (issue 27: a million processes): a line as ``record.write`` prints it
is matched whole by one pattern and its threads reused from the line before; every record it
makes is the one the checked whole-line parse makes, and whatever it cannot take is rejected
by the checked way, naming the field and the line."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotdbg.stacks import jsonlines
from dotdbg.stacks.jsonlines import read
from dotdbg.stacks.record import Frame, RecordError, StackRecord, Thread, from_json, write

MAIN = Thread(
    "MainThread", 1, 5, True, None, (Frame("wait", "/a.py", 3), Frame("main", "/a.py", 9))
)
OTHER = Thread("MainThread", 1, 6, False, True, (Frame("recv", None, None, True),))
TEXTS = st.text(max_size=12) | st.sampled_from(['"', "\\", "é", "\x00", "\u2028", "\U0001f600"])
WHOLES = st.integers(-(2**70), 2**70)


def lines_of(records: list[StackRecord]) -> list[str]:
    out = io.StringIO()
    write(records, out)
    return out.getvalue().splitlines()


def checked(lines: list[str]) -> list[StackRecord]:
    return [from_json(line) for line in lines]


identities = st.builds(
    StackRecord,
    host=TEXTS,
    pid=WHOLES,
    ppid=st.none() | WHOLES,
    rank=st.none() | WHOLES,
    local_rank=st.none() | WHOLES,
    launcher=st.none() | TEXTS,
    command=TEXTS,
    source=st.sampled_from(["py-spy", "gdb", ""]) | TEXTS,
    threads=st.sampled_from([(), (MAIN,), (MAIN, OTHER), (OTHER,)]),
    error=st.none() | TEXTS,
    world_size=st.none() | WHOLES,
)


@settings(max_examples=300, deadline=None)
@given(records=st.lists(identities, min_size=1, max_size=6))
def test_the_fast_way_makes_the_checked_records_byte_for_byte(records: list[StackRecord]) -> None:
    lines = lines_of(records)
    expected = checked(lines)
    for found in (list(read(lines)), list(read(line.encode() for line in lines))):
        assert found == expected
        assert [each.to_json() for each in found] == [each.to_json() for each in expected]
        assert [repr(each) for each in found] == [repr(each) for each in expected]


def test_what_record_write_prints_takes_the_fast_way() -> None:
    """The pattern matches every line of a real job's shape (else it would be slow, not wrong)."""
    records = [
        StackRecord(
            f"node{r // 8}", 100 + r, 1, r, r % 8, "torchrun", 'a "b" \\ é', "py-spy", (MAIN,)
        )
        for r in range(16)
    ] + [StackRecord("n", 9, None, None, None, None, "", "gdb", (), "denied: ptrace", 16)]
    reader = jsonlines._Reader()
    matched = [reader._matched(line.encode()) for line in lines_of(records)]
    assert matched == records


def test_identical_threads_are_one_object_and_other_threads_are_not_the_previous() -> None:
    longer = Thread("MainThread", 1, 5, True, None, (*MAIN.frames, Frame("<module>", "/a.py", 1)))
    as_long = Thread("MainThread", 1, 5, True, None, (Frame("wait", "/a.py", 4), MAIN.frames[1]))
    records = [
        StackRecord("h", pid, 1, pid, 0, None, "x", "py-spy", (thread,))
        for pid, thread in enumerate([MAIN, MAIN, longer, MAIN, as_long, MAIN])
    ]
    found = list(read(line.encode() for line in lines_of(records)))
    assert found == records
    assert found[0].threads is found[1].threads is found[3].threads


def canonical(**changes: str) -> bytes:
    """A line as ``record.write`` prints it, with the JSON text of some fields replaced."""
    fields = json.loads(lines_of([StackRecord("h", 1, 1, 0, 0, None, "x", "py-spy", (MAIN,))])[0])
    text = {name: json.dumps(value, separators=(",", ":")) for name, value in fields.items()}
    text.update(changes)
    return ("{" + ",".join(f'"{name}":{value}' for name, value in text.items()) + "}").encode()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (canonical(pid='"x"'), 'pid is "x", not a whole number'),
        (canonical(pid="1.5"), "pid is 1.5, not a whole number"),
        (canonical(pid="null"), "pid is null, not a whole number"),
        (canonical(rank="true"), "rank is true, not a whole number"),
        (canonical(host="null"), "host is null, not text"),
        (canonical(host="7"), "host is 7, not text"),
        (canonical(launcher="false"), "launcher is false, not text"),
        (canonical(command="1"), "command is 1, not text"),
        (canonical(error="5"), "error is 5, not text"),
        (canonical(world_size='"a"'), 'world_size is "a", not a whole number'),
        (canonical(command='"\\q"'), "not JSON: Invalid \\escape"),
        (canonical(command='"a\tb"'), "not JSON: Invalid control character"),
        (canonical(pid="01"), "not JSON: Expecting ',' delimiter"),
        (canonical(world_size="null}x"), "not JSON: Extra data"),
        (
            canonical(threads='[{"frames":[{"function":"f","line":"x"}]}]'),
            'a frame\'s line is "x", not a whole number',
        ),
        (canonical(threads='[{"frames":[{"function":null}]}]'), "a frame's function is null"),
        (canonical(threads="[1]"), "threads is not a list of objects"),
    ],
    ids=lambda value: value.decode(errors="replace")[:70] if isinstance(value, bytes) else "",
)
def test_a_bad_field_in_a_line_of_the_fast_shape_is_rejected_by_name(
    line: bytes, message: str
) -> None:
    """After a good line of the same shape and stack, as in a job's file: line 2 is named."""
    good = canonical()
    for lines in ([good, line], [good.decode(), line.decode()]):
        with pytest.raises(RecordError) as raised:
            list(read(lines, "job.jsonl"))
        assert str(raised.value).startswith(f"job.jsonl:2: {message}"), raised.value


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (canonical().replace(b'"command":"x"', b'"command":"\xff"'), "0xff at column 81"),
        # an encoded surrogate in a stack: json.loads of bytes would have let it through
        (canonical().replace(b'"function":"wait"', b'"function":"\xed\xa0\x80"'), "0xed at column"),
    ],
    ids=["identity", "stack"],
)
def test_a_byte_not_utf8_in_a_line_of_the_fast_shape_is_named(line: bytes, message: str) -> None:
    with pytest.raises(RecordError, match=rf"^f:2: not UTF-8 \(byte {message}"):
        list(read([canonical(), line], "f"))


@pytest.mark.parametrize(
    "line",
    [
        canonical(world_size='null,"extra":[1]'),  # the previous threads, then more than a tail
        canonical(world_size='null,"threads":[]'),  # a second "threads": the last one counts
        canonical(rank='"3"'),  # a rank as text, as environments hold it
        canonical(command='"\\u00e9\\"\\\\\\/\\b\\n"'),
        canonical(error='"\\ud800"'),  # a lone surrogate, as json reads it
        canonical(pid="-0"),
        canonical(pid="12345678901234567890123"),  # beyond the pattern: json reads it whole
        canonical() + b" \t\r",
        canonical(threads="[]"),
        b" " + canonical(),
    ],
    ids=range(10),
)
def test_lines_beside_the_fast_shape_read_as_a_whole_line_parse_reads_them(line: bytes) -> None:
    good = canonical()
    assert list(read([good, line, good])) == checked([good.decode(), line.decode(), good.decode()])
    assert list(read([good.decode(), line.decode(), good.decode()])) == checked(
        [good.decode(), line.decode(), good.decode()]
    )


def test_blank_lines_are_skipped_and_counted() -> None:
    lines = [b"\n", b"", b" \t\r\n", canonical(), b"\x0c\n", canonical(pid='"x"')]
    with pytest.raises(RecordError, match=r"^f:6: pid is"):
        list(read(lines, "f"))
    assert len(list(read(lines[:5]))) == 1
