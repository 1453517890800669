"""TAB completion, answered from the registry: ``dotdbg --complete WORD...``.

The shells' completion functions (the generated files) pass the words of the command line up
to the cursor's; the answer is one candidate a line (the shell keeps those that start with
the word being completed), or one directive for the shell to do itself: ``::dir`` and
``::file`` (paths after an option that takes one), ``::none`` (a value dotdbg cannot guess),
``::cheat`` (cheat's own completion, sheet names) and ``::aliases`` (the names of the
user's aliases, which the generated file lists). Derived at each TAB from the definitions, it
cannot drift from them; the files hold only the helpers' names and cheat's options (for the
``ch`` alias), from dotdbg.cli.registry and dotdbg.cheat.options.
"""

from __future__ import annotations

from dotdbg.cli.parser import Command, Group, Option
from dotdbg.cli.registry import COMMANDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

DIRECTIVE = {"dir": "::dir", "file": "::file", "value": "::none"}


def complete(words: Sequence[str]) -> list[str]:
    """The candidates for the last of ``words`` (``words[0]``: the program, as typed)."""
    from dotdbg.cli.registry import command

    program = words[0].rpartition("/")[2]
    at = 1
    if program == "dotdbg":
        if len(words) == 2:
            return sorted(COMMANDS)
        program, at = words[1], 2
    if program == "cheat":
        return ["::cheat"]
    if program not in COMMANDS:
        return ["::none"]
    found = command(program)
    if isinstance(found, Group):
        if len(words) == at + 1:
            return sorted(found.commands)
        sub = found.commands.get(words[at])
        if sub is None:
            return ["::none"]
        found, at = sub, at + 1
    return _for_command(found, words[at:])


def _for_command(command: Command, words: Sequence[str]) -> list[str]:
    """``words``: those after the command's name, the last one being completed."""
    *before, current = words
    if "--" in before:
        return ["::file"]
    if before:
        option = _option_named(command, before[-1])
        if option is not None and option.metavar is not None:
            follows = option.follows()
            return follows.split("|") if "|" in follows else [DIRECTIVE[follows]]
    if current.startswith("-"):
        shown = [o for o in command.options if not o.hidden]
        return [name for o in shown for name in o.names if name.startswith("--")] + ["--help"]
    if command.name == "aliases":
        return ["::aliases"]
    return ["::file"]


def _option_named(command: Command, word: str) -> Option | None:
    for option in command.options:
        if word in option.names:
            return option
    return None


def main(words: Sequence[str]) -> int:
    if words:
        print("\n".join(complete(words)))
    return 0
