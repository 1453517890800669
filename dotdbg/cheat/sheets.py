"""Parsing one cheatsheet in cheat's format: optional front matter, then entries.

An entry is a run of ``#`` comment lines followed by the command lines they describe; entries
are separated by blank lines. A command line ending in ``\\`` continues on the next line.

The front matter is the small YAML subset cheat sheets use (``syntax: bash``, ``tags: [a, b]``,
one nested ``dotdbg:`` mapping), parsed here by hand so that ``dotdbg cheat`` never loads a YAML
library. Anything outside that subset is reported as malformed rather than guessed at.
"""

from __future__ import annotations

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    # (comment, command, line number of the entry's first line); tuples keep the index cheap.
    Entry = tuple[str, str, int]
    FrontMatter = dict[str, "str | list[str] | dict[str, str]"]

BOM = b"\xef\xbb\xbf"

FRONT_MATTER_FENCE = "---"


class SheetError(ValueError):
    """A sheet that cannot be read: malformed front matter, undecodable or binary text.

    ``line`` and ``column`` (1-based, 0 when unknown) say where, for a ``file:line:col`` warning.
    """

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column

    @property
    def location(self) -> str:
        """``:line:col``, ``:line`` or nothing: what follows the file name in a warning."""
        if not self.line:
            return ""
        return f":{self.line}:{self.column}" if self.column else f":{self.line}"


class ParsedSheet:
    __slots__ = ("entries", "extra", "syntax", "tags")

    def __init__(
        self, syntax: str, tags: list[str], entries: list[Entry], extra: dict[str, str]
    ) -> None:
        self.syntax = syntax
        self.tags = tags
        self.entries = entries
        self.extra = extra


