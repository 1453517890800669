"""The line editor (``config.tomllines``) against tomlkit: on any file it edits, its result is
tomlkit's byte for byte; on the layout dotdbg itself writes it edits, so `alias add` imports no
tomlkit; on any other it steps aside."""

from __future__ import annotations

import subprocess
import sys

import pytest
import tomlkit
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dotdbg.config import tomledit, tomllines

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    # tomli is installed only before Python 3.11 (where this branch runs)
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

NAMES = ["gs", "gd", "new", "x-y", "g.s", "a_1", "é"]
VALUES = [
    '"git status"',
    "'ls -la'",
    '"say \\"hi\\" \\\\ \\u00e9"',
    "false",
    "42",
    "1979-05-27T07:32:00Z",
    '"a # not a comment"',
    '""',
    '"""\n[aliases]\nnot = "a table"\n"""',
    "'''\n# not a comment\n'''",
    '"""two quotes at the end"""""',
    '[\n  "a",  # c ] }\n  "b",\n]',
    '[ [1, 2], ["[x]"] ]',
    '{ command = "a", desc = "d" }',
    '{ command = "}", pack = "git" }',
]
COMMENTS = ["", "  # c", "# c", "\t# [aliases] = 1", "   "]
INDENTS = ["", "  ", "\t"]
EQUALS = [" = ", "=", "  =\t"]
OTHER_LINES = ["\n", "  \n", "# a comment\n", "   # [aliases] in a comment\n"]
HEADERS = {  # the table a header opens → ways to write it
    "aliases": ["[aliases]", "[ aliases ]", '["aliases"]', "[aliases]  # mine", "['aliases']"],
    "aliases.sub": ["[aliases.sub]", "[aliases . 'sub']"],
    "packs": ["[packs]"],
    "functions": ["[functions]"],
    "cheat": ["[cheat]", '["cheat"]'],
    "arr": ["[[arr]]"],
}


def key_writings(name: str) -> list[str]:
    plain = [name] if all(char in tomllines.BARE for char in name) else []
    return [*plain, f'"{name}"', f"'{name}'"]


@st.composite
def entries(draw: st.DrawFn, root: bool = False) -> str:
    """Lines of entries (unique names) and comments, as people write them."""
    names = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=5))
    lines = []
    for name in names:
        lines += draw(st.lists(st.sampled_from(OTHER_LINES), max_size=2))
        key = draw(st.sampled_from(key_writings(name)))
        if draw(st.integers(0, 9)) == 0:  # dotted keys: left to tomlkit
            key = f"{key}.command"
        indent, equals = draw(st.sampled_from(INDENTS)), draw(st.sampled_from(EQUALS))
        value, comment = draw(st.sampled_from(VALUES)), draw(st.sampled_from(COMMENTS))
        lines.append(f"{indent}{key}{equals}{value}{comment}\n")
    if root and draw(st.integers(0, 4)) == 0:
        lines.append(draw(st.sampled_from(['aliases.gs = "x"\n', 'aliases = { gs = "x" }\n'])))
    lines += draw(st.lists(st.sampled_from(OTHER_LINES), max_size=2))
    return "".join(lines)


@st.composite
def documents(draw: st.DrawFn) -> str:
    tables = draw(st.lists(st.sampled_from(sorted(HEADERS)), unique=True, max_size=4))
    if draw(st.integers(0, 3)) and "aliases" not in tables:  # mostly there, among others
        tables.insert(draw(st.integers(0, len(tables))), "aliases")
    text = draw(entries(root=True))
    for table in tables:
        text += draw(st.sampled_from(HEADERS[table])) + "\n" + draw(entries())
    assume(_valid(text))
    return text


@st.composite
def plain_documents(draw: st.DrawFn) -> str:
    """The layout dotdbg writes (one [aliases] header, one line per entry), comments and any
    value anywhere; other tables around it."""
    before = draw(st.lists(st.sampled_from(["packs", "functions"]), unique=True))
    after = draw(st.lists(st.sampled_from(["cheat", "arr"]), unique=True))
    text = ""
    for table in [*before, "aliases", *after]:
        body = draw(entries())
        if table == "aliases":
            body = body.replace(".command", "")
        text += draw(st.sampled_from(HEADERS[table])) + "\n" + body
    assume(_valid(text))
    return text


def _valid(text: str) -> bool:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return False
    return True


fields = st.none() | st.fixed_dictionaries(
    {"command": st.sampled_from(["git status", "echo 'q'", 'say "hi" \\ there', "tab\there"])},
    optional={"desc": st.just("a desc"), "pack": st.just("git")},
)

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(text=documents(), name=st.sampled_from(NAMES), given_fields=fields)
def test_every_line_edit_is_tomlkits_edit(
    text: str, name: str, given_fields: dict[str, str] | None
) -> None:
    by_line = tomllines.set_line(text, "aliases", name, tomledit.entry_toml(given_fields))
    if by_line is not None:
        assert by_line == tomledit._set_with_tomlkit(text, "aliases", name, given_fields)


@SETTINGS
@given(text=documents(), name=st.sampled_from(NAMES))
def test_every_line_deletion_is_tomlkits_deletion(text: str, name: str) -> None:
    by_line = tomllines.delete_line(text, "aliases", name)
    if by_line is not None:
        assert by_line == tomledit._delete_with_tomlkit(text, "aliases", name)


@SETTINGS
@given(text=plain_documents(), name=st.sampled_from(NAMES), given_fields=fields)
def test_the_layout_dotdbg_writes_is_edited_by_line(
    text: str, name: str, given_fields: dict[str, str] | None
) -> None:
    value = tomledit.entry_toml(given_fields)
    assert tomllines.set_line(text, "aliases", name, value) is not None
    defined = name in tomllib.loads(text)["aliases"]
    assert (tomllines.delete_line(text, "aliases", name) is not None) == defined


@pytest.mark.parametrize(
    "text",
    [
        "",
        "# only a comment\n",
        "[packs]\ngpu = false\n",
        "[packs]\ngpu = false\n\n",
        "x = 1\n[packs]\n",
        'cheat.alias = "cs"\n',
    ],
)
def test_a_new_table_goes_where_tomlkit_puts_it(text: str) -> None:
    by_line = tomllines.set_line(text, "aliases", "gs", '"git status"')
    assert by_line == tomledit._set_with_tomlkit(text, "aliases", "gs", {"command": "git status"})


@settings(max_examples=500, deadline=None)
@given(value=st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\n")))
def test_a_one_line_string_is_written_as_tomlkit_writes_it(value: str) -> None:
    printable = all(char == "\t" or " " <= char != "\x7f" for char in value)
    if printable and not set(value) & {'"', "\\"}:
        expected = f'"{value}"'
    else:
        literal = printable and "'" not in value
        expected = tomlkit.string(value, literal=literal).as_string()
    assert tomledit.toml_string(value) == expected
    assert tomllib.loads(f"v = {expected}")["v"] == value


@settings(max_examples=300, deadline=None)
@given(name=st.text(st.characters(blacklist_categories=["Cs"]), max_size=8))
def test_a_key_is_written_as_tomlkit_writes_it(name: str) -> None:
    assert tomllines.key_text(name) == tomlkit.key(name).as_string()


def test_the_editors_import_no_typing() -> None:
    """Their own import is all an edit of the layout dotdbg writes adds to loading the config
    (typing's NamedTuple cost the line editor a millisecond)."""
    code = "import sys, dotdbg.config.tomllines, dotdbg.config.tomledit\n"
    code += "print('typing' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout == "False\n", done.stderr
