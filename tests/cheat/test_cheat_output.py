"""Pure output helpers: colour decision, match spans, placeholders; and a parser round trip."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dotdbg.cheat.fast import compile_term, match_spans, paint, placeholder_spans, use_color
from dotdbg.cheat.sheets import parse


@pytest.mark.parametrize(
    ("choice", "tty", "env", "expected"),
    [
        ("auto", True, {}, True),
        ("auto", False, {}, False),
        ("auto", True, {"NO_COLOR": "1"}, False),
        ("auto", True, {"NO_COLOR": ""}, True),  # the spec: set *and not empty*
        ("auto", True, {"TERM": "dumb"}, False),
        ("always", False, {"NO_COLOR": "1"}, True),  # a flag beats the environment
        ("never", True, {}, False),
    ],
)
def test_use_color(choice: str, tty: bool, env: dict[str, str], expected: bool) -> None:
    assert use_color(choice, tty, env) is expected


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("git bisect start <bad> <good>", [(17, 22), (23, 29)]),
        ("cmd 2>&1 < in > out", []),
        ("cat <<EOF", []),
        ("a <b<c> d", [(4, 7)]),
        ("<unclosed", []),
        ("x <_private name>", [(2, 17)]),
    ],
)
def test_placeholder_spans(text: str, spans: list[tuple[int, int]]) -> None:
    assert placeholder_spans(text) == spans


def test_overlapping_matches_merge() -> None:
    matchers = [compile_term("bis", regex=False), compile_term("sect", regex=False)]
    assert match_spans("git bisect bisect", matchers) == [(4, 10), (11, 17)]
    assert match_spans(
        "abcabc", [compile_term("bca", regex=False), compile_term("ab", regex=False)]
    ) == [(0, 5)]


def test_literal_smart_case_spans() -> None:
    assert match_spans("Git git GIT", [compile_term("git", regex=False)]) == [
        (0, 3),
        (4, 7),
        (8, 11),
    ]
    assert match_spans("Git git GIT", [compile_term("GIT", regex=False)]) == [(8, 11)]


def test_paint_keeps_the_text() -> None:
    painted = paint("run <file> fast", "", [compile_term("fast", regex=False)])
    assert painted == "run \x1b[32m<file>\x1b[0m \x1b[1;31mfast\x1b[0m"


# -- a parser round trip over generated sheets -------------------------------------------------
line_text = (
    st.text(
        alphabet=st.characters(
            blacklist_categories=["Cs", "Cc", "Zl", "Zp"], blacklist_characters="\\"
        ),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(lambda text: bool(text))
)
command_line = line_text.filter(lambda text: not text.startswith("#"))
entry = st.tuples(st.lists(line_text, max_size=3), st.lists(command_line, min_size=1, max_size=3))


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine
@given(st.lists(entry, max_size=8))
def test_written_entries_parse_back(entries: list[tuple[list[str], list[str]]]) -> None:
    text = "\n\n".join(
        "\n".join([*(f"# {comment}" for comment in comments), *commands])
        for comments, commands in entries
    )
    parsed = parse(text).entries
    expected = [("\n".join(comments), "\n".join(commands)) for comments, commands in entries]
    assert [(comment, command) for comment, command, _ in parsed] == expected
