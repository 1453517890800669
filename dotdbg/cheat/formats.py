"""Sheets people already have: tldr pages (``*.md``) and navi cheats (``*.cheat``).

Both become the same parsed sheet as cheat's format, so a cheat path can point at a checkout of
tldr-pages or of a navi cheat repository as it is. Placeholders are shown as dotdbg's
``<name>``: tldr writes ``{{name}}`` (and ``{{[-v|--verbose]}}`` for an option's short and long
spellings, shown long), navi already writes ``<name>``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from dotdbg.cheat.sheets import ParsedSheet

TLDR_SUFFIX = ".md"
NAVI_SUFFIXES = (".cheat", ".cheat.md")
# tldr-pages keeps one folder per platform; a client shows common pages and its own platform's.
TLDR_PLATFORMS = {
    "common",
    "linux",
    "osx",
    "windows",
    "android",
    "sunos",
    "freebsd",
    "netbsd",
    "openbsd",
    "cisco-ios",
    "dos",
}
OWN_PLATFORMS = {"common", {"darwin": "osx", "win32": "windows"}.get(sys.platform, sys.platform)}


class NotASheet(ValueError):
    """A file with a sheet's name that holds no sheet (a README.md next to the pages)."""


def format_of(file_name: str) -> str:
    """ "navi", "tldr", "cheat", or "" for a file no format reads (a dotted name)."""
    if file_name.endswith(NAVI_SUFFIXES):
        return "navi"
    if file_name.endswith(TLDR_SUFFIX):
        return "tldr"
    return "" if "." in file_name else "cheat"


def sheet_name(file_name: str) -> str:
    for suffix in (*NAVI_SUFFIXES, TLDR_SUFFIX):
        if file_name.endswith(suffix):
            return file_name[: -len(suffix)]
    return file_name


def foreign_platform(folder: str) -> bool:
    """A tldr platform folder that is not this machine's (osx pages on Linux)."""
    return folder in TLDR_PLATFORMS and folder not in OWN_PLATFORMS


# -- tldr ---------------------------------------------------------------------------------------
def parse_tldr(text: str) -> ParsedSheet:
    """``# name``, ``> description`` lines, then ``- what it does:`` and a `` `command` ``."""
    from dotdbg.cheat.sheets import ParsedSheet, SheetError  # only when a page is (re)parsed

    lines = [line.rstrip() for line in text.split("\n")]
    body = [line for line in lines if line]
    if not body or not body[0].startswith("# ") or not any(line.startswith(">") for line in body):
        raise NotASheet("not a tldr page")
    entries = []
    comment, comment_line = "", 0
    for number, line in enumerate(lines, 1):
        if line.startswith("- "):
            comment, comment_line = _tldr_text(line[2:].rstrip(":")), number
        elif line.startswith("`") and line.endswith("`") and len(line) > 1 and comment:
            entries.append((comment, tldr_command(line[1:-1]), comment_line))
            comment = ""
    if not entries:
        raise SheetError("a tldr page without `command` lines after its - descriptions", 1, 1)
    return ParsedSheet("bash", [], entries, {})


def tldr_command(command: str) -> str:
    """``{{path/to/file}}`` becomes ``<path/to/file>``; ``{{[-v|--verbose]}}`` ``--verbose``."""
    out = []
    rest = command
    while "{{" in rest:
        before, _, after = rest.partition("{{")
        inner, closed, rest = after.partition("}}")
        if not closed:
            rest = before + "{{" + after
            break
        out.append(before + _tldr_placeholder(inner))
    return "".join(out) + rest


def _tldr_placeholder(inner: str) -> str:
    if inner.startswith("[") and inner.endswith("]") and "|" in inner:
        return inner[1:-1].split("|")[-1]  # the long spelling reads best
    return f"<{inner}>"


def _tldr_text(description: str) -> str:
    """A description without its markdown: `code` marks and [c]reate mnemonic brackets."""
    text = description.replace("`", "")
    out = []
    index = 0
    while index < len(text):
        if text[index] == "[" and text[index + 2 : index + 3] == "]" and text[index + 1].isalnum():
            out.append(text[index + 1])
            index += 3
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


# -- navi ---------------------------------------------------------------------------------------
def parse_navi(text: str) -> ParsedSheet:
    """``% tags``, ``# description``, command lines; ``$`` variables, ``;`` notes and ``@``
    extensions are navi's own and left out; a ``` fence may hold the command."""
    from dotdbg.cheat.sheets import ParsedSheet  # only when a cheat is (re)parsed

    tags: list[str] = []
    entries: list[tuple[str, str, int]] = []
    comment, first, commands, fenced = "", 0, [], False
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip()
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            commands.append(line)
            continue
        if not line.strip() or line[0] in "%#$;@":
            if commands:
                entries.append((comment, "\n".join(commands).strip("\n"), first))
                comment, commands = "", []
            if line.startswith("%"):
                tags += [tag.strip() for tag in line[1:].split(",") if tag.strip()]
            elif line.startswith("#"):
                comment, first = line[1:].strip(), number
            continue
        if not commands and not comment:
            first = number
        commands.append(line)
    if commands:
        entries.append((comment, "\n".join(commands).strip("\n"), first))
    return ParsedSheet("bash", list(dict.fromkeys(tags)), entries, {})
