from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotdbg.aliases.history import HistoryEntry, history_path, parse_history, read_history
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from tests.alias.realbash import bash_reads_history

STAMPED = (
    b"#1700000000\n"
    b"git status\n"
    b"#1700000005\n"
    b"for f in *.py; do\n"
    b"  echo $f\n"
    b"done\n"
    b"#1700000009\n"
    b"\n"
    b"#1700000010\n"
    b"git status\n"
    b"#1700000011\n"
    b"#17000 not a command but a timestamp to readline\n"
    b"#1700000012\n"
    b"ls\r -la\n"
    b"#comment lines continue the entry\n"
)


def write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "bash_history"
    path.write_bytes(data)
    return path


def test_timestamps_split_entries_and_keep_multi_line_commands(tmp_path: Path) -> None:
    entries = read_history(write(tmp_path, STAMPED))
    assert entries == [
        HistoryEntry("git status", 1700000000),
        HistoryEntry("for f in *.py; do\n  echo $f\ndone", 1700000005),
        HistoryEntry("git status", 1700000010),
        HistoryEntry("ls\r -la\n#comment lines continue the entry", 1700000012),
    ]


def test_stamped_file_reads_as_bash_reads_it(tmp_path: Path) -> None:
    path = write(tmp_path, STAMPED + b"echo caf\xc3\xa9 \xff\xfe end\n")
    assert read_history(path) == bash_reads_history(path, tmp_path)


def test_without_timestamps_every_line_is_a_command(tmp_path: Path) -> None:
    text = "git status\nfor f in *; do\necho $f\ndone\n#not a stamp\n\ngit status\n"
    assert [entry.command for entry in parse_history(text)] == [
        "git status",
        "for f in *; do",
        "echo $f",
        "done",
        "#not a stamp",
        "git status",
    ]
    assert {entry.timestamp for entry in parse_history(text)} == {None}


def test_duplicates_are_kept_for_counting(tmp_path: Path) -> None:
    path = write(tmp_path, b"make\n" * 3 + b"make test\n")
    assert [e.command for e in read_history(path)] == ["make", "make", "make", "make test"]


def test_very_long_line_survives_whole(tmp_path: Path) -> None:
    long_command = "echo " + "x" * 2_000_000
    path = write(tmp_path, f"ls\n{long_command}\npwd\n".encode())
    assert [len(e.command) for e in read_history(path)] == [2, len(long_command), 3]


def test_invalid_utf8_becomes_replacement_characters(tmp_path: Path) -> None:
    path = write(tmp_path, b"cat caf\xe9.txt\nls\n")
    assert [e.command for e in read_history(path)] == ["cat caf\ufffd.txt", "ls"]


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DotdbgError, match=r"no bash history at .*nowhere") as error:
        read_history(tmp_path / "nowhere")
    assert "--history" in error.value.hint


@pytest.mark.parametrize("data", [b"", b"\n\n", b"#1700000000\n#1700000001\n"])
def test_file_without_commands_is_a_clear_error(tmp_path: Path, data: bytes) -> None:
    with pytest.raises(DotdbgError, match="has no commands"):
        read_history(write(tmp_path, data))


def test_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DotdbgError, match="cannot read"):
        read_history(tmp_path)


def test_histfile_wins_over_the_default(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    assert history_path(paths, {}) == tmp_path / ".bash_history"
    assert history_path(paths, {"HISTFILE": "/x/hist"}) == Path("/x/hist")


def test_timestamps_that_start_later_are_not_commands(tmp_path: Path) -> None:
    # HISTTIMEFORMAT was set after a while, with histappend: bash appended stamped entries to an
    # unstamped file. Readline takes the #<epoch> lines as timestamps and joins no lines.
    path = write(
        tmp_path,
        b"ls\nls -la\n#1700000000\ngit status\n#1700000001\nfor x in 1; do\necho\ndone\n",
    )
    entries = read_history(path)
    assert [e.command for e in entries] == [
        "ls", "ls -la", "git status", "for x in 1; do", "echo", "done"
    ]  # fmt: skip
    assert [e.timestamp for e in entries] == [None, None, 1700000000, 1700000001, None, None]
    by_bash = bash_reads_history(path, tmp_path)
    assert [e.command for e in by_bash] == [e.command for e in entries]
    assert [e.timestamp for e in by_bash][2:4] == [1700000000, 1700000001]


COUNTED_SHAPES = [
    STAMPED,
    STAMPED + b"echo caf\xc3\xa9 \xff\xfe end\n",
    b"git status\nfor f in *; do\necho $f\ndone\n#1 a stamp later\n\ngit status\n",
    b"ls\n#1700000000\nls\n",  # HISTTIMEFORMAT set after a while: each line an entry
    b"#1700000000\n" + b"x" * 5000 + b"\n#1700000001\n\n\n#1700000002\nls",  # no final newline
    b"\n\n#1700000000\nls\n",  # starts with an empty line: no timestamps
]


@pytest.mark.parametrize("data", COUNTED_SHAPES)
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 1 << 20])
def test_counting_agrees_with_reading_at_every_block_size(
    data: bytes, chunk: int, tmp_path: Path
) -> None:
    """`dotdbg suggest` counts in blocks (issue 27): the same commands, the same number of
    entries, wherever a block ends."""
    from collections import Counter

    from dotdbg.aliases.history import count_history

    path = write(tmp_path, data)
    commands = [entry.command for entry in read_history(path)]
    assert count_history(path, chunk) == (Counter(commands), len(commands))


@given(st.lists(st.sampled_from(["#17", "#1x", "ls", "", "a b", "\r", "#", "é", "\udcff"])))
@settings(max_examples=300, deadline=None)
def test_counting_agrees_with_reading_on_any_lines(lines: list[str]) -> None:
    import tempfile
    from collections import Counter

    from dotdbg.aliases.history import count_history

    data = "\n".join(lines).encode("utf-8", "surrogateescape")
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), data)
        try:
            commands = [entry.command for entry in read_history(path)]
        except DotdbgError:
            with pytest.raises(DotdbgError, match="has no commands"):
                count_history(path, 5)
            return
        assert count_history(path, 5) == (Counter(commands), len(commands))
