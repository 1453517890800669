"""``dotdbg cheat --lint``: what is wrong with each entry, as ``file:line:col`` lines.

Errors: a command that does not parse for its syntax (``bash -n``, Python's compiler, pdb's
commands), an entry without a comment, an entry holding two commands, malformed front matter
or placeholders. Warnings, only for sheets the user can edit: a program that is not on PATH
here (a typo, or a tool of the cluster). A read-only sheet (the built-in ones, a configured
path with ``readonly = true``) names tools this machine may lack on purpose: not a problem.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass

from dotdbg.aliases.shadows import BASH_BUILTINS, BASH_KEYWORDS
from dotdbg.cheat.commands import LEADING, entry_syntax, entry_tags, is_table, split
from dotdbg.cheat.fast import placeholder_spans
from dotdbg.cheat.index import read_record

ERROR = "error"
WARNING = "warning"
# Bash's keywords and builtins (listed in dotdbg.aliases.shadows): never looked up on PATH.
SHELL_WORDS = BASH_BUILTINS | BASH_KEYWORDS | {".", ":", "["}
# Commands that run the next word as the program.
WRAPPERS = {"sudo", "env", "nohup", "exec", "command", "time", "nice", "stdbuf", "xargs", "timeout"}
OPTIONS_WITH_VALUES = {"-s", "-k", "-n", "-u", "-I", "-P", "--signal"}  # timeout, nice, sudo, xargs
PDB_COMMANDS = set(
    """h help w where bt d down u up b break tbreak cl clear disable enable ignore condition
    commands s step n next unt until j jump l list ll longlist a args p pp whatis source display
    undisplay interact alias unalias debug q quit exit restart run r return c cont continue
    retval rv exceptions end silent""".split()
)


@dataclass(frozen=True)
class Problem:
    path: str
    line: int
    column: int
    level: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.level}: {self.message}"


def lint_file(path: str, check_programs: bool = True) -> list[Problem]:
    record = read_record(path)
    if isinstance(record, list):  # the file could not be used at all
        if not record:
            return []  # no sheet at all (a README.md beside tldr pages)
        location, problem = record
        row, _, column = location.lstrip(":").partition(":")
        return [Problem(path, int(row or 1), int(column or 1), ERROR, problem)]
    syntax, _, entries, _ = record
    problems: list[Problem] = []
    for comment, command, line in entries:
        problems += lint_entry(path, syntax, comment, command, line, check_programs)
    problems += _bash_errors(path, syntax, entries)
    problems += _gdb_errors(path, syntax, entries)
    return sorted(problems, key=lambda problem: (problem.line, problem.column))


def lint_entry(
    path: str, syntax: str, comment: str, command: str, line: int, check_programs: bool = True
) -> list[Problem]:
    """Every problem of one entry but bash's syntax errors (one bash checks the whole sheet)."""
    command_line = line + (comment.count("\n") + 1 if comment else 0)
    problems = []
    if not comment:
        problems.append(Problem(path, line, 1, ERROR, "no comment: say in a # line what it does"))
    where = entry_syntax(comment, syntax)
    commands = split(command, where)
    if len(commands) > 1 and not is_table(commands):
        second = command_line + command[: command.index(commands[1])].count("\n")
        problems.append(
            Problem(
                path,
                second,
                1,
                ERROR,
                f"{len(commands)} commands in one entry: give each its own comment (a picker "
                "puts one command on the line), join them with && or ;, or end each line with "
                "its own aligned '  # comment'",
            )
        )
    problems += _placeholder_problems(path, command, command_line)
    if where == "python":
        problems += _python_errors(path, command, command_line)
    elif where in ("pdb", "pdbrc"):
        problems += _pdb_errors(path, command, command_line)
    elif where == "bash" and check_programs and "extra" not in entry_tags(comment):
        problems += _missing_programs(path, commands, command_line)
    return problems


# -- placeholders ---------------------------------------------------------------------------------
def _placeholder_problems(path: str, command: str, first_line: int) -> list[Problem]:
    problems = []
    for number, text in enumerate(command.split("\n")):
        for column, message in placeholder_faults(text):
            problems.append(Problem(path, first_line + number, column, ERROR, message))
    return problems