def decode(data: bytes) -> str:
    """UTF-8 text with any BOM dropped and CRLF / CR line ends made LF."""
    if data.startswith(BOM):  # removed first so offsets count from here
        data = data[len(BOM) :]
    nul = data.find(b"\0")
    if nul >= 0:
        line, column = _byte_position(data, nul)
        raise SheetError("a NUL byte: a binary file, not a sheet", line, column)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = _byte_position(data, error.start)
        raise SheetError("not valid UTF-8: save the file as UTF-8", line, column) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _byte_position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and byte column of ``offset``."""
    return data.count(b"\n", 0, offset) + 1, offset - data.rfind(b"\n", 0, offset)


def parse(text: str) -> ParsedSheet:
    """Parse a whole sheet; raises SheetError for malformed front matter."""
    lines = text.split("\n")
    meta, body_start = split_front_matter(lines)
    syntax = meta.get("syntax") or ""
    tags = meta.get("tags") or []
    if not isinstance(syntax, str):
        raise SheetError("front matter: 'syntax' must be a single word", _key_line(lines, "syntax"))
    if not isinstance(tags, list):
        raise SheetError(
            "front matter: 'tags' must be a list such as [a, b]", _key_line(lines, "tags")
        )
    extra = meta.get("dotdbg") or {}
    if not isinstance(extra, dict):
        raise SheetError("front matter: 'dotdbg' must be a mapping", _key_line(lines, "dotdbg"))
    return ParsedSheet(syntax, tags, parse_entries(lines, body_start), extra)


# -- front matter ----------------------------------------------------------------------------
def split_front_matter(lines: list[str]) -> tuple[FrontMatter, int]:
    """The parsed front matter and the index of the first body line."""
    if not lines or lines[0].rstrip() != FRONT_MATTER_FENCE:
        return {}, 0
    for index in range(1, len(lines)):
        if lines[index].rstrip() == FRONT_MATTER_FENCE:
            return parse_front_matter(lines[1:index], first_line=2), index + 1
    raise SheetError("front matter is never closed: end it with a '---' line", 1, 1)


def _key_line(lines: list[str], key: str) -> int:
    """The line of the front matter where top-level ``key`` is set."""
    for index in range(1, len(lines)):
        if lines[index].startswith(f"{key}:"):
            return index + 1
    return 0


def parse_front_matter(lines: list[str], first_line: int) -> FrontMatter:
    meta: FrontMatter = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if _is_blank_or_comment(line):
            continue
        key, value = _top_level_pair(line, first_line + index - 1)
        if key in meta:
            raise SheetError(f"front matter: '{key}' appears twice", first_line + index - 1)
        if value:
            meta[key] = _scalar_or_flow_list(value, first_line + index - 1)
            continue
        block, index = _indented_block(lines, index)
        meta[key] = _parse_block(block, first_line)
    return meta


def _is_blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _top_level_pair(line: str, line_no: int) -> tuple[str, str]:
    key, colon, value = line.partition(":")
    key = key.rstrip()
    if not (colon and _is_key(key)) or (value and not value[0].isspace()):
        got = line.strip()
        raise SheetError(f"front matter: expected 'key: value', got {got!r}", line_no)
    return key, _strip_comment(value.strip())


def _is_key(word: str) -> bool:
    return word.isascii() and word[:1].isalpha() and word.replace("-", "_").isidentifier()


def _indented_block(lines: list[str], index: int) -> tuple[list[tuple[int, str]], int]:
    block = []
    while index < len(lines) and (lines[index][:1].isspace() or not lines[index].strip()):
        if not _is_blank_or_comment(lines[index]):
            block.append((index, lines[index].strip()))
        index += 1
    return block, index


def _parse_block(block: list[tuple[int, str]], first_line: int) -> str | list[str] | dict[str, str]:
    if not block:
        return ""  # `key:` alone is YAML's null
    if block[0][1].startswith("- ") or block[0][1] == "-":
        return [_block_list_item(text, first_line + offset) for offset, text in block]
    mapping: dict[str, str] = {}
    for offset, text in block:
        key, value = _top_level_pair(text, first_line + offset)
        mapping[key] = _unquote(value, first_line + offset)
    return mapping


def _block_list_item(text: str, line_no: int) -> str:
    if not text.startswith("-"):
        raise SheetError(f"front matter: expected '- item', got {text!r}", line_no)
    return _unquote(_strip_comment(text[1:].strip()), line_no)


def _scalar_or_flow_list(value: str, line_no: int) -> str | list[str]:
    if value.startswith("["):
        if not value.endswith("]"):
            raise SheetError("front matter: list is missing its closing ']'", line_no)
        inner = value[1:-1].strip()
        if "[" in inner or "]" in inner or "{" in inner:
            raise SheetError("front matter: nested lists are not supported", line_no)
        return [_unquote(item.strip(), line_no) for item in inner.split(",") if item.strip()]
    if value.startswith(("{", "|", ">", "&", "*", "!")):
        raise SheetError(f"front matter: unsupported YAML value {value!r}", line_no)
    return _unquote(value, line_no)


def _strip_comment(value: str) -> str:
    if value[:1] in ("'", '"'):
        return value
    hash_at = value.find(" #")
    return (value[:hash_at] if hash_at >= 0 else value).strip()


def _unquote(value: str, line_no: int) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in ("'", '"'):
        return value[1:-1]
    if value[:1] in ("'", '"'):
        raise SheetError(f"front matter: unbalanced quote in {value!r}", line_no)
    return value


# -- entries ---------------------------------------------------------------------------------
def parse_entries(lines: list[str], start: int) -> list[Entry]:
    """Entries of the body; a block of comments with no command (a heading) is dropped."""
    entries: list[Entry] = []
    comments: list[str] = []
    commands: list[str] = []
    first = 0
    continued = False

    def close() -> None:
        if commands:
            entries.append(("\n".join(comments), "\n".join(commands), first))
        comments.clear()
        commands.clear()

    for index in range(start, len(lines)):
        line = lines[index].rstrip()
        if continued or (line and not line.startswith("#")):
            if not comments and not commands:
                first = index + 1
            commands.append(line)
            continued = line.endswith("\\")
        elif not line:
            close()
        else:
            if commands:
                close()
            if not comments:
                first = index + 1
            comments.append(line[1:].strip())
    close()
    return entries
