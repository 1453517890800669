"""Which shell a sheet's command runs in, read from its text (never run), and which shell
dotdbg runs in.

Sheets say ``syntax: bash`` for commands most of which any shell runs (``git log``,
``nvidia-smi``); some only bash does: its builtins (``bind -q``, ``shopt``), its variables
(``HISTCONTROL``, ``PIPESTATUS``), and, for fish, the POSIX syntax fish does not read
(``$((…))``, ``${…}``, ``; then``, here-documents, ``$?``). The picker of zsh and fish leaves
those out. A scan with regular expressions, not a parse: where unsure, it offers the entry.
Standard library only: it travels with ``dotdbg ssh``.
"""

from __future__ import annotations

import os
import re

from dotdbg.cheat.options import SHELLS

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping


DEFAULT_SHELL = "bash"


def _any(*patterns: str) -> re.Pattern[str]:
    """One search for the first of ``patterns`` (the picker tests every command)."""
    return re.compile("|".join(f"(?:{pattern})" for pattern in patterns))


# Where a command starts: a command word there is run, not an argument.
_START = r"(?:^|[;&|(\n]|&&|\|\|)\s*"
# What zsh (and fish) lack of bash, or run otherwise: builtins, variables, parameter
# expansions zsh refuses. Read in the text outside quotes, then in the text outside single
# quotes (where both shells expand `$…`).
_BASH_ONLY_WORDS = re.compile(
    _START + r"(?:(?:bind|shopt|compgen|complete|mapfile|readarray|help|caller)\b"
    r"|history\s+-[acdnrsw]\b"
    r"|read\s+(?:-\w+\s+)*-\w*[pe]"  # zsh: -p reads a coprocess
    r"|export\s+-f\b)"
)
_BASH_ONLY_EXPANSIONS = _any(
    (
        r"\b(?:PIPESTATUS|BASH_REMATCH|BASHPID|BASH_SOURCE|BASH_ARGV|BASH_VERSION|FUNCNAME"
        r"|READLINE_LINE|READLINE_POINT|COMP_WORDS|COMPREPLY|PROMPT_COMMAND|HISTCONTROL"
        r"|HISTIGNORE|HISTTIMEFORMAT|HISTFILESIZE)\b"
    ),
    r"\$\{[^}]*@[QEPAaKk]\}|\$\{![^}]*\}|\$\{[^}]*(?:,,|\^\^)\}",
)
# What fish does not read (from fish 3.1 on, `VAR=x cmd` and `&&` are fine; `$(…)` from 3.4).
_FISH_LACKS_WORDS = _any(
    r"<<|[<>]\(|\|&|\[\[",
    r"(?:^|\s)(?:!!|!\$|!-?\d|![A-Za-z?]|\^[^\s^]+\^)",  # history expansion
    r"\{\w+\.\.\w+\}",  # {1..10}
    _START + r"(?:(?:then|do|done|fi|esac|elif|until|select|local|declare|typeset|unset|let|fc)\b"
    r"|\(|\{\s"  # a subshell, a group
    r"|[A-Za-z_]\w*=\S*(?:\s+[A-Za-z_]\w*=\S*)*\s*(?:$|[;&|\n])"  # `X=1` alone
    r"|set\s+(?:[-+]\w*o\w*\b|\+\w|-[eux]\s*(?:$|[;&|\n]))"
    r"|[\w-]+\s*\(\))",  # name() { … }
)
_FISH_LACKS_EXPANSIONS = _any(
    r"\$\(\(|\$\[|\$\{|\$'|`",
    r"\$[?$!#@*0-9-]",  # bash's special parameters
)
_SINGLE_QUOTED = re.compile(r"(?<![\\$])'([^']*)'")
_DOUBLE_QUOTED = re.compile(r'(?<!\\)"(?:[^"\\]|\\.)*"')
_COMMENT = re.compile(r"(?:^|(?<=\s))#[^\n]*")


def bash_only(command: str, shell: str) -> str:
    """What in ``command`` bash runs and ``shell`` does not ("" when nothing is)."""
    if shell not in ("zsh", "fish"):
        return ""
    quoted = (
        [match.group(1) for match in _SINGLE_QUOTED.finditer(command)] if "'" in command else []
    )
    expanded = _SINGLE_QUOTED.sub("''", command) if quoted else command
    expanded = _COMMENT.sub("", expanded) if "#" in expanded else expanded
    bare = _DOUBLE_QUOTED.sub('""', expanded) if '"' in expanded else expanded
    checks = [(_BASH_ONLY_WORDS, bare), (_BASH_ONLY_EXPANSIONS, expanded)]
    if shell == "fish":
        checks += [(_FISH_LACKS_WORDS, bare), (_FISH_LACKS_EXPANSIONS, expanded)]
    for pattern, text in checks:
        found = pattern.search(text)
        if found:
            return found.group(0).strip()
    if shell == "fish":  # fish reads \\ and \' inside single quotes
        return next((f"'{text}'" for text in quoted if "\\\\" in text or text.endswith("\\")), "")
    return ""


def running_shell(env: Mapping[str, str], parent: str) -> str:
    """The shell dotdbg runs in: its parent process, when that is a shell (``ch`` in fish:
    fish), else the user's login shell ($SHELL), else bash."""
    for name in (parent, os.path.basename(env.get("SHELL", ""))):
        name = name.lstrip("-")
        if name in SHELLS:
            return name
    return DEFAULT_SHELL


def parent_name() -> str:
    """The parent process's name, from /proc ("" where there is none)."""
    try:
        with open(f"/proc/{os.getppid()}/comm", encoding="utf-8", errors="replace") as comm:
            return comm.read().strip()
    except OSError:
        return ""
