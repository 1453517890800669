"""Alias expansion as bash's parser does it, for commands pasted where the aliases do not exist.

Bash replaces an unquoted word in command position by the alias's value and reads the value as
if it had been typed, so a value can start with another alias. While a value is being read its
own alias is switched off (``alias ls='ls -F'`` terminates), and when a value ends in a blank the
word after it is also looked up (``alias sudo='sudo '``). The model below follows parse.y's
pushed-string stack: an alias stays switched off until its value is fully read.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from dotdbg.aliases.shellwords import (
    BLANKS,
    METACHARACTERS,
    arithmetic_end,
    ends_open,
    is_assignment,
    operator_at,
    scan_word,
    substitutions,
)

# Tokens after which a word is in command position (parse.y reserved_word_acceptable, minus
# `;;`, `;&` and `;;&` which precede a case pattern).
_COMMAND_STARTERS = frozenset(
    ("", "\n", ";", "(", ")", "|", "&", "{", "}", "&&", "||", "!", "|&",
     "do", "done", "elif", "else", "esac", "fi", "if", "then", "time", "until", "while", "coproc")
)  # fmt: skip
_REDIRECTIONS = frozenset("< > >> >| <> <& >& &> &>> << <<- <<<".split())
_RESERVED = frozenset(
    "if then else elif fi case esac for select while until do done in function time { } ! [[ ]]"
    " coproc".split()
)
# parse.y time_command_acceptable: right after a pipe, `time` is /usr/bin/time, not the keyword.
_NOT_BEFORE_TIME = frozenset(["|", "|&"])
_END_OF_ALIAS = "\0"  # the blank bash slips in after a value ending inside a word; never printed
_CASE_ENDS = frozenset([";;", ";&", ";;&"])  # end a case clause: a pattern list comes next


@dataclass(frozen=True)
class Expansion:
    text: str
    aliases: tuple[str, ...]  # in the order bash expanded them
    functions: tuple[str, ...]  # functions run by the command, named not inlined
    # Aliases whose value ends inside a quote or `$(`: bash reads on into the text after them,
    # across the alias, which this model does not follow. The text may differ from bash's.
    open_ended: tuple[str, ...] = ()


@dataclass
class _Frame:
    text: str
    alias: str = ""
    expand_next: bool = False
    pos: int = 0
    blank_added: bool = False

    def needs_end_blank(self) -> bool:
        """parse.y adds a blank after a value whose last character would not end a word."""
        if not self.alias or not self.text or self.blank_added or self.pos < len(self.text):
            return False
        last = self.text[-1]
        trailing_backslashes = len(self.text) - len(self.text.rstrip("\\"))
        return last not in METACHARACTERS and trailing_backslashes % 2 == 0


@dataclass
class _Expander:
    aliases: Mapping[str, str]
    functions: Collection[str]
    frames: list[_Frame]
    out: list[str] = field(default_factory=list)
    expanded: list[str] = field(default_factory=list)
    called: list[str] = field(default_factory=list)
    open_ended: list[str] = field(default_factory=list)
    last_token: str = ""
    expand_next_word: bool = False
    only_redirections: bool = False  # `>log ll`: the command word may follow redirections
    popped_after_blank: bool = False
    # parse.y's PST_ENDALIAS: one added blank at a time, until the next value is left. A value
    # ending inside another one's last word is therefore left without one (`! ! b` below).
    end_blank_pending: bool = False
    heredoc_ends: list[tuple[str, bool]] = field(default_factory=list)  # (delimiter, strip tabs)
    # One per open `case`: "subject" (its word), "in", "pattern" (`(a|b)`), "body" (commands).
    cases: list[str] = field(default_factory=list)

    def peek(self) -> str:
        """The next character ('' at the end), leaving finished alias values on the way."""
        while True:
            frame = self.frames[-1]
            if frame.pos < len(frame.text):
                return frame.text[frame.pos]
            if not self.end_blank_pending and frame.needs_end_blank():
                return _END_OF_ALIAS
            if len(self.frames) == 1:
                return ""
            self.leave_value()

    def leave_value(self) -> None:
        frame = self.frames.pop()
        self.end_blank_pending = False
        self.expand_next_word = frame.expand_next
        self.popped_after_blank = bool(self.out) and self.out[-1][-1:] in BLANKS

    def emit(self, text: str) -> None:
        if self.popped_after_blank and text in BLANKS:
            text = ""  # `alias a='ls '` then `a  x`: one blank between the words is enough
        self.popped_after_blank = False
        self.out.append(text)

    def run(self) -> Expansion:
        while char := self.peek():
            frame = self.frames[-1]
            if char == _END_OF_ALIAS:
                self.add_end_blank(frame)
            elif char in BLANKS:
                frame.pos += 1
                self.emit(char)
            elif char == "#":
                self.comment(frame)
            elif char == "(" and self.arithmetic(frame):
                pass
            elif operator := operator_at(frame.text, frame.pos):
                self.operator(frame, operator)
            else:
                self.word(frame)
        return Expansion(
            "".join(self.out), tuple(self.expanded), tuple(self.called), tuple(self.open_ended)
        )

    def add_end_blank(self, frame: _Frame) -> None:
        frame.blank_added = True
        self.end_blank_pending = True

    def command_position(self) -> bool:
        if self.last_token in _REDIRECTIONS:
            return False  # the word after `>` is a file name
        return (
            self.only_redirections
            or self.last_token in _COMMAND_STARTERS
            or (self.last_token == "=")
        )

    def arithmetic(self, frame: _Frame) -> bool:
        """``(( … ))`` where a command starts, or after ``for``: arithmetic, not commands (but
        its ``$(…)`` are run)."""
        end = arithmetic_end(frame.text, frame.pos)
        if end < 0 or not (self.command_position() or self.last_token == "for"):
            return False
        self.emit(self.inside_substitutions(frame.text[frame.pos : end]))
        frame.pos = end
        # `for ((…)) do` needs no `;`: the next word may be `do`.
        self.last_token = ";" if self.last_token == "for" else "word"
        self.only_redirections = False
        return True

    def operator(self, frame: _Frame, operator: str) -> None:
        frame.pos += len(operator)
        self.emit(operator)
        if self.cases and (self.cases[-1], operator) == ("pattern", ")"):
            self.cases[-1] = "body"
        elif self.cases and self.cases[-1] == "body" and operator in _CASE_ENDS:
            self.cases[-1] = "pattern"
        if operator == "\n" or operator in _REDIRECTIONS:
            self.expand_next_word = False  # as bash 5.2 does; `;` and `|` keep the flag
        # Redirections before the command word keep its position open, unless an assignment
        # came first: bash reads `X=1 >log ll` (and `>log X=1 >o ll`) with ll as an argument.
        self.only_redirections = operator in _REDIRECTIONS and (
            self.only_redirections or self.last_token in _COMMAND_STARTERS
        )
        self.last_token = operator
        if operator == "\n" and self.heredoc_ends:
            self.heredoc_bodies(frame)

    def heredoc_bodies(self, frame: _Frame) -> None:
        """Copy the here-documents that start after this newline: their lines are no commands."""
        for delimiter, strip_tabs in self.heredoc_ends:
            while frame.pos < len(frame.text):
                end = frame.text.find("\n", frame.pos)
                end = len(frame.text) if end < 0 else end + 1
                line = frame.text[frame.pos : end]
                self.emit(line)
                frame.pos = end
                if (line.lstrip("\t") if strip_tabs else line).rstrip("\n") == delimiter:
                    break
        self.heredoc_ends.clear()

    def comment(self, frame: _Frame) -> None:
        end = frame.text.find("\n", frame.pos)
        end = len(frame.text) if end < 0 else end
        self.emit(frame.text[frame.pos : end])
        frame.pos = end

    def word(self, frame: _Frame) -> None:
        word = scan_word(frame.text, frame.pos)
        text = frame.text[word.start : word.end]
        frame.pos = word.end
        if frame.needs_end_blank():
            if self.end_blank_pending:
                # No blank this time: bash leaves the value while ending the word, so the
                # alias is looked up again (`alias gs=b b='! b'` reads `! ! b`).
                self.leave_value()
            else:
                self.add_end_blank(frame)  # it ends the word before bash looks the word up
        if _is_fd_number(text, frame):
            self.emit(text)  # the 2 of `2>&1` belongs to the redirection
            return
        if self.cases and self.cases[-1] != "body":
            self.case_word(text, word.quoted)
            return
        command_position = self.command_position()
        eligible = (self.expand_next_word or command_position) and not word.quoted
        active = {f.alias for f in self.frames}
        if eligible and text in self.aliases and text not in active:
            self.push_alias(text)  # the value's first word is looked up as this one was
            return
        if not word.quoted:  # parse.y skips the alias step, flag included, for a quoted word
            self.expand_next_word = False
        self.emit(self.inside_substitutions(text))
        self.advance(text, command_position and not word.quoted)

    def case_word(self, text: str, quoted: bool) -> None:
        """A word of ``case WORD in (PATTERN | PATTERN)``: never a command."""
        self.emit(self.inside_substitutions(text))
        self.expand_next_word = False
        state = self.cases[-1]
        if state == "subject":
            self.cases[-1] = "in"
        elif state == "in" and text == "in" and not quoted:
            self.cases[-1] = "pattern"
        elif state == "pattern" and text == "esac" and not quoted and self.last_token != "|":
            self.cases.pop()
            self.last_token = "esac"
            return
        self.last_token = "pattern"

    def advance(self, text: str, command_word: bool) -> None:
        """The state a word that stays as typed leaves for the next one."""
        if self.last_token in ("<<", "<<-"):
            self.heredoc_ends.append((_unquoted(text), self.last_token == "<<-"))
        if self.last_token == "function":
            self.last_token = "function name"  # then `{` opens the body
        elif self.last_token in ("function name", "coproc name") and text == "{":
            self.last_token = "{"
        elif self.last_token in _REDIRECTIONS:
            self.last_token = "file"  # `>log`: the command word may still come
        elif command_word:
            self.classify(text)
            self.only_redirections = False
        else:
            self.last_token = "word"
            self.only_redirections = False

    def inside_substitutions(self, text: str) -> str:
        """``text`` with the commands of its ``$(…)`` and backquotes expanded: bash parses those
        afresh when it runs them, with the aliases it has then."""
        for start, end in reversed(substitutions(text)):
            inner = expand(text[start:end], self.aliases, self.functions)
            self.expanded.extend(inner.aliases)
            self.called.extend(inner.functions)
            self.open_ended.extend(inner.open_ended)
            text = text[:start] + inner.text + text[end:]
        return text

    def classify(self, text: str) -> None:
        """What an unquoted word in command position makes of the next one."""
        if text == "time" and self.last_token in _NOT_BEFORE_TIME:
            self.last_token = "word"
        elif self.last_token == "time" and text in ("-p", "--"):
            pass  # `time -p ll`: ll is the command
        elif text in _RESERVED and self.last_token in _COMMAND_STARTERS:
            self.last_token = text  # not after `X=1` or `>log`: there `!` or `if` is a command
            if text == "case":
                self.cases.append("subject")
            elif text == "esac" and self.cases:
                self.cases.pop()  # `a) ll; esac`: the last clause needs no `;;`
        elif self.last_token == "coproc":
            self.last_token = "coproc name"  # `coproc NAME { …; }`, or the command `coproc ls`
        elif is_assignment(text):
            self.last_token = "="  # `X=1 ll`: ll is still in command position
        else:
            self.last_token = "word"
            if text in self.functions:
                self.called.append(text)

    def push_alias(self, name: str) -> None:
        value = self.aliases[name]
        self.expanded.append(name)
        if ends_open(value):
            self.open_ended.append(name)
        self.frames.append(_Frame(value, name, expand_next=value[-1:] in BLANKS))


def _unquoted(word: str) -> str:
    """A here-document delimiter as bash compares it: quotes removed."""
    return re.sub(r"""\\(.)|['"]""", lambda match: match.group(1) or "", word)


def _is_fd_number(text: str, frame: _Frame) -> bool:
    after = frame.text[frame.pos : frame.pos + 1]
    return after in ("<", ">") and (text.isdigit() or (text[:1] == "{" and text[-1:] == "}"))


def expand(command: str, aliases: Mapping[str, str], functions: Collection[str] = ()) -> Expansion:
    """``command`` with its aliases expanded the way an interactive bash would."""
    return _Expander(aliases, functions, [_Frame(command)]).run()
