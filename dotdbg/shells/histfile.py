"""Each shell's history file and the commands in it, read as data: no shell is run to learn
a setting (that would run the home's rc files).

bash: ``$HISTFILE`` or ``~/.bash_history`` (its format: ``dotdbg.aliases.history``). zsh:
``$HISTFILE`` when exported, else ``${ZDOTDIR:-~}/.zsh_history`` (what dotdbg's zsh file sets
when the user's rc sets none); a line is a command or, with EXTENDED_HISTORY,
``: <start>:<elapsed>;<command>``, a line ending in ``\\`` goes on on the next, and bytes
0x83-0xa2 come "metafied" (0x83, then the byte xor 32). fish: ``fish_history`` under
``$XDG_DATA_HOME/fish``, a YAML-like list of ``- cmd: <command>`` with ``\\n`` and ``\\\\``
escaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from dotdbg.paths import Paths

_META = 0x83
_ZSH_EXTENDED = re.compile(r": \d+:\d+;")
_FISH_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def history_file(shell: str, env: Mapping[str, str]) -> Path:
    """Where ``shell`` of the user of ``env`` writes its history."""
    paths = Paths.from_env(env=dict(env))
    histfile = env.get("HISTFILE", "")
    if shell == "fish":
        session = env.get("fish_history", "fish") or "fish"
        return paths.data_home / "fish" / f"{session}_history"
    if histfile:
        return Path(histfile).expanduser()
    if shell == "zsh":
        return paths.zdotdir / ".zsh_history"
    return paths.home / ".bash_history"


def commands_in(shell: str, data: bytes) -> list[str]:
    """The commands of ``shell``'s history file ``data``, oldest first."""
    if shell == "zsh":
        return zsh_commands(data)
    if shell == "fish":
        return fish_commands(data.decode("utf-8", errors="replace"))
    from dotdbg.aliases.history import decode_history, parse_history

    return [entry.command for entry in parse_history(decode_history(data))]


def unmetafy(data: bytes) -> bytes:
    """zsh's file bytes as the commands had them."""
    if _META not in data:
        return data
    out = bytearray()
    escaped = False
    for byte in data:
        if escaped:
            out.append(byte ^ 0x20)
            escaped = False
        elif byte == _META:
            escaped = True
        else:
            out.append(byte)
    return bytes(out)


def zsh_commands(data: bytes) -> list[str]:
    commands: list[str] = []
    pending: list[str] = []
    for line in unmetafy(data).decode("utf-8", errors="replace").split("\n"):
        if line.endswith("\\"):
            pending.append(line[:-1])
            continue
        whole = "\n".join([*pending, line])
        pending = []
        stamp = _ZSH_EXTENDED.match(whole)
        command = whole[stamp.end() :] if stamp else whole
        if command.strip():
            commands.append(command)
    return commands


def fish_commands(text: str) -> list[str]:
    return [
        _FISH_ESCAPE.sub(_fish_unescaped, line[len("- cmd: ") :])
        for line in text.split("\n")
        if line.startswith("- cmd: ")
    ]


def _fish_unescaped(match: re.Match[str]) -> str:
    char = match.group(1)
    return {"n": "\n", "\\": "\\"}.get(char, match.group(0))