def placeholder_faults(text: str) -> list[tuple[int, str]]:
    """(1-based column, problem) of each malformed ``<name>`` placeholder in one line."""
    faults = []
    for index, char in enumerate(text):
        if char != "<":
            continue
        after = text[index + 1 : index + 2]
        if after == ">":
            faults.append((index + 1, "an empty placeholder <>: name the value to fill in"))
        elif (after.isalpha() or after == "_") and index and text[index - 1] in "=:/,'\"(":
            closing = text.find(">", index)
            space = min((text.find(c, index) for c in " \t" if c in text[index:]), default=-1)
            if closing < 0 or (0 <= space < closing):
                faults.append((index + 1, "a placeholder that is never closed: write <name>"))
    return faults


def without_placeholders(command: str) -> str:
    """``<name>`` becomes a plain word, so a parser judges the command around it."""
    out, position = [], 0
    for start, end in placeholder_spans(command):
        out.append(command[position:start] + "placeholder")
        position = end
    return "".join(out) + command[position:]


# -- syntax ---------------------------------------------------------------------------------------
def _python_errors(path: str, command: str, first_line: int) -> list[Problem]:
    try:
        compile(without_placeholders(command) + "\n", path, "exec")
    except SyntaxError as error:
        line = first_line + (error.lineno or 1) - 1
        return [Problem(path, line, error.offset or 1, ERROR, f"Python: {error.msg}")]
    return []


def _pdb_errors(path: str, command: str, first_line: int) -> list[Problem]:
    problems = []
    for number, text in enumerate(command.split("\n")):
        for part in text.split(";;"):
            message = pdb_fault(part.strip())
            if message:
                problems.append(Problem(path, first_line + number, 1, ERROR, message))
    return problems


def pdb_fault(command: str) -> str:
    """Why pdb would not take ``command``, or "" (what is not a pdb command runs as Python):
    the command's name, and the Python it holds (``p EXPR``, ``condition N EXPR``, ``b WHERE,
    EXPR``, ``debug CODE``, an alias's body with its ``%1``/``%*`` filled in)."""
    if not command:
        return ""
    word, _, rest = command.partition(" ")
    rest = rest.strip()
    if word in PDB_COMMANDS:
        python = _python_in(word, rest)
        if python is None:
            return ""
        code, mode = python
        if mode == "alias":
            return next(filter(None, (pdb_fault(part.strip()) for part in code.split(";;"))), "")
        return _python_fault(word, code, mode)
    code = command[1:] if command.startswith("!") else command
    fault = _python_fault(word, code, "single")
    return f"pdb: {word!r} is no pdb command and not Python ({fault})" if fault else ""


EXPRESSION_COMMANDS = {"p", "pp", "whatis", "display"}


def _python_in(word: str, rest: str) -> tuple[str, str] | None:
    """(the Python a pdb command holds, how to compile it), or None."""
    if word in EXPRESSION_COMMANDS and rest:
        return rest, "eval"
    if word == "condition" and " " in rest:
        return rest.split(" ", 1)[1], "eval"
    if word in ("b", "break", "tbreak") and "," in rest:
        return rest.split(",", 1)[1], "eval"
    if word == "debug" and rest:
        return rest, "single"
    if word == "alias" and " " in rest:
        return re.sub(r"%(\d+|\*)", "placeholder", rest.split(" ", 1)[1]), "alias"
    return None


def _python_fault(word: str, code: str, mode: str) -> str:
    """Python's complaint about ``code`` ("" for none); pdb's ``$_name`` (3.12+) is a name."""
    code = re.sub(r"\$(_\w+)", r"\1", without_placeholders(code).strip())
    try:
        compile(code + "\n" if mode != "eval" else code, "<pdb>", mode)
    except SyntaxError as error:
        return f"pdb: Python in {word!r}: {error.msg}" if word in PDB_COMMANDS else error.msg
    return ""


