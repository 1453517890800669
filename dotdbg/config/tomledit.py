"""Set or delete one entry of a TOML table (``[aliases] gs = …``) in the layout the file uses.

People write the same table in several layouts: an ``[aliases]`` header, one ``[aliases.gs]``
table per entry, dotted keys (``aliases.gs = …``, ``gs.command = …``), an inline table
(``aliases = { … }``), and mixes of them. An edit keeps to the layout it finds: an existing entry
is changed where it is, with its comment; a new one goes after the last entry of its table, not
after the comment that opens the next one. The result is parsed again and compared with the old
content, so a layout tomlkit mishandles is an error, never a silent change to another setting.
"""

from __future__ import annotations

from collections.abc import Callable

from dotdbg.config import tomllines
from dotdbg.config.source import is_toml_error, loads
from dotdbg.errors import DotdbgError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

Fields = dict[str, str]  # the entry's keys: command (or body), desc, pack


def toml_string(value: str) -> str:
    """``value`` as the most readable TOML string: no backslash escapes when avoidable."""
    printable = all(char in "\n\t" or " " <= char != "\x7f" for char in value)
    multiline = "\n" in value and printable  # else one line, every control character escaped
    if printable and not multiline and not set(value) & {'"', "\\"}:
        return f'"{value}"'
    literal = printable and "'" not in value
    if not multiline:  # as tomlkit writes it, without its import
        return f"'{value}'" if literal else f'"{tomllines.basic_escaped(value)}"'
    import tomlkit

    text: str = tomlkit.string(value, literal=literal, multiline=True).as_string()
    # A newline right after the opening quotes is not part of the string: with it, a function
    # body starts at the left margin like its other lines.
    return f"{text[:3]}\n{text[3:]}" if text[3:4] != "\n" else text


def entry_toml(fields: Fields | None) -> str:
    """The right-hand side of ``name = …``: ``false``, the short form (one field) or an inline
    table."""
    if fields is None:
        return "false"
    if len(fields) == 1:
        return toml_string(*fields.values())
    inner = ", ".join(f"{key} = {toml_string(text)}" for key, text in fields.items())
    return f"{{ {inner} }}"


def set_entry(text: str, section: str, name: str, fields: Fields | None) -> str:
    """``text`` with ``section.name`` set to ``fields`` (``false`` when None): one line edited
    where the layout allows (``tomllines``), else through tomlkit."""
    new = tomllines.set_line(_ending_in_newline(text), section, name, entry_toml(fields))
    if new is None:
        new = _set_with_tomlkit(text, section, name, fields)
    _check_only_changed(text, new, section, name, fields)
    return new


def _set_with_tomlkit(text: str, section: str, name: str, fields: Fields | None) -> str:
    import tomlkit

    document = tomlkit.parse(_ending_in_newline(text))
    table: Any = document.get(section, {})
    current = table.get(name)
    if _is_table(current) and fields is not None:
        _fill(lambda: document[section][name], fields)  # [aliases.gs], gs.command = …
    elif current is not None and not _is_table(current):
        table[name] = _value(entry_toml(fields))  # in place, its comment kept
    else:
        if current is not None:
            del table[name]  # a table switched off: `name = false` is written below
        _add(document, section, name, fields)
    new: str = document.as_string()
    return new


def delete_entry(text: str, section: str, name: str) -> str:
    """``text`` without ``section.name``: its line deleted where the layout allows
    (``tomllines``), else through tomlkit."""
    new = tomllines.delete_line(_ending_in_newline(text), section, name)
    if new is None:
        new = _delete_with_tomlkit(text, section, name)
    _check_only_changed(text, new, section, name, None, deleted=True)
    return new


def _delete_with_tomlkit(text: str, section: str, name: str) -> str:
    import tomlkit

    document = tomlkit.parse(_ending_in_newline(text))
    table = document.get(section)
    if table is None or name not in table:
        raise DotdbgError(f"{name} is not in your config's [{section}]")
    del table[name]
    new: str = document.as_string()
    return new


def _ending_in_newline(text: str) -> str:
    """tomlkit puts a new entry right after a last line that has no newline: give it one."""
    return text if not text or text.endswith("\n") else text + "\n"


# -- where a new entry goes --------------------------------------------------------------------


def _add(document: Any, section: str, name: str, fields: Fields | None) -> None:
    import tomlkit
    from tomlkit.items import InlineTable

    parts = [
        (index, key, item)
        for index, (key, item) in enumerate(document.body)
        if key is not None and key.key == section
    ]
    inline = [item for _, _, item in parts if isinstance(item, InlineTable)]
    headers = [item for _, key, item in parts if _is_header(key, item)]
    dotted = [index for index, key, _ in parts if key.is_dotted()]
    if inline:
        _add_inline(inline[0], name, fields)
    elif headers:
        _add_to_header(headers[0], name, fields)
    elif dotted:
        key, item = _snippet(f"{_key(section, name)} = {entry_toml(fields)}\n")
        _insert_root(document, dotted[-1] + 1, key, item)
    elif parts and fields is not None:  # only [section.NAME] tables: one more of them
        key, item = _snippet(f"[{_key(section, name)}]\n" + _table_body(fields))
        _separate(parts[-1][2], _first_table(item))
        _insert_root(document, parts[-1][0] + 1, key, item)
    elif parts:  # `false` cannot be such a table: an [section] header before the first one
        key, item = _snippet(f"[{_key(section)}]\n{_key(name)} = false\n\n")
        _insert_root(document, parts[0][0], key, item)
    else:
        document.add(section, tomlkit.table())
        document[section][name] = _value(entry_toml(fields))


