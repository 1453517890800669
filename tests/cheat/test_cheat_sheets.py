"""Parsing one sheet: front matter, entries, line ends, bad input."""

from __future__ import annotations

import time

import pytest

from dotdbg.cheat.sheets import SheetError, decode, parse

GIT_LIKE = """\
---
syntax: bash
tags: [vcs, debugging]
---
# Start a bisect session
git bisect start <bad> <good>

# Mark commits
git bisect good
git bisect bad

# Search history
git log -S '<string>' \\
    -- <path>
"""


def test_front_matter_and_entries() -> None:
    sheet = parse(GIT_LIKE)
    assert sheet.syntax == "bash"
    assert sheet.tags == ["vcs", "debugging"]
    assert sheet.entries == [
        ("Start a bisect session", "git bisect start <bad> <good>", 5),
        ("Mark commits", "git bisect good\ngit bisect bad", 8),
        ("Search history", "git log -S '<string>' \\\n    -- <path>", 12),
    ]


def test_sheet_without_front_matter_is_all_entries() -> None:
    sheet = parse("# list files\nls -la\n")
    assert (sheet.syntax, sheet.tags) == ("", [])
    assert sheet.entries == [("list files", "ls -la", 1)]


def test_empty_file_has_no_entries() -> None:
    assert parse("").entries == []
    assert parse("---\nsyntax: bash\n---\n").entries == []


def test_comment_lines_join_and_command_without_comment_is_kept() -> None:
    sheet = parse("# first line\n# second line\ncmd one\n\ncmd two\n")
    assert sheet.entries == [("first line\nsecond line", "cmd one", 1), ("", "cmd two", 5)]


def test_comment_after_a_command_starts_a_new_entry() -> None:
    sheet = parse("# a\ncmd a\n# b\ncmd b\n")
    assert [entry[:2] for entry in sheet.entries] == [("a", "cmd a"), ("b", "cmd b")]


def test_comment_block_without_command_is_a_heading_and_dropped() -> None:
    assert parse("# Git sheet\n\n\n# real\ngit status\n").entries == [("real", "git status", 4)]


def test_continued_line_keeps_a_hash_line_in_the_command() -> None:
    sheet = parse("# run\npython - <<'EOF' \\\n# not a comment\nEOF\n")
    assert sheet.entries[0][1] == "python - <<'EOF' \\\n# not a comment\nEOF"


def test_indented_hash_is_part_of_a_command() -> None:
    sheet = parse("---\nsyntax: python\n---\n# loop\nfor x in y:\n    # body\n    pass\n")
    assert sheet.entries == [("loop", "for x in y:\n    # body\n    pass", 4)]


@pytest.mark.parametrize("line_end", ["\r\n", "\r"])
def test_crlf_and_cr_line_ends(line_end: str) -> None:
    data = GIT_LIKE.replace("\n", line_end).encode()
    assert parse(decode(data)).entries == parse(GIT_LIKE).entries


def test_bom_is_ignored() -> None:
    assert parse(decode(("\ufeff" + GIT_LIKE).encode())).syntax == "bash"


def test_invalid_utf8_is_an_error() -> None:
    with pytest.raises(SheetError, match="not valid UTF-8"):
        decode(b"# caf\xe9\nls\n")


def test_binary_file_is_an_error() -> None:
    with pytest.raises(SheetError, match="binary"):
        decode(b"\x7fELF\x00\x00")


@pytest.mark.parametrize(
    ("front_matter", "problem"),
    [
        ("syntax: bash\n", "never closed"),
        ("syntax bash\n---\n", "expected 'key: value'"),
        ("tags: [a, b\n---\n", "closing ']'"),
        ("tags: a\n---\n", "'tags' must be a list"),
        ("syntax: bash\nsyntax: sh\n---\n", "appears twice"),
        ("syntax: [a]\n---\n", "'syntax' must be a single word"),
        ("tags: {a: b}\n---\n", "unsupported"),
        ("syntax: 'bash\n---\n", "unbalanced quote"),
        ("dotdbg: plain\n---\n", "'dotdbg' must be a mapping"),
        ("  syntax: bash\n---\n", "expected 'key: value'"),
    ],
)
def test_malformed_front_matter(front_matter: str, problem: str) -> None:
    with pytest.raises(SheetError, match=problem):
        parse("---\n" + front_matter + "# x\nx\n")


def test_front_matter_yaml_variants_cheat_sheets_use() -> None:
    sheet = parse(
        "---\n"
        "# a comment\n"
        "syntax: 'bash'   \n"
        "tags:\n"
        "  - vcs\n"
        '  - "debugging"\n'
        "dotdbg:\n"
        "  picker: skip   # dotdbg's own keys live here\n"
        "---\n"
        "# x\nx\n"
    )
    assert (sheet.syntax, sheet.tags, sheet.extra) == (
        "bash",
        ["vcs", "debugging"],
        {"picker": "skip"},
    )


def test_flow_list_with_spaces_like_the_community_sheets() -> None:
    assert parse("---\ntags: [ compression ]\n---\n").tags == ["compression"]


def test_very_large_sheet_parses_quickly() -> None:
    entry = "# describe step {0} of the work\ncommand --option {0} <file>\n\n"
    text = "---\nsyntax: bash\n---\n" + "".join(entry.format(n) for n in range(50_000))
    start = time.perf_counter()
    sheet = parse(text)
    elapsed = time.perf_counter() - start
    assert len(sheet.entries) == 50_000
    last = ("describe step 49999 of the work", "command --option 49999 <file>", 3 + 3 * 49_999 + 1)
    assert sheet.entries[-1] == last
    assert elapsed < 5  # linear: about 0.2 s here; a quadratic parse would take minutes


@pytest.mark.parametrize(
    ("text", "location"),
    [
        ("---\nsyntax: bash\n# x\nx\n", ":1:1"),  # never closed: where it opens
        ("---\nsyntax: bash\ntags a\n---\n", ":3"),
        ("---\nsyntax: bash\n\ntags: [a, b\n---\n", ":4"),
        ("---\nsyntax: bash\ntags:\n  - ok\n  - 'open\n---\n", ":5"),
        ("---\nsyntax: [a]\n---\n", ":2"),
        ("---\n# comment\ntags: a\n---\n", ":3"),
        ("---\ndotdbg: plain\n---\n", ":2"),
        ("---\ndotdbg:\n  key value\n---\n", ":3"),
    ],
)
def test_front_matter_errors_say_where(text: str, location: str) -> None:
    with pytest.raises(SheetError) as raised:
        parse(text)
    assert raised.value.location == location


@pytest.mark.parametrize(
    ("data", "location"),
    [
        (b"# caf\xe9\nls\n", ":1:6"),
        (b"\xef\xbb\xbf# ok\nls \xff\n", ":2:4"),  # a BOM does not shift the column
        (b"# ok\n\nab\x00c\n", ":3:3"),
    ],
)
def test_undecodable_bytes_say_where(data: bytes, location: str) -> None:
    with pytest.raises(SheetError) as raised:
        decode(data)
    assert raised.value.location == location
