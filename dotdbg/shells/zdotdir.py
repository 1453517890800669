"""``$ZDOTDIR`` as ~/.zshenv sets it, read from the text: zsh is never run to learn it.

Running ``zsh -c`` would run the home's ~/.zshenv: code of the user whose home it is, run by
whoever runs dotdbg (root checking another user's home with ``--home``). The forms dotdbg
users write are read here; any other assignment (a command substitution, a variable other than
HOME and XDG_CONFIG_HOME, inside an ``if``) is not guessed: ``ZdotdirRead.unread`` names its
line, and the home itself is used.
"""

from __future__ import annotations

import re
from pathlib import Path

from dotdbg.common.record import Record

_ASSIGNMENT = r"^(?:export\s+|typeset\s+-x\s+|declare\s+-x\s+)?ZDOTDIR=(\S*)\s*(?:#.*)?$"
_MENTION = r"\bZDOTDIR="
_XDG_CONFIG = r"\$\{XDG_CONFIG_HOME(?::-(?:\$HOME|\$\{HOME\}|~)/\.config)?\}|\$XDG_CONFIG_HOME\b"
_HOME = r"\$\{HOME\}|\$HOME\b"


class ZdotdirRead(Record):
    path: Path | None  # None: not set (or not read), zsh reads the home's files
    unread: int | None = None  # the line of an assignment dotdbg could not read


def zdotdir_in(text: str, home: Path, config_home: Path) -> ZdotdirRead:
    """The last top-level assignment of ZDOTDIR in ``text`` (a ~/.zshenv), resolved."""
    found = ZdotdirRead(None)
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#") or not re.search(_MENTION, line):
            continue
        match = re.match(_ASSIGNMENT, line)
        value = _resolve(match.group(1), home, config_home) if match else None
        found = ZdotdirRead(value) if value is not None else ZdotdirRead(None, number)
    return found


def _resolve(word: str, home: Path, config_home: Path) -> Path | None:
    """``word`` (one shell word) as zsh expands it, or None when that needs more than HOME
    and XDG_CONFIG_HOME."""
    if len(word) >= 2 and word[0] == word[-1] == "'":
        value = word[1:-1]
    else:
        value = word[1:-1] if len(word) >= 2 and word[0] == word[-1] == '"' else word
        if word.startswith("~/") or word == "~":
            value = str(home) + word[1:]
        value = re.sub(_XDG_CONFIG, lambda _: str(config_home), value)
        value = re.sub(_HOME, lambda _: str(home), value)
    if any(c in value for c in "$`\"'\\*?[{}();&|<>") or not value.startswith("/"):
        return None
    return Path(value)