def _add_to_header(table: Any, name: str, fields: Fields | None) -> None:
    """After the table's last entry (its own sub-tables come after the entries)."""
    item = _value(entry_toml(fields))
    body = table.value.body
    entries = [
        (key, value) for key, value in body if key is not None and not _is_header(key, value)
    ]
    if entries:
        anchor_key, anchor = entries[-1]
        indent = anchor.trivia.indent
        if indent.strip(" \t") == "":
            item.trivia.indent = indent
        table.value._insert_after(anchor_key, name, item)
    elif body:
        table.value._insert_at(0, name, item)
    else:
        table[name] = item


def _add_inline(table: Any, name: str, fields: Fields | None) -> None:
    """``{ gs = "git status" }``: keep the blank before the closing brace."""
    from tomlkit.items import Whitespace

    spaced = table.as_string().rstrip().endswith(" }")
    table[name] = _value(entry_toml(fields))
    if spaced:
        table.value.body.append((None, Whitespace(" ")))


def _separate(previous: Any, table: Any) -> None:
    """A blank line between the previous table and the new one, and after it if there was one."""
    from tomlkit.items import Whitespace

    if previous.as_string().endswith("\n\n"):
        table.value.body.append((None, Whitespace("\n")))
    else:
        table.trivia.indent = "\n"


def _insert_root(document: Any, index: int, key: Any, item: Any) -> None:
    if index < len(document.body):
        document._insert_at(index, key, item)
    else:
        document.append(key, item)


# -- small pieces ------------------------------------------------------------------------------


def _is_table(item: Any) -> bool:
    """A table other than an inline one: ``[aliases.gs]`` or ``gs.command = …`` lines."""
    from tomlkit.container import OutOfOrderTableProxy
    from tomlkit.items import Table

    return isinstance(item, (Table, OutOfOrderTableProxy))


def _is_header(key: Any, item: Any) -> bool:
    """``[section]`` or ``[section.x]``: a table under a header, not dotted keys."""
    from tomlkit.items import AoT, Table

    return isinstance(item, AoT) or (
        isinstance(item, Table) and not key.is_dotted() and not item.is_super_table()
    )


def _fill(entry: Callable[[], Any], fields: Fields) -> None:
    """Set the keys of a table entry in place. ``entry`` looks the table up afresh for each
    change: tomlkit's view of dotted keys on several lines goes stale after a deletion."""
    for key in sorted(({"desc", "pack"} - fields.keys()) & set(entry().keys())):
        del entry()[key]  # an add defines the whole entry, as the short form does
    for key, text in fields.items():
        entry()[key] = _value(toml_string(text))


def _value(value_toml: str) -> Any:
    """An item that prints exactly as ``value_toml``."""
    import tomlkit

    return tomlkit.parse(f"v = {value_toml}\n").item("v")


def _snippet(text: str) -> tuple[Any, Any]:
    import tomlkit

    key, item = tomlkit.parse(text).body[0]
    return key, item


def _first_table(super_table: Any) -> Any:
    return next(iter(super_table.value.body))[1]


def _table_body(fields: Fields) -> str:
    return "".join(f"{key} = {toml_string(text)}\n" for key, text in fields.items())


def _key(*parts: str) -> str:
    """A dotted key, each part quoted when TOML needs it (``"g.s"``)."""
    return ".".join(tomllines.key_text(part) for part in parts)


# -- the guard ---------------------------------------------------------------------------------


def _check_only_changed(
    old: str, new: str, section: str, name: str, fields: Fields | None, deleted: bool = False
) -> None:
    """Refuse a result that differs from ``old`` anywhere but ``section.name``."""
    before = loads(old)
    try:
        after = loads(new)
    except ValueError as error:
        if not is_toml_error(error):
            raise
        after = None
    value = after.get(section, {}).pop(name, None) if after is not None else None
    before.get(section, {}).pop(name, None)
    for data in (before, after or {}):
        if data.get(section) == {}:
            del data[section]  # an emptied table may stay as a bare header or go
    if after is None or before != after or not _written_as(value, fields, deleted):
        raise DotdbgError(
            f"could not edit {section}.{name} without disturbing the rest of the file's layout",
            hint=f"edit it by hand: {_key(name)} = {entry_toml(fields)} under [{section}]"
            if not deleted
            else f"delete {section}.{name} by hand",
        )


def _written_as(value: Any, fields: Fields | None, deleted: bool) -> bool:
    if deleted:
        return value is None
    if fields is None:
        return value is False
    if isinstance(value, str):
        return len(fields) == 1 and value == next(iter(fields.values()))
    return bool(value == fields)
