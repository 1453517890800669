"""Turning lookup results into text for the options: commands only, JSON, listings, picker
records. The plain and coloured text of a lookup is dotdbg.cheat.fast's (the warm path).

Every function returns a string; printing is the caller's business.
"""

from __future__ import annotations

from dotdbg.cheat.fast import sgr
from dotdbg.visible import is_plain, json_safe, one_line, visible

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Iterable

    from dotdbg.cheat.fast import Result, Sheet

# Picker records: what fzf shows, this separator, then the command to put on the prompt line.
PICK_SEPARATOR = "\x1f"


def format_commands(result: Result) -> str:
    return "".join(visible(entry[1]) + "\n" for group in result.groups for entry in group.hits)


def format_result_json(result: Result) -> str:
    import json

    records = [
        {
            "sheet": group.file.name,
            "label": group.file.label,
            "file": group.file.path,
            "line": line,
            "comment": comment,
            "command": command,
            "syntax": group.file.syntax,
            "tags": group.file.tags,
        }
        for group in result.groups
        for comment, command, line in group.hits
    ]
    return json_safe(json.dumps(records, indent=2, ensure_ascii=False)) + "\n"


# -- listing ---------------------------------------------------------------------------------
def _listing_rows(sheets: Iterable[Sheet]) -> list[tuple[str, str, str, str]]:
    return [
        (
            one_line(sheet.name),
            str(sum(1 for _ in sheet.entries())),
            one_line(", ".join(sheet.labels)),
            one_line(", ".join(sheet.tags)),
        )
        for sheet in sorted(sheets, key=lambda sheet: sheet.name)
    ]


def format_listing(sheets: Iterable[Sheet], color: bool) -> str:
    rows = [("sheet", "entries", "paths", "tags"), *_listing_rows(sheets)]
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    lines = []
    for number, (name, count, labels, tags) in enumerate(rows):
        line = f"{name:<{widths[0]}}  {count:>{widths[1]}}  {labels:<{widths[2]}}  {tags}".rstrip()
        lines.append(sgr("1", line) if color and number == 0 else line)
    return "\n".join(lines) + "\n"


def format_listing_json(sheets: Iterable[Sheet]) -> str:
    import json

    records = [
        {
            "name": sheet.name,
            "entries": sum(1 for _ in sheet.entries()),
            "tags": sheet.tags,
            "paths": [
                {"label": file.label, "file": file.path, "readonly": file.readonly}
                for file in sheet.files
            ],
        }
        for sheet in sorted(sheets, key=lambda sheet: sheet.name)
    ]
    return json_safe(json.dumps(records, indent=2, ensure_ascii=False)) + "\n"


def format_names(names: Iterable[str]) -> str:
    """One name a line; a name holding a control character (a newline) cannot be one, and is
    left out: the listing shows it escaped."""
    return "".join(f"{name}\n" for name in sorted(names) if is_plain(name))


# -- picker ----------------------------------------------------------------------------------
def joined(text: str) -> str:
    """A command's lines on one line: continuation backslashes dropped, indents squeezed."""
    return " ".join(line.rstrip("\\").strip() for line in text.split("\n"))


def pick_records(result: Result, shell: str = "bash") -> list[tuple[str, str]]:
    """(what a picker shows, the command it puts on the line): one record per command.

    An entry holding several commands gives one record each, so a pick puts one command on
    the line; a shell command that would fail in ``shell`` (bash's ``bind -q`` in fish) gives
    none. Both parts are ``visible``: a control character in a sheet, NUL and the record
    separator among them, is written out as ``\\xNN``, so a record can never show one command
    and insert another."""
    from dotdbg.cheat.commands import SHELL, entry_syntax, split  # a picker's work
    from dotdbg.cheat.shellfit import bash_only

    records = []
    for group in result.groups:
        for comment, command, _ in group.hits:
            syntax = entry_syntax(comment, group.file.syntax)
            parts = split(command, syntax)
            for number, part in enumerate(parts, 1):
                if syntax == SHELL and bash_only(part, shell):
                    continue
                count = f" ({number}/{len(parts)})" if len(parts) > 1 else ""
                shown = f"{group.file.name:<10} {joined(part)}  # {joined(comment)}{count}"
                records.append((one_line(shown), visible(part)))
    return records


def format_pick(result: Result, shell: str = "bash") -> str:
    """``--pick``: NUL-terminated records ``display <US> command`` for fzf and other widgets."""
    records = pick_records(result, shell)
    return "".join(f"{shown}{PICK_SEPARATOR}{command}\0" for shown, command in records)
