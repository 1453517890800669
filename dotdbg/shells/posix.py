"""The text bash and zsh (and, for the PATH lines' "$HOME/…", fish) read: POSIX quoting, how
bash defines a function from the config, and the PATH block's lines. Pure text, used by the
shell targets, their checkers and the renderer (which imports from here, never the reverse).
"""

from __future__ import annotations

import re
from pathlib import Path

from dotdbg.config.model import Function

BASH_FILE = "dotdbg.bash"


def shquote(value: str) -> str:
    """POSIX single quotes: the shell reads back exactly ``value`` and expands nothing in it."""
    return "'" + value.replace("'", "'\\''") + "'"


def function_definition(function: Function) -> str:
    """How dotdbg.bash defines ``function``, its comment included (the template takes the
    aliases of a group's names away first, in one `unalias`)."""
    return f"# {function.name}: {function.desc} [{function.pack}]\n" + function_text(function)


def function_text(function: Function) -> str:
    """``NAME() { … }``. A body from the config goes in verbatim: indenting it would change
    its heredocs and multi-line strings; dotdbg's own are indented."""
    body = function.body.strip("\n")
    if not function.user_body:
        body = indented(body)
    return f"{function.name}() {{\n{body}\n}}\n"


def indented(text: str, prefix: str = "    ") -> str:
    """``textwrap.indent``: ``prefix`` before each line that is not blank, without importing
    textwrap (its regular expressions: a millisecond of every render)."""
    return "".join(prefix + line if line.strip() else line for line in text.splitlines(True))


def bash_source_line(target: Path, home: Path) -> str:
    """A double-quoted path for bash, written relative to $HOME when it lives there."""
    try:
        relative = target.relative_to(home)
    except ValueError:
        return shquote(str(target))
    escaped = str(relative).translate({ord(c): "\\" + c for c in '"$`\\'})
    return f'"$HOME/{escaped}"'


def in_home(folder: Path, home: Path) -> str | None:
    """``folder`` as "$HOME/…" (sh and fish read it alike) when it is in the home under a
    plain name: the block survives a home that moves. None otherwise."""
    try:
        inside = folder.relative_to(home)
    except ValueError:
        return None
    return f'"$HOME/{inside}"' if re.fullmatch(r"[\w./+-]+", str(inside), re.ASCII) else None


def shown(folder: Path, home: Path) -> str:
    """``folder`` quoted for sh."""
    return in_home(folder, home) or shquote(str(folder))


def posix_path_lines(folder: Path, home: Path) -> str:
    """sh (bash and zsh read it too): ``folder`` appended to PATH when it is not there, so it
    never hides a command; no program runs, and reading it twice adds nothing."""
    name = shown(folder, home)
    return (
        f'case ":$PATH:" in\n    *:{name}:*) ;;\n    *) PATH="${{PATH:+$PATH:}}"{name} ;;\nesac\n'
    )
