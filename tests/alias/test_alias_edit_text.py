"""The pure text edits: what changes in the TOML, and that nothing else does."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotdbg.config import load_config
from dotdbg.edit import remove_entry, set_entry
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from dotdbg.render import render_starter_config

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HAND_WRITTEN = """\
# my dotdbg config   (odd    spacing kept)

[packs]
gpu = false   # no GPU on this laptop

[aliases]
# git
gs  =  "git status -sb"   # short, with branch
gl = 'git log --oneline'

# trailing comment of the aliases table

[functions]
mkcd = { body = 'mkdir -p "$1" && cd "$1"', desc = "make a dir and enter it" }
"""


def changed_lines(before: str, after: str) -> list[str]:
    """The diff's removed (-) and added (+) lines, nothing else."""
    diff = difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True))
    return [line for line in diff if line[:1] in "+-"]


def test_adding_to_the_starter_config_adds_one_line(tmp_path: Path) -> None:
    starter = render_starter_config(load_config(Paths.from_env(tmp_path)))
    after = set_entry(starter, "aliases", "gss", "git status --short", None, None)
    assert changed_lines(starter, after) == ['+ gss = "git status --short"\n']
    assert load_config(Paths.from_env(tmp_path), after)


def test_replacing_changes_only_that_line_and_keeps_its_comment() -> None:
    after = set_entry(HAND_WRITTEN, "aliases", "gs", "git status", None, None)
    assert changed_lines(HAND_WRITTEN, after) == [
        '- gs  =  "git status -sb"   # short, with branch\n',
        '+ gs  =  "git status"   # short, with branch\n',
    ]


def test_desc_or_pack_give_the_inline_table_form() -> None:
    after = set_entry(HAND_WRITTEN, "aliases", "pyx", "pytest -x", "stop early", "pytest")
    [added] = changed_lines(HAND_WRITTEN, after)
    assert added == '+ pyx = { command = "pytest -x", desc = "stop early", pack = "pytest" }\n'
    only_desc = set_entry("", "functions", "up", "cd ..", "parent", None)
    assert only_desc == '[functions]\nup = { body = "cd ..", desc = "parent" }\n'


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("git status", '"git status"'),
        ('ls "${@-.}"', "'ls \"${@-.}\"'"),
        ("grep -P '\\d+'", "\"grep -P '\\\\d+'\""),
        ("printf 'a\\tb'", "\"printf 'a\\\\tb'\""),
    ],
)
def test_strings_are_written_with_the_fewest_escapes(value: str, written: str) -> None:
    after = set_entry("[aliases]\n", "aliases", "x", value, None, None)
    assert after == f"[aliases]\nx = {written}\n"
    assert tomllib.loads(after)["aliases"]["x"] == value


def test_multi_line_function_body_round_trips() -> None:
    body = 'local d=$1\nmkdir -p "$d"\ncd "$d" || return'
    after = set_entry(HAND_WRITTEN, "functions", "mk", body, "make and enter", "misc")
    assert tomllib.loads(after)["functions"]["mk"] == {
        "body": body,
        "desc": "make and enter",
        "pack": "misc",
    }


def test_an_alias_is_one_line() -> None:
    with pytest.raises(DotdbgError, match="one line"):
        set_entry("", "aliases", "x", "echo a\necho b", None, None)


def test_removing_a_user_entry_deletes_its_line_only() -> None:
    after = remove_entry(HAND_WRITTEN, "aliases", "gl", in_defaults=False)
    assert changed_lines(HAND_WRITTEN, after) == ["- gl = 'git log --oneline'\n"]


def test_removing_a_default_writes_false() -> None:
    after = remove_entry(HAND_WRITTEN, "functions", "l", in_defaults=True)
    assert changed_lines(HAND_WRITTEN, after) == ["+ l = false\n"]
    overridden = remove_entry(HAND_WRITTEN, "aliases", "gs", in_defaults=True)
    assert changed_lines(HAND_WRITTEN, overridden) == [
        '- gs  =  "git status -sb"   # short, with branch\n',
        "+ gs  =  false   # short, with branch\n",
    ]


def test_a_missing_file_gets_the_table() -> None:
    assert set_entry("", "aliases", "gs", "git status", None, None) == (
        '[aliases]\ngs = "git status"\n'
    )


SUB_TABLES = """\
# one table per alias
[aliases.gs]
command = "git status -sb"  # mine
desc = "short status"

[aliases.gp]
command = "git push"
"""


def test_a_file_of_sub_tables_is_edited_in_its_own_style() -> None:
    replaced = set_entry(SUB_TABLES, "aliases", "gs", "git status", None, "git")
    assert changed_lines(SUB_TABLES, replaced) == [
        '- command = "git status -sb"  # mine\n',
        '+ command = "git status"  # mine\n',
        '- desc = "short status"\n',
        '+ pack = "git"\n',
    ]
    added = set_entry(SUB_TABLES, "aliases", "gd", "git diff", None, None)
    assert added == SUB_TABLES + '\n[aliases.gd]\ncommand = "git diff"\n'
    removed = remove_entry(SUB_TABLES, "aliases", "gp", in_defaults=False)
    assert "gp" not in tomllib.loads(removed)["aliases"]
    assert removed.startswith(SUB_TABLES.split("[aliases.gp]")[0])


one_line = st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\n\r\0"))


@settings(max_examples=200, deadline=None)
@given(
    command=one_line.filter(str.strip),
    desc=st.none() | one_line,
    pack=st.none() | st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True),
)
def test_any_command_round_trips_through_the_toml(
    command: str, desc: str | None, pack: str | None
) -> None:
    after = set_entry(HAND_WRITTEN, "aliases", "x", command, desc, pack)
    written = tomllib.loads(after)["aliases"]["x"]
    expected = {"command": command, "desc": desc, "pack": pack}
    if isinstance(written, str):
        assert (desc, pack) == (None, None)
        assert written == command
    else:
        assert written == {key: value for key, value in expected.items() if value is not None}
    assert after.startswith(HAND_WRITTEN.split("\n# trailing")[0])
