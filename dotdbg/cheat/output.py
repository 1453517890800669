"""Turning lookup results into text: plain, ANSI-coloured, commands only, JSON, picker records.

Every function returns a string; printing is the caller's business.
"""

from __future__ import annotations

from dotdbg.visible import is_plain, json_safe, one_line, visible

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from dotdbg.cheat.search import Result, Sheet
    from dotdbg.cheat.sheets import Entry
    from dotdbg.cheat.terms import Matcher, Span

HEADER_STYLE = "1;35"
COMMENT_STYLE = "36"
MATCH_STYLE = "1;31"
PLACEHOLDER_STYLE = "32"
# Picker records: what fzf shows, this separator, then the command to put on the prompt line.
PICK_SEPARATOR = "\x1f"


def use_color(choice: str, stdout_is_tty: bool, env: Mapping[str, str]) -> bool:
    """``--color``: always and never win; auto means a terminal, no NO_COLOR, not TERM=dumb."""
    if choice != "auto":
        return choice == "always"
    return stdout_is_tty and not env.get("NO_COLOR") and env.get("TERM") != "dumb"


# -- highlighting ----------------------------------------------------------------------------
def _sgr(style: str, text: str) -> str:
    return f"\x1b[{style}m{text}\x1b[0m" if text else ""


def match_spans(text: str, matchers: Sequence[Matcher]) -> list[Span]:
    """Where any term matches ``text``, overlapping spans merged, in order."""
    spans = sorted(span for matcher in matchers for span in matcher.spans(text))
    merged: list[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def paint(text: str, base: str, matchers: Sequence[Matcher]) -> str:
    """``text`` in style ``base`` (placeholders green when base is ""), matches in bold red."""
    out = []
    position = 0
    for start, end in match_spans(text, matchers):
        out.append(_paint_plain(text[position:start], base))
        out.append(_sgr(MATCH_STYLE, text[start:end]))
        position = end
    out.append(_paint_plain(text[position:], base))
    return "".join(out)


def _paint_plain(text: str, base: str) -> str:
    if base:
        return _sgr(base, text)
    out = []
    position = 0
    for start, end in placeholder_spans(text):
        out.append(text[position:start] + _sgr(PLACEHOLDER_STYLE, text[start:end]))
        position = end
    return "".join(out) + text[position:]


def placeholder_spans(text: str) -> list[Span]:
    """Where ``<name>`` placeholders are; ``a < b``, ``2>&1`` and ``<<EOF`` are not ones."""
    spans = []
    start = text.find("<")
    while start >= 0:
        end = text.find(">", start + 1)
        if end < 0:
            break
        inner = text[start + 1 : end]
        if inner and "<" not in inner and (inner[0].isalnum() or inner[0] == "_"):
            spans.append((start, end + 1))
            start = text.find("<", end + 1)
        else:
            start = text.find("<", start + 1)
    return spans


# -- lookup results --------------------------------------------------------------------------
def header(name: str, label: str) -> str:
    return f"==> {one_line(name)} ({one_line(label)}) <=="


def format_entry(entry: Entry, matchers: Sequence[Matcher], color: bool) -> str:
    comment, command, _ = entry
    comment_lines = (
        [f"# {one_line(line)}".rstrip() for line in comment.split("\n")] if comment else []
    )
    command = visible(command)
    if not color:
        return "\n".join([*comment_lines, command])
    painted = [paint(line, COMMENT_STYLE, matchers) for line in comment_lines]
    painted += [paint(line, "", matchers) for line in command.split("\n")]
    return "\n".join(painted)


def format_result(result: Result, color: bool) -> str:
    blocks = []
    for group in result.groups:
        title = header(group.file.name, group.file.label)
        blocks.append(_sgr(HEADER_STYLE, title) if color else title)
        blocks.extend(format_entry(entry, result.matchers, color) + "\n" for entry in group.hits)
    return "\n".join(blocks)


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
        lines.append(_sgr("1", line) if color and number == 0 else line)
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
