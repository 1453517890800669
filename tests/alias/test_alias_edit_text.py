"""The pure text edits: what changes in the TOML, and that nothing else does."""

from __future__ import annotations

import difflib
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dotdbg.config import load_config, tomledit
from dotdbg.errors import DotdbgError
from dotdbg.home.edit import remove_entry, set_entry
from dotdbg.home.render import render_starter_config
from dotdbg.paths import Paths

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    # tomli is installed only before Python 3.11 (where this branch runs)
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

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
    assert "\nmk = { body = '''\nlocal d=$1\nmkdir" in after  # the body starts at the margin


@settings(max_examples=300, deadline=None)
@given(body=st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\0")))
def test_any_function_body_round_trips(body: str) -> None:
    after = set_entry("[functions]\n", "functions", "f", body, None, None)
    assert tomllib.loads(after)["functions"]["f"] == body


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


# -- the layouts people write -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "section", "name", "fields", "after"),
    [
        pytest.param(
            '[aliases]\ngs = "git status"  # mine\n\n# -- functions --\n'
            '[functions]\nup = "cd .."\n',
            "aliases", "new", {"command": "echo new"},
            '[aliases]\ngs = "git status"  # mine\nnew = "echo new"\n\n# -- functions --\n'
            '[functions]\nup = "cd .."\n',
            id="after the last entry, not under the comment that opens the next table",
        ),
        pytest.param(
            '[aliases]\n  gs = "git status"\n',
            "aliases", "new", {"command": "echo new"},
            '[aliases]\n  gs = "git status"\n  new = "echo new"\n',
            id="indented like the entry before it",
        ),
        pytest.param(
            'cheat.alias = "cs"\naliases.gs = "git status"\npacks.gpu = false\n',
            "aliases", "new", {"command": "echo new"},
            'cheat.alias = "cs"\naliases.gs = "git status"\naliases.new = "echo new"\n'
            "packs.gpu = false\n",
            id="dotted keys at the top level",
        ),
        pytest.param(
            'aliases.gs = "git status"\n',
            "aliases", "gd", None,
            'aliases.gs = "git status"\naliases.gd = false\n',
            id="dotted keys: a default switched off",
        ),
        pytest.param(
            '[aliases]\nwn.desc = "watch it"  # d\nwn.command = "watch nvidia-smi"\n'
            'gs = "git status"\n',
            "aliases", "wn", {"command": "watch -n1 nvidia-smi"},
            '[aliases]\nwn.command = "watch -n1 nvidia-smi"\ngs = "git status"\n',
            id="an entry of dotted keys is changed where it is",
        ),
        pytest.param(
            'aliases = { gs = "git status", gd = "git diff" }  # all of them\n',
            "aliases", "new", {"command": "echo new"},
            'aliases = { gs = "git status", gd = "git diff", new = "echo new" }  # all of them\n',
            id="an inline table",
        ),
        pytest.param(
            '[aliases.gs]\ncommand = "git status"\n\n[functions]\nup = "cd .."\n\n'
            '[aliases.gd]\ncommand = "git diff"\n\n[packs]\ngpu = false\n',
            "aliases", "new", {"command": "echo new", "desc": "new"},
            '[aliases.gs]\ncommand = "git status"\n\n[functions]\nup = "cd .."\n\n'
            '[aliases.gd]\ncommand = "git diff"\n\n[aliases.new]\ncommand = "echo new"\n'
            'desc = "new"\n\n[packs]\ngpu = false\n',
            id="one table per entry, with another table between them",
        ),
        pytest.param(
            '[aliases.gs]\ncommand = "git status"\n',
            "aliases", "gd", None,
            '[aliases]\ngd = false\n\n[aliases.gs]\ncommand = "git status"\n',
            id="one table per entry: a default switched off",
        ),
        pytest.param(
            '[aliases]\n\n[aliases.gs]\ncommand = "git status"\n',
            "aliases", "new", {"command": "echo new"},
            '[aliases]\nnew = "echo new"\n\n[aliases.gs]\ncommand = "git status"\n',
            id="a header with sub-tables only: the entry goes before them",
        ),
        pytest.param(
            '[aliases]\ngd.command = "git diff"\ngd.desc = "d"\ngd.pack = "git"\ngs = "x"\n',
            "aliases", "gd", {"command": "git diff -w"},
            '[aliases]\ngd.command = "git diff -w"\ngs = "x"\n',
            id="an entry of dotted keys loses two of them",
        ),
        pytest.param(
            '[aliases]\nwn.command = "watch nvidia-smi"',
            "aliases", "new", {"command": "echo new"},
            '[aliases]\nwn.command = "watch nvidia-smi"\nnew = "echo new"\n',
            id="a file without a final newline",
        ),
        pytest.param(
            '[aliases]\ngs = "git status"\n',
            "aliases", "g.s", {"command": "echo new"},
            '[aliases]\ngs = "git status"\n"g.s" = "echo new"\n',
            id="a name TOML must quote",
        ),
    ],
)  # fmt: skip
def test_each_layout_is_kept(
    before: str, section: str, name: str, fields: dict[str, str] | None, after: str
) -> None:
    assert tomledit.set_entry(before, section, name, fields) == after


