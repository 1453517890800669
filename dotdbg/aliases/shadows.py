"""Aliases and functions that hide a command, a shell builtin or a keyword of the same name."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.config.model import Config

# `compgen -b` and `compgen -k` of bash 5.2
BASH_BUILTINS = frozenset(
    """alias bg bind break builtin caller cd command compgen complete compopt continue declare
    dirs disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill
    let local logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt
    source suspend test times trap true type typeset ulimit umask unalias unset wait""".split()
)
BASH_KEYWORDS = frozenset(
    """if then else elif fi case esac for select while until do done in function time coproc
    { } ! [[ ]]""".split()
)


# `alias NAME='…'` and `NAME() {` lines of a generated dotdbg.bash
_DEFINITION = r"(?m)^(?:alias ([^=\s]+)=|(\S+)\(\) \{$)"


def shadow_warnings(
    config: Config, which: Callable[[str], str | None], said: Collection[str] = ()
) -> list[str]:
    """One line per alias or function that hides a command, a builtin or a keyword.

    ``said``: names left out, because the install being replaced defined them already: each
    shadow is told once, when an install brings it in, not on every run.
    """
    return [
        line
        for kind, name in _named(config)
        if name not in said and (line := _shadow_line(kind, name, which))
    ]


def entry_shadow_warnings(
    config: Config, entry: str, which: Callable[[str], str | None]
) -> list[str]:
    """``shadow_warnings`` of the alias or function named ``entry`` alone: an edit tells of the
    entry it made, and looking every name up on PATH was 30-40 lookups of a dozen stats each."""
    named = [(kind, name) for kind, name in _named(config) if name == entry]
    return [line for kind, name in named if (line := _shadow_line(kind, name, which))]


def _named(config: Config) -> list[tuple[str, str]]:
    return [("alias", a.name) for a in config.aliases] + [
        ("function", f.name) for f in config.functions
    ]


def defined_names(generated_bash: str | None) -> frozenset[str]:
    """The aliases and functions a generated dotdbg.bash defines (none when there is none)."""
    return frozenset(
        alias or function for alias, function in re.findall(_DEFINITION, generated_bash or "")
    )


def _shadow_line(kind: str, name: str, which: Callable[[str], str | None]) -> str:
    if name in BASH_KEYWORDS:
        return f"{kind} {name} shadows the shell keyword {name}"
    if name in BASH_BUILTINS:
        return f"{kind} {name} shadows the builtin {name}; the original is `builtin {name}`"
    found = which(name)
    if not found:
        return ""
    ways = [f"`command {name}`", *([f"`\\{name}`"] if kind == "alias" else []), f"`{found}`"]
    return f"{kind} {name} shadows {found}; the original is still {', '.join(ways)}"