def _bash_errors(path: str, syntax: str, entries: list[tuple[str, str, int]]) -> list[Problem]:
    """``bash -n`` of the shell entries: once for the sheet, then per entry if that fails."""
    shell = [
        (line + (comment.count("\n") + 1 if comment else 0), without_placeholders(command))
        for comment, command, line in entries
        if entry_syntax(comment, syntax) == "bash"
    ]
    if not shell or not bash_error("\n".join(text for _, text in shell) + "\n"):
        return []
    problems = []
    for line, text in shell:
        error = bash_error(text + "\n")
        if error:
            offset, message = _bash_line(error)
            problems.append(Problem(path, line + offset, 1, ERROR, f"bash: {message}"))
    return problems


def _gdb_errors(path: str, syntax: str, entries: list[tuple[str, str, int]]) -> list[Problem]:
    """What gdb says of the ``[gdb]`` entries' commands: one gdb for the sheet. A ``[gdb gpu]``
    entry is cuda-gdb's (``info cuda kernels``): plain gdb does not know it."""
    commands = []  # (line, command) of each command of each gdb entry
    for comment, command, line in entries:
        if entry_syntax(comment, syntax) != "gdb" or "gpu" in entry_tags(comment):
            continue
        first = line + (comment.count("\n") + 1 if comment else 0)
        text = without_placeholders(command)
        for part in split(text, "gdb"):
            commands.append((first + text[: text.index(part)].count("\n"), part))
    if not commands:
        return []
    from dotdbg.cheat.gdblint import gdb_faults

    faults = gdb_faults([part for _, part in commands])
    return [
        Problem(path, line, 1, ERROR, fault)
        for (line, _), fault in zip(commands, faults)  # noqa: B905 (no strict= in 3.8)
        if fault
    ]


def bash_error(script: str) -> str:
    """What ``bash -n`` says (a warning counts: an unclosed here-document only warns)."""
    # errors="replace": past an unterminated `[[ '` bash names byte 0xff, which is not UTF-8
    done = subprocess.run(
        ["bash", "-n"], input=script, capture_output=True, text=True, errors="replace"
    )
    return done.stderr.strip() or (f"bash -n exited {done.returncode}" if done.returncode else "")


def _bash_line(error: str) -> tuple[int, str]:
    """(0-based line within the entry, message) from ``bash: line 2: syntax error ...``."""
    first = error.splitlines()[0]
    head, _, rest = first.partition(": line ")
    number, _, message = rest.partition(": ")
    if head and number.isdigit():
        return int(number) - 1, message
    return 0, first


# -- programs -------------------------------------------------------------------------------------
def _missing_programs(path: str, commands: list[str], first_line: int) -> list[Problem]:
    missing = {program for command in commands for program in programs_of(command)}
    return [
        Problem(path, first_line, 1, WARNING, f"{program!r} is not on PATH on this machine")
        for program in sorted(missing)
        if "/" not in program and shutil.which(program) is None
    ]


def program_of(command: str) -> str:
    """The program the first simple command of ``command`` starts; "" if none."""
    return next(iter(programs_of(command)), "")


def programs_of(command: str) -> list[str]:
    """The program each simple command of the first line starts (``clear; python3 x`` starts
    clear and python3), past assignments and wrappers like sudo."""
    lexer = shlex.shlex(command.split("\n", 1)[0], posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        words = list(lexer)
    except ValueError:  # an unclosed quote: bash -n reports it
        return []
    programs: list[str] = []
    simple: list[str] = []
    redirected = False
    for word in [*words, ";"]:
        if redirected:  # the file of `> out.txt`, not a word of the command
            redirected = False
        elif word and set(word) <= set("<>&") and set(word) & set("<>"):
            redirected = True
        elif word == "()":  # `name() { ...`: a definition, the name runs nothing
            simple = []
        elif word and set(word) <= set(";&|()"):
            programs.append(_program(simple))
            simple = []
        else:
            simple.append(word)
    return [program for program in programs if program]


def _program(words: list[str]) -> str:
    skip_value = False
    for word in words:
        if skip_value or "=" in word.split("/", 1)[0] or word.startswith("-"):
            skip_value = word in OPTIONS_WITH_VALUES
            continue  # VAR=value before the program, or a wrapper's option (and its value)
        if word in WRAPPERS or word in LEADING or word.replace(".", "").isdigit():
            continue  # sudo, timeout 600, then, do...
        return "" if word in SHELL_WORDS or not word[:1].isalnum() else word
    return ""