def test_the_guard_refuses_an_edit_that_touches_another_setting() -> None:
    old = '[packs]\ngpu = false\n[aliases]\ngs = "git status"\n'
    moved = '[aliases]\ngs = "git status"\nnew = "x"\npacks.gpu = false\n'  # gpu under aliases
    with pytest.raises(DotdbgError, match="without disturbing"):
        tomledit._check_only_changed(old, moved, "aliases", "new", {"command": "x"})
    wrong_value = '[packs]\ngpu = false\n[aliases]\ngs = "git status"\nnew = "y"\n'
    with pytest.raises(DotdbgError, match="without disturbing"):
        tomledit._check_only_changed(old, wrong_value, "aliases", "new", {"command": "x"})
    broken = '[packs]\ngpu = false\n[aliases]\ngs = "git status"new = "x"\n'
    with pytest.raises(DotdbgError, match="without disturbing"):
        tomledit._check_only_changed(old, broken, "aliases", "new", {"command": "x"})


# Random files in the layouts above; every edit must give exactly the expected data.

short_values = st.sampled_from(["git status", "ls -la", "echo 'q'", 'say "hi"'])
entry_values = short_values | st.fixed_dictionaries(
    {"command": short_values}, optional={"desc": st.just("a desc"), "pack": st.just("git")}
)
entry_sets = st.dictionaries(st.sampled_from(["gs", "gd", "g.s", "ll", "x-y"]), entry_values)
LAYOUTS = ["header", "dotted-in-header", "top-level-dotted", "sub-tables", "inline"]


def _render_layout(
    entries: dict[str, Any], layout: str, comments: bool, final_newlines: int = 1
) -> str:
    """``entries`` of [aliases] written in ``layout``, between other settings and comments."""
    q, key = tomledit.toml_string, tomledit._key
    note = "# a comment\n" if comments else ""
    top, tables = 'cheat.alias = "cs"\n', f"{note}[packs]\ngpu = false  # off\n\n"
    if layout == "inline":
        inner = ", ".join(
            f"{key(n)} = {tomledit.entry_toml(_fields(v))}" for n, v in entries.items()
        )
        top += f"aliases = {{ {inner} }}\n"
    for name, value in entries.items():
        lines = "".join(f"{k} = {q(v)}\n" for k, v in _fields(value).items())
        if layout == "sub-tables":
            tables += f"[{key('aliases', name)}]\n{lines}\n{note}[functions.f{len(tables)}]\n"
            tables += 'body = "x"\n\n'
        elif layout == "top-level-dotted" and isinstance(value, str):
            top += f"{key('aliases', name)} = {q(value)}\n"
        elif layout == "top-level-dotted":
            top += "".join(f"{key('aliases', name)}.{line}" for line in lines.splitlines(True))
    if layout.endswith("header"):
        tables += "[aliases]\n"
        for name, value in entries.items():
            if layout == "dotted-in-header" and isinstance(value, dict):
                tables += "".join(f"{key(name, k)} = {q(v)}\n" for k, v in value.items())
            else:
                tables += f"{key(name)} = {tomledit.entry_toml(_fields(value))}\n{note}"
        tables += f'\n{note}[functions]\nup = "cd .."\n'
    return top + "history.size = 5000\n\n" + tables.rstrip("\n") + "\n" * final_newlines


def _fields(value: str | dict[str, str]) -> dict[str, str]:
    return {"command": value} if isinstance(value, str) else value


@settings(max_examples=300, deadline=None)
@given(
    entries=entry_sets,
    layout=st.sampled_from(LAYOUTS),
    comments=st.booleans(),
    final_newlines=st.integers(0, 2),
    name=st.sampled_from(["gs", "gd", "g.s", "new", "x-y"]),
    fields=st.none() | entry_values.map(_fields),
    delete=st.booleans(),
)
def test_every_layout_takes_every_edit(
    entries: dict[str, Any],
    layout: str,
    comments: bool,
    final_newlines: int,
    name: str,
    fields: dict[str, str] | None,
    delete: bool,
) -> None:
    before = _render_layout(entries, layout, comments, final_newlines)
    expected = tomllib.loads(before)
    aliases = expected.setdefault("aliases", {})
    if delete and name in entries:
        after = tomledit.delete_entry(before, "aliases", name)
        del aliases[name]
    else:
        after = tomledit.set_entry(before, "aliases", name, fields)
        aliases[name] = False if fields is None else fields
    got = tomllib.loads(after)
    got_aliases = got.setdefault("aliases", {})
    if isinstance(got_aliases.get(name), str):
        got_aliases[name] = {"command": got_aliases[name]}
    assert got == expected


def test_an_edit_and_the_load_after_it_parse_each_text_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The guard's parses are noted (``config.parsed``): the config the edit loads next is not
    parsed again (tomllib's parse was twice per text of every alias edit)."""
    from dotdbg.config import source

    parses: list[str] = []
    reader = source._reader()

    def counted(text: str) -> dict[str, Any]:
        parses.append(text)
        found: dict[str, Any] = reader.loads(text)
        return found

    counting = types.SimpleNamespace(loads=counted, TOMLDecodeError=reader.TOMLDecodeError)
    monkeypatch.setattr(source, "_reader", lambda: counting)  # the TOML reader's parses
    old = HAND_WRITTEN + f"# {tmp_path}\n"  # a text no other test parsed in this process
    new = set_entry(old, "aliases", "gss", "git status --short", None, None)
    assert source.Source(tmp_path / "config.toml", new).parse()["aliases"]["gss"]
    assert parses == [old, new]
