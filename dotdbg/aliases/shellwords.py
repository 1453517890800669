"""Where bash's words and operators begin and end, without running anything.

Enough of bash's tokenizer for history lines and alias values: quotes, backslashes, ``$'…'``,
``$(…)``, ``${…}``, backquotes and process substitution stay inside one word; blanks and the
metacharacters ``| & ; ( ) < >`` and newline end it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

BLANKS = " \t"
METACHARACTERS = "|&;()<> \t\n"
# Longest first, so that `;;&` is not read as `;;` then `&`.
OPERATORS = (
    ";;&", "<<-", "<<<", "&>>",
    "&&", "||", ";;", ";&", "|&", "<<", ">>", "<&", ">&", "<>", ">|", "&>",
    "|", "&", ";", "(", ")", "<", ">", "\n",
)  # fmt: skip
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
_ARRAY_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_CLOSERS = {"(": ")", "{": "}"}


@dataclass(frozen=True)
class Word:
    start: int
    end: int
    quoted: bool
    open: bool = False  # the text ends inside one of its quotes, backquotes or `$(`


def is_assignment(word: str) -> bool:
    return _ASSIGNMENT.match(word) is not None


def operator_at(text: str, pos: int) -> str:
    """The operator that starts at ``pos``, or "" when a word (or a blank) starts there."""
    if text.startswith(("<(", ">("), pos):
        return ""  # process substitution is part of a word
    return next((op for op in OPERATORS if text.startswith(op, pos)), "")


def scan_word(text: str, pos: int) -> Word:
    """The word that starts at ``pos``: it ends at the first unquoted blank or metacharacter."""
    start, quoted, char = pos, False, ""
    while pos < len(text):
        char = text[pos]
        if char == "(" and _ARRAY_ASSIGNMENT.fullmatch(text, start, pos):
            pos = _skip_group(text, pos)  # `x=(a b)` is one word, its elements no commands
        elif char in METACHARACTERS and not text.startswith(("<(", ">("), pos):
            break
        elif char == "\\":
            quoted = quoted or text[pos + 1 : pos + 2] not in ("\n", "")
            pos += 2
        elif char in "'\"" or text.startswith(("$'", '$"'), pos):
            quoted = True
            pos = _skip_quoted(text, pos + (char == "$"), ansi_c=text.startswith("$'", pos))
        elif char == "`":
            pos = _skip_backquotes(text, pos)
        elif text.startswith(("$(", "${", "<(", ">("), pos):
            pos = _skip_group(text, pos + 1)
        else:
            pos += 1
    # Past the end by a quote or group left open; a trailing backslash is no such thing.
    return Word(start, min(pos, len(text)), quoted, open=pos > len(text) and char != "\\")


def _skip_quoted(text: str, pos: int, ansi_c: bool = False) -> int:
    """Past the quoted string opening at ``pos`` (``'`` or ``"``; ``$'…'`` has escapes)."""
    quote, pos = text[pos], pos + 1
    while pos < len(text) and text[pos] != quote:
        if text[pos] == "\\" and (quote == '"' or ansi_c):
            pos += 1
        elif quote == '"' and text.startswith(("$(", "${"), pos):
            pos = _skip_group(text, pos + 1) - 1
        pos += 1
    return pos + 1


def _skip_backquotes(text: str, pos: int) -> int:
    pos += 1
    while pos < len(text) and text[pos] != "`":
        pos += 2 if text[pos] == "\\" else 1
    return pos + 1


def _skip_group(text: str, pos: int) -> int:
    """Past the ``(…)`` or ``{…}`` opening at ``pos``, nested groups and quotes included."""
    closer, depth, pos = _CLOSERS[text[pos]], 1, pos + 1
    opener = text[pos - 1]
    while pos < len(text) and depth:
        char = text[pos]
        if char == "\\":
            pos += 2
            continue
        if char in "'\"`":
            pos = _skip_backquotes(text, pos) if char == "`" else _skip_quoted(text, pos)
            continue
        depth += (char == opener) - (char == closer)
        pos += 1
    return len(text) + 1 if depth else pos  # past the end: never closed


def arithmetic_end(text: str, pos: int) -> int:
    """Past the ``(( … ))`` opening at ``pos``, or -1 when the parentheses are nested subshells.

    Bash reads ``((`` as arithmetic when the ``)`` that closes the second ``(`` is followed at
    once by another ``)``: ``(( ll ))`` is arithmetic, ``((ll) )`` two subshells.
    """
    if not text.startswith("((", pos):
        return -1
    end = _skip_group(text, pos + 1)
    return end + 1 if text[end : end + 1] == ")" else -1


def ends_open(text: str) -> bool:
    """Whether ``text`` ends inside a word's quote, backquote or ``$(…)``.

    Bash reads an alias value as if typed, so such a word goes on into the text after the alias.
    """
    pos, word = 0, None
    while pos < len(text):
        if text[pos] in BLANKS:
            pos += 1
        elif text[pos] == "#":  # a comment, where a word may start
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
        elif operator := operator_at(text, pos):
            pos += len(operator)
        else:
            word = scan_word(text, pos)
            pos = max(word.end, pos + 1)
    return word is not None and word.open


def command_words(text: str) -> tuple[list[Word], bool]:
    """The words of the first simple command in ``text``, and whether anything follows it."""
    words: list[Word] = []
    pos = 0
    while pos < len(text):
        if text[pos] in BLANKS:
            pos += 1
        elif text[pos] == "#":
            break  # a comment runs to the end of the line
        elif operator_at(text, pos):
            return words, True
        else:
            words.append(scan_word(text, pos))
            pos = max(words[-1].end, pos + 1)
    return words, False


def substitutions(word: str) -> list[tuple[int, int]]:
    """Where the commands inside ``$(…)``, backquotes, ``<(…)`` and ``>(…)`` of ``word`` are.

    Spans of the inner text, outermost only; single-quoted text has none. ``$((…))`` is
    arithmetic, not a command.
    """
    spans: list[tuple[int, int]] = []
    pos, in_double = 0, False
    while pos < len(word):
        char = word[pos]
        if char == "\\":
            pos += 2
        elif char == '"':
            in_double, pos = not in_double, pos + 1
        elif char == "'" and not in_double:
            pos = _skip_quoted(word, pos, ansi_c=word[pos - 1 : pos] == "$")
        elif word.startswith(("$(", "<(", ">("), pos) and not word.startswith("$((", pos):
            end = _skip_group(word, pos + 1)
            spans.append((pos + 2, end - 1))
            pos = end
        elif char == "`":
            end = _skip_backquotes(word, pos)
            spans.append((pos + 1, end - 1))
            pos = end
        else:
            pos += 1
    return spans
