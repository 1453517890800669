"""What zsh and fish need that bash does not: their quoting, their function definitions, their
key names and history options, and which functions each shell is left without. Pure."""

from __future__ import annotations

import re
from collections.abc import Sequence

from dotdbg.common.record import Record
from dotdbg.config.model import Alias, Config, Function, History
from dotdbg.shells.posix import indented
from dotdbg.shells.target import ShellTarget

ZSH_FILE = "dotdbg.zsh"
FISH_FILE = "dotdbg.fish"

# Words of a bash body that zsh reads without complaint and runs differently (or not at all).
BASH_ONLY = (
    r"\b(?:PIPESTATUS|BASH_REMATCH|BASHPID|BASH_SOURCE|BASH_ARGV|FUNCNAME|mapfile|readarray"
    r"|shopt|COMP_WORDS|COMPREPLY|READLINE_LINE|READLINE_POINT)\b|\$\{[^}]*@[QEPAaKk]\}"
)


# Names fish refuses for a function (its keywords and the builtins it will not let one hide):
# an alias or function of such a name is left out of fish. Found by asking fish 3.6 each one.
FISH_RESERVED = frozenset(
    "_ [ and argparse begin break builtin case command continue else end eval exec for function "
    "if not or read return set status string switch test time while".split()
)


def fishquote(value: str) -> str:
    """fish single quotes: only ``\\`` and ``'`` are special inside them."""
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


class LeftOut(Record):
    """A function a shell does not get, and why."""

    shell: str
    name: str
    why: str

    def warning(self, where: str) -> str:
        place = f"{where}: " if where else ""
        return f"{place}{self.shell} has no function {self.name}: {self.why}"


def left_out(config: Config, target: ShellTarget, fix: str = "") -> list[LeftOut]:
    """The functions of ``config`` that ``target``'s shell goes without. ``fix``: how to give
    one a body for that shell ({shell} and {name} filled in), instead of the config's key."""
    missing = []
    for function in config.functions:
        why = _why_left_out(function, target, fix)
        if why:
            missing.append(LeftOut(target.name, function.name, why))
    return missing


def _why_left_out(function: Function, target: ShellTarget, fix: str = "") -> str:
    refused = target.refuses(function)
    if refused:
        return refused
    if not body_of(function, target).strip():
        shell = target.name
        key = "body" if shell == "bash" else shell
        example = f"add {key} = '…' under [functions.{function.name}]"
        if fix and shell != "bash":
            example = fix.format(shell=shell, name=function.name)
        return f"it has no body for {shell} ({example})"
    return ""


def body_of(function: Function, target: ShellTarget) -> str:
    """The body ``target``'s shell gets ("" for none)."""
    return function.body_for(target.name, target.runs_bash_bodies)


def zsh_refuses(function: Function) -> str:
    """A bash body that uses what zsh does not have (zsh reads it and runs it differently)."""
    found = None if function.zsh is not None else re.search(BASH_ONLY, function.body)
    if found is None:
        return ""
    return (
        f"its bash body uses {found[0]}, which zsh does not have "
        f"(add zsh = '…' under [functions.{function.name}])"
    )


def fish_refuses(function: Function) -> str:
    return "fish reserves the name" if function.name in FISH_RESERVED else ""


def left_out_warnings(config: Config, shells: Sequence[ShellTarget]) -> list[str]:
    """What install says about the functions (and fish, aliases) each of ``shells`` goes
    without."""
    said = [
        item.warning(config.where(("functions", item.name)))
        for shell in shells
        for item in left_out(config, shell)
    ]
    if "fish" in {target.name for target in shells}:
        said += [
            f"{config.where(('aliases', alias.name))}: fish has no alias {alias.name}: "
            "fish reserves the name"
            for alias in config.aliases
            if alias.name in FISH_RESERVED
        ]
    return said


def fish_aliases(config: Config) -> list[Alias]:
    """The aliases fish gets: all but those of a name fish reserves."""
    return [alias for alias in config.aliases if alias.name not in FISH_RESERVED]


def kept_functions(config: Config, target: ShellTarget) -> list[Function]:
    dropped = {item.name for item in left_out(config, target)}
    return [function for function in config.functions if function.name not in dropped]


# -- zsh ---------------------------------------------------------------------------------------


