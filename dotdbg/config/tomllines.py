"""One entry of a ``[table]`` set or deleted as a line of text, without tomlkit.

tomlkit's import and parse cost `dotdbg alias add` 20-30 ms (issue 27), and most edits are one
line under one ``[aliases]`` header. This module reads the text's statements (headers, entries,
comments: where each starts and ends, multi-line strings and arrays included) and edits that
one line exactly where tomlkit puts it, everything else byte for byte. Any other layout (dotted
keys, ``[aliases.NAME]`` tables, an inline table, escapes in a key) is ``None``: tomlkit's
(``tomledit``). tests/alias/test_alias_edit_lines.py holds the two to the same result.
"""

from __future__ import annotations

BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
SPACE = " \t"


class Unsupported(Exception):
    """A construct the line editor leaves to tomlkit."""


class Statement:
    """One statement of a TOML text: a header, an entry (``key = value``) or a line of
    comment or blank; offsets into the text. (A plain class: typing's NamedTuple costs the
    import a millisecond.)"""

    __slots__ = ("array", "end", "indent", "keys", "kind", "start", "value")

    def __init__(
        self,
        kind: str,  # "header", "entry" or "other"
        keys: tuple[str, ...],  # the header's or the entry's (dotted) key, unquoted
        start: int,  # the line's start (its indent included)
        value: tuple[int, int],  # an entry's value: where it starts and ends
        end: int,  # just after the newline that ends it
        indent: str = "",
        array: bool = False,  # a header of an array of tables: [[…]]
    ) -> None:
        self.kind, self.keys, self.start, self.value = kind, keys, start, value
        self.end, self.indent, self.array = end, indent, array


def set_line(text: str, section: str, name: str, value_toml: str) -> str | None:
    """``text`` (ending in a newline, or empty) with ``section.name = value_toml``; None: a
    layout this module does not edit."""
    try:
        layout = _layout(text, section)
    except Unsupported:
        return None
    if layout is None:
        return _new_table(text, section, name, value_toml)
    header, body = layout
    entries = [statement for statement in body if statement.kind == "entry"]
    same = [entry for entry in entries if entry.keys == (name,)]
    if same:
        start, end = same[0].value
        return text[:start] + value_toml + text[end:]
    line = f"{key_text(name)} = {value_toml}\n"
    if not entries:
        return text[: header.end] + line + text[header.end :]
    last = entries[-1]
    return text[: last.end] + last.indent + line + text[last.end :]


def delete_line(text: str, section: str, name: str) -> str | None:
    """``text`` without the line of ``section.name``; None: not such a line."""
    try:
        layout = _layout(text, section)
    except Unsupported:
        return None
    if layout is None:
        return None
    same = [entry for entry in layout[1] if entry.kind == "entry" and entry.keys == (name,)]
    if not same:
        return None
    return text[: same[0].start] + text[same[0].end :]


def key_text(name: str) -> str:
    """``name`` as a TOML key, as tomlkit writes it: bare, else a basic string."""
    if name and all(char in BARE for char in name):
        return name
    return f'"{basic_escaped(name)}"'


COMPACT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"'}


def basic_escaped(value: str) -> str:
    """``value``'s text inside a TOML basic string ("…"), escaped as tomlkit escapes it."""
    out = []
    for char in value:
        if char == "\\":
            out.append("\\\\")
        elif char in COMPACT:
            out.append(COMPACT[char])
        elif char < " " or char == "\x7f":
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "".join(out)


# -- the layout -------------------------------------------------------------------------------


def _layout(text: str, section: str) -> tuple[Statement, list[Statement]] | None:
    """``[section]``'s header and the statements under it; None: no table of that name at all.
    Raises Unsupported for every other way of writing it, and for dotted keys in it."""
    found = statements(text)
    headers = [index for index, statement in enumerate(found) if statement.kind == "header"]
    first = headers[0] if headers else len(found)
    if any(statement.keys[:1] == (section,) for statement in found[:first]):
        raise Unsupported("the table as dotted keys or an inline table")
    ours = [index for index in headers if found[index].keys[0] == section]
    if not ours:
        return None
    header = found[ours[0]]
    if len(ours) > 1 or header.keys != (section,) or header.array:
        raise Unsupported("sub-tables or an array of tables")
    after = [index for index in headers if index > ours[0]]
    body = found[ours[0] + 1 : after[0] if after else len(found)]
    if any(len(statement.keys) > 1 for statement in body if statement.kind == "entry"):
        raise Unsupported("dotted keys")
    return header, body


