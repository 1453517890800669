"""The lookup rule, smart-case, regex terms, ranking and merge order, on in-memory sheets."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dotdbg.cheat.fast import (
    SEARCH_MODE,
    SHEET_MODE,
    Cheatpath,
    SheetFile,
    lookup,
    merge,
    resolve_sheet,
    suggestions,
)
from dotdbg.cheat.index import with_haystack
from dotdbg.cheat.search import everything, with_tags
from dotdbg.cheat.sheets import parse
from dotdbg.errors import DotdbgError

TYPE_CHECKING = False  # as in dotdbg: mypy knows this name
if TYPE_CHECKING:
    from dotdbg.cheat.index import SheetRecord

PERSONAL = Cheatpath("personal", "/p", readonly=False)
PROJECT = Cheatpath("project", "/w/.cheat", readonly=False)
COMMUNITY = Cheatpath("community", "/c", readonly=True)
RANKS = {"personal": 0, "project": 1, "community": 2}


def sheet_file(
    cheatpath: Cheatpath, name: str, text: str, tags: list[str] | None = None
) -> SheetFile:
    parsed = parse(text)
    record: SheetRecord = (parsed.syntax, tags or [], parsed.entries, [])
    path = f"{cheatpath.directory}/{name}"
    return SheetFile(name, path, cheatpath, RANKS[cheatpath.label], with_haystack(record))


def corpus() -> list[SheetFile]:
    return [
        sheet_file(PERSONAL, "git", "# my bisect helper\ngit bisect start HEAD v1\n"),
        sheet_file(PROJECT, "git", "# project release tags\ngit tag -l 'v*'\n"),
        sheet_file(
            COMMUNITY,
            "git",
            "# start bisecting\ngit bisect start\n\n"
            "# mark good\ngit bisect good\n\n"
            "# show the log\ngit log --oneline\n\n"
            "# my bisect helper\ngit bisect start HEAD v1\n",
            tags=["vcs"],
        ),
        sheet_file(COMMUNITY, "gdb", "# attach to a process\ngdb -p <pid>\n", tags=["debugging"]),
        sheet_file(COMMUNITY, "python", "# time imports\npython -X importtime -c 'import <m>'\n"),
        sheet_file(COMMUNITY, "pytest", "# rerun failures, stop at first\npytest --lf -x\n"),
    ]


def shown(result: object) -> list[tuple[str, str, str]]:
    """(sheet, label, command) of every hit, in output order."""
    return [
        (group.file.name, group.file.label, entry[1])
        for group in result.groups  # type: ignore[attr-defined]
        for entry in group.hits
    ]


def test_merge_keeps_every_path_in_merge_order_and_drops_repeated_entries() -> None:
    sheets = merge(corpus())
    result = lookup(sheets, ["git"], regex=False)
    assert result.mode == SHEET_MODE
    assert [(group.file.label, len(group.hits)) for group in result.groups] == [
        ("personal", 1),
        ("project", 1),
        ("community", 3),  # its copy of the personal entry is not shown twice
    ]


def test_exact_sheet_name_narrowed_by_terms() -> None:
    result = lookup(merge(corpus()), ["git", "bisect"], regex=False)
    assert result.mode == SHEET_MODE
    assert shown(result) == [
        ("git", "personal", "git bisect start HEAD v1"),
        ("git", "community", "git bisect start"),
        ("git", "community", "git bisect good"),
    ]


def test_every_term_must_match() -> None:
    result = lookup(merge(corpus()), ["git", "bisect", "good"], regex=False)
    assert shown(result) == [("git", "community", "git bisect good")]


def test_unique_prefix_names_a_sheet_and_ambiguous_one_searches() -> None:
    names = ["gdb", "git", "python", "pytest"]
    assert resolve_sheet("gi", names) == "git"
    assert resolve_sheet("pyt", names) is None  # python or pytest
    assert resolve_sheet("python", names) == "python"  # exact wins over being a prefix
    result = lookup(merge(corpus()), ["pyt"], regex=False)
    assert result.mode == SEARCH_MODE
    assert {group.file.name for group in result.groups} == {"python", "pytest"}


def test_word_that_is_no_sheet_searches_everything() -> None:
    result = lookup(merge(corpus()), ["attach"], regex=False)
    assert result.mode == SEARCH_MODE
    assert shown(result) == [("gdb", "community", "gdb -p <pid>")]


def test_search_words_may_name_the_sheet_in_any_order() -> None:
    result = lookup(merge(corpus()), ["good", "git"], regex=False)
    assert shown(result) == [("git", "community", "git bisect good")]


def test_case_insensitive_unless_a_term_has_a_capital() -> None:
    sheets = merge(corpus())
    assert len(shown(lookup(sheets, ["git", "head"], regex=False))) == 1
    assert shown(lookup(sheets, ["git", "HEAD"], regex=False)) == [
        ("git", "personal", "git bisect start HEAD v1")
    ]
    assert shown(lookup(sheets, ["git", "Bisect"], regex=False)) == []


def test_terms_are_literal_unless_regex() -> None:
    sheets = merge(corpus())
    assert shown(lookup(sheets, ["git", "v*"], regex=False)) == [
        ("git", "project", "git tag -l 'v*'")
    ]
    regex_hits = shown(lookup(sheets, ["git", r"bisect (good|start)$"], regex=True))
    assert regex_hits == [
        ("git", "community", "git bisect start"),
        ("git", "community", "git bisect good"),
    ]


def test_regex_smart_case_ignores_escapes() -> None:
    sheets = merge(corpus())
    assert shown(lookup(sheets, ["gdb", r"\Spid"], regex=True)) == [
        ("gdb", "community", "gdb -p <pid>")
    ]
    assert shown(lookup(sheets, ["gdb", r"\SPID"], regex=True)) == []


def test_bad_regex_is_a_user_error() -> None:
    with pytest.raises(DotdbgError, match="not a valid regular expression"):
        lookup(merge(corpus()), ["git", "("], regex=True)


def test_ranking_comment_hits_then_personal_then_shorter() -> None:
    files = [
        sheet_file(COMMUNITY, "aaa", "# frobnicate the widget with care\nrun --long-option\n"),
        sheet_file(COMMUNITY, "bbb", "# unrelated\nfrobnicate\n"),
        sheet_file(COMMUNITY, "ccc", "# frobnicate\nx\n"),
        sheet_file(PERSONAL, "ddd", "# frobnicate it, my way, the long way round\nmine --x\n"),
        sheet_file(PERSONAL, "eee", "# mine\nfrobnicate --mine\n"),
    ]
    result = lookup(merge(files), ["frobnicate"], regex=False)
    assert [group.file.name for group in result.groups] == [
        "ddd",  # term in the comment, personal path
        "ccc",  # term in the comment, community, shortest
        "aaa",  # term in the comment, community, longer
        "eee",  # term only in the command, personal
        "bbb",  # term only in the command, community
    ]


def test_search_groups_hits_by_sheet_file() -> None:
    files = [
        sheet_file(COMMUNITY, "one", "# zap a\nzap a\n\n# other\nzap b\n"),
        sheet_file(COMMUNITY, "two", "# zap c\nzap c\n"),
    ]
    result = lookup(merge(files), ["zap"], regex=False)
    assert [(group.file.name, [hit[1] for hit in group.hits]) for group in result.groups] == [
        ("one", ["zap a", "zap b"]),
        ("two", ["zap c"]),
    ]


def test_tags_filter_sheets() -> None:
    sheets = with_tags(merge(corpus()), ["VCS"])
    assert list(sheets) == ["git"]
    assert with_tags(merge(corpus()), ["vcs", "debugging"]) == {}


def test_everything_lists_sheets_by_name_in_merge_order() -> None:
    names = [(group.file.name, group.file.label) for group in everything(merge(corpus())).groups]
    assert names == [
        ("gdb", "community"),
        ("git", "personal"),
        ("git", "project"),
        ("git", "community"),
        ("pytest", "community"),
        ("python", "community"),
    ]


def test_suggestions_for_a_typo_and_an_ambiguous_prefix() -> None:
    names = ["gdb", "git", "python", "pytest"]
    assert suggestions("gti", names) == ["git"]
    assert suggestions("pyt", names) == ["pytest", "python"]
    assert suggestions("zzz", names) == []


def test_whole_word_hits_rank_before_substring_hits() -> None:
    sheets = merge(
        [
            sheet_file(COMMUNITY, "aaa", "# run what fails first\npytest --ff\n"),
            sheet_file(COMMUNITY, "zzz", "# list a directory\nls -l\n"),
        ]
    )
    result = lookup(sheets, ["ls"], regex=False)
    assert [hit[1] for group in result.groups for hit in group.hits] == ["ls -l", "pytest --ff"]


def test_a_sheet_without_the_word_is_skipped_without_looking_at_its_entries() -> None:
    file = sheet_file(COMMUNITY, "tool", "# one\nalpha\n")
    file.entries = [("# one", "alpha", 1), ("zorblax only here, not in the haystack", "x", 3)]
    assert lookup(merge([file]), ["zorblax"], regex=False).groups == []
    assert lookup(merge([file]), ["alpha"], regex=False).groups != []


NAME_CHARS = "aAbİß/x\n-"  # "İ" grows in lower case; a name may hold a newline


@given(
    names=st.lists(st.text(NAME_CHARS, max_size=5), max_size=8, unique=True),
    word=st.text(NAME_CHARS.replace("\n", ""), min_size=1, max_size=3),
)
def test_a_unique_prefix_resolves_as_a_scan_of_every_name_would(
    names: list[str], word: str
) -> None:
    """resolve_sheet finds the names a word starts in one string of them all (thousands of
    sheets); it must pick what comparing each name does, odd names included."""
    fold = word == word.lower()
    key = word.lower() if fold else word
    starting = [name for name in names if (name.lower() if fold else name).startswith(key)]
    exact = [name for name in starting if (name.lower() if fold else name) == key]
    expected = exact[0] if exact else (starting[0] if len(starting) == 1 else None)
    if word in names:
        expected = word
    assert resolve_sheet(word, names) == expected