def _indented(function: Function, target: ShellTarget) -> str:
    """The body for ``target``'s shell; dotdbg's own indented, the user's verbatim (indenting
    would change its heredocs and multi-line strings)."""
    body = body_of(function, target).strip("\n")
    if function.user_wrote(target.name):
        return body
    return indented(body)


def zsh_definition(function: Function, target: ShellTarget) -> str:
    """``function NAME { … }``: the keyword form, so that an alias NAME is not expanded in it."""
    body = _indented(function, target)
    name = function.name
    return (
        f"# {name}: {function.desc} [{function.pack}]\n"
        f"(( ${{+aliases[{name}]}} )) && unalias {name}\n"
        f"function {name} {{\n{body}\n}}\n"
    )


def zsh_history_size(size: int) -> int:
    """bash's -1 (no limit) in zsh terms: the largest size it takes."""
    return 2**31 - 1 if size < 0 else size


def zsh_history_options(history: History) -> list[str]:
    words = set(history.control.split(":"))
    if "ignoreboth" in words:
        words |= {"ignoredups", "ignorespace"}
    options = {
        "ignoredups": "hist_ignore_dups",
        "ignorespace": "hist_ignore_space",
        "erasedups": "hist_ignore_all_dups",
    }
    chosen = [options[word] for word in sorted(words) if word in options]
    if history.append:
        chosen.append("append_history")
    if history.flush_each_command:
        chosen.append("inc_append_history")  # each command is written as it runs
    return chosen


# -- fish --------------------------------------------------------------------------------------


def fish_definition(function: Function, target: ShellTarget) -> str:
    body = _indented(function, target)
    return (
        f"# {function.name}: {function.desc} [{function.pack}]\n"
        f"function {function.name} --description {fishquote(function.desc)}\n{body}\nend\n"
    )


def fish_alias(alias: Alias) -> str:
    """An alias as a function that passes its arguments on, described as ``alias NAME=COMMAND``
    (so fish's ``alias`` lists it) and completing like the command. The command is a quoted
    string that ``eval`` reads when the alias runs: as in bash, a command fish cannot read
    fails when it is used and never breaks the file."""
    first = alias.command.split(maxsplit=1)[0] if alias.command.strip() else ""
    # `command` first when the alias has the name of what it runs, as fish's `alias` does
    # (alias ls='ls -F' would call itself for ever).
    command = f"command {alias.command}" if first == alias.name else alias.command
    return (
        f"# {alias.name}: {alias.desc} [{alias.pack}]\n"
        f"function {alias.name} --wraps {fishquote(command)} "
        f"--description {fishquote(f'alias {alias.name}={alias.command}')}\n"
        f"    eval {fishquote(command)} (string escape -- $argv)\nend\n"
    )


def fish_cheat_alias(name: str) -> str:
    """``dotdbg cheat`` under the name of ``[cheat] alias``, first asking
    ``__dotdbg_present``: one line, not fish's error, once the program has gone."""
    return (
        f"# {name}: the cheatsheets (dotdbg cheat) [cheat]\n"
        f"function {name} --wraps 'dotdbg cheat' "
        f"--description {fishquote(f'alias {name}=dotdbg cheat')}\n"
        "    __dotdbg_present; and dotdbg cheat $argv\nend\n"
    )


def entry_names(config: Config) -> list[str]:
    """Every alias and function name, for `dotdbg aliases NAME` completion (every shell's)."""
    return [alias.name for alias in config.aliases] + [f.name for f in config.functions]


# -- keys --------------------------------------------------------------------------------------

_READLINE_KEY = r"(?s)((?:\\e|\\M-)?)(?:\\C-(.)|(.))"


def zsh_key(key: str) -> str:
    """A readline key (``\\C-g``, ``\\eg``, ``\\M-x``) as bindkey writes it; "" when it is
    none of those."""
    match = re.fullmatch(_READLINE_KEY, key)
    if not key or not match:
        return ""
    meta, control, plain = match.groups()
    return ("^[" if meta else "") + (f"^{control.upper()}" if control else plain)


def fish_key(key: str) -> str:
    """The same key as fish's ``bind`` writes it (``\\cg``, ``\\eg``); "" when it cannot."""
    match = re.fullmatch(_READLINE_KEY, key)
    if not key or not match:
        return ""
    meta, control, plain = match.groups()
    if plain is not None and not plain.isalnum():
        return ""
    return ("\\e" if meta else "") + (f"\\c{control.lower()}" if control else plain)