def _new_table(text: str, section: str, name: str, value_toml: str) -> str | None:
    """The table appended, as tomlkit appends it: after a blank line."""
    table = f"[{key_text(section)}]\n{key_text(name)} = {value_toml}\n"
    if not text:
        return table
    if text.endswith("\n\n"):
        return text + table
    last_line = text[text.rstrip("\n").rfind("\n") + 1 :]
    if last_line.strip(SPACE + "\n") == "":
        return None  # a last line of spaces: tomlkit's own choice, not worth copying
    return text + "\n" + table


# -- the statements ---------------------------------------------------------------------------


def statements(text: str) -> list[Statement]:
    """Every statement of ``text``, a valid TOML document ending in a newline."""
    reader = _Reader(text)
    found = []
    while reader.pos < len(text):
        found.append(reader.statement())
    return found


class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.pos = text, 0

    def statement(self) -> Statement:
        start = self.pos
        self._skip(SPACE)
        indent = self.text[start : self.pos]
        char = self._peek()
        if char in "#\r\n":
            return Statement("other", (), start, (0, 0), self._line_end(), indent)
        if char == "[":
            array = self.text.startswith("[[", self.pos)
            self.pos += 2 if array else 1
            keys = self._key("]")
            self._expect("]]" if array else "]")
            return Statement("header", keys, start, (0, 0), self._line_end(), indent, array)
        keys = self._key("=")
        self._expect("=")
        self._skip(SPACE)
        value_start = self.pos
        self._value()
        value = (value_start, self.pos)
        return Statement("entry", keys, start, value, self._line_end(), indent)

    # -- pieces

    def _peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def _skip(self, chars: str) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in chars:
            self.pos += 1

    def _expect(self, word: str) -> None:
        if not self.text.startswith(word, self.pos):
            raise Unsupported(f"expected {word!r} at {self.pos}")
        self.pos += len(word)

    def _line_end(self) -> int:
        """Past blanks, a comment and the newline."""
        self._skip(SPACE)
        if self._peek() == "#":
            newline = self.text.find("\n", self.pos)
            self.pos = len(self.text) if newline < 0 else newline
        if self.text.startswith("\r\n", self.pos):
            self.pos += 1
        if self._peek() != "\n":
            raise Unsupported(f"expected the end of the line at {self.pos}")
        self.pos += 1
        return self.pos

    def _key(self, closing: str) -> tuple[str, ...]:
        parts = []
        while True:
            self._skip(SPACE)
            parts.append(self._key_part())
            self._skip(SPACE)
            if self._peek() != ".":
                break
            self.pos += 1
        if self._peek() != closing:
            raise Unsupported(f"expected {closing!r} at {self.pos}")
        return tuple(parts)

    def _key_part(self) -> str:
        start, char = self.pos, self._peek()
        if char in "\"'":
            self._single_line_string(char)
            inner = self.text[start + 1 : self.pos - 1]
            if char == '"' and "\\" in inner:
                raise Unsupported("an escape in a key")
            return inner
        self._skip("".join(BARE))
        if self.pos == start:
            raise Unsupported(f"expected a key at {self.pos}")
        return self.text[start : self.pos]

    def _value(self) -> None:
        char = self._peek()
        if self.text.startswith(('"""', "'''"), self.pos):
            self._multi_line_string(self.text[self.pos : self.pos + 3])
        elif char in "\"'":
            self._single_line_string(char)
        elif char in "[{":
            self._nested()
        else:
            start = self.pos
            while self.pos < len(self.text) and self.text[self.pos] not in " \t\r\n#,]}":
                self.pos += 1
            if self.pos == start:
                raise Unsupported(f"expected a value at {self.pos}")

    def _single_line_string(self, quote: str) -> None:
        self.pos += 1
        while True:
            char = self._peek()
            if char in ("", "\n"):
                raise Unsupported("an unterminated string")
            self.pos += 2 if char == "\\" and quote == '"' else 1
            if char == quote:
                return

    def _multi_line_string(self, quotes: str) -> None:
        self.pos += 3
        while True:
            if self.pos >= len(self.text):
                raise Unsupported("an unterminated string")
            if self.text.startswith(quotes, self.pos):
                self.pos += 3
                for _ in range(2):  # up to two quotes of the string's own before the closing
                    if self._peek() == quotes[0]:
                        self.pos += 1
                return
            self.pos += 2 if self.text[self.pos] == "\\" and quotes == '"""' else 1

    def _nested(self) -> None:
        """An array or inline table, over several lines, with comments and strings in it."""
        depth = 0
        while True:
            char = self._peek()
            if char == "":
                raise Unsupported("an unterminated array or inline table")
            if char in "[{":
                depth += 1
                self.pos += 1
            elif char in "]}":
                depth -= 1
                self.pos += 1
                if depth == 0:
                    return
            elif char == "#":
                newline = self.text.find("\n", self.pos)
                self.pos = len(self.text) if newline < 0 else newline
            elif char in "\"'":
                self._value()
            else:
                self.pos += 1
