from __future__ import annotations

import pytest

from dotdbg.aliases.shellwords import (
    command_words,
    ends_open,
    is_assignment,
    operator_at,
    scan_word,
)


@pytest.mark.parametrize(
    ("line", "words", "more"),
    [
        ("git commit -m 'a b'", ["git", "commit", "-m", "'a b'"], False),
        ('echo "x $(ls "a b") y" z', ["echo", '"x $(ls "a b") y"', "z"], False),
        ("ls -l | more", ["ls", "-l"], True),
        ("a\\ b c", ["a\\ b", "c"], False),
        ("diff <(ls a) <(ls b) > out", ["diff", "<(ls a)", "<(ls b)"], True),
        ("echo ${x:-a b} `date +%s`", ["echo", "${x:-a b}", "`date +%s`"], False),
        ("X=1 make # build it", ["X=1", "make"], False),
        ("echo $'it\\'s' done", ["echo", "$'it\\'s'", "done"], False),
        ("cd /tmp && ls", ["cd", "/tmp"], True),
        ("   ", [], False),
    ],
)
def test_command_words(line: str, words: list[str], more: bool) -> None:
    found, has_more = command_words(line)
    assert [line[w.start : w.end] for w in found] == words
    assert has_more == more


@pytest.mark.parametrize(
    ("word", "quoted"),
    [("ls", False), ("\\ls", True), ("'ls'", True), ('"ls"', True), ("l''s", True),
     ("$'ls'", True), ("$(ls)", False), ("ls\\\n", False)],
)  # fmt: skip
def test_quoting_is_what_stops_alias_expansion(word: str, quoted: bool) -> None:
    assert scan_word(word, 0).quoted is quoted


@pytest.mark.parametrize(
    ("text", "operator"),
    [(";;& x", ";;&"), ("&>> f", "&>>"), ("|& y", "|&"), ("<(ls)", ""), ("2>", ""), ("\n", "\n")],
)
def test_longest_operator_wins(text: str, operator: str) -> None:
    assert operator_at(text, 0) == operator


@pytest.mark.parametrize(
    ("word", "expected"),
    [("X=1", True), ("a_b+=x", True), ("arr[2]=x", True), ("1X=2", False), ("=x", False)],
)
def test_assignment_words(word: str, expected: bool) -> None:
    assert is_assignment(word) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("echo 'x", True),
        ('echo "y', True),
        ("echo $(", True),
        ("echo ${x", True),
        ("echo `", True),
        ('echo "$(ls"', True),
        ("echo '\\", True),  # a backslash in single quotes is just a backslash
        ("echo \\", False),  # a trailing backslash quotes what follows, as bash expects
        ("ls -l", False),
        ("sudo ", False),
        ("echo p |", False),
        ("echo # it's", False),
        ("echo $(ls) 'a' \"b\"", False),
    ],
)
def test_a_value_that_ends_inside_a_word(text: str, expected: bool) -> None:
    assert ends_open(text) is expected
