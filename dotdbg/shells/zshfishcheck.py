"""The checks dotdbg.zsh and dotdbg.fish pass before they replace the old files: parsed by the
shell itself (``zsh -n``, ``fish --no-execute``), never run.

As for bash (``bashcheck``), each body from the config must define exactly its function. zsh
gets bash's two wrappers (``NAME() {`` … ``}`` and the same inside ``if :; then`` … ``fi``).
fish closes every block with ``end``, so there a body must parse alone: one that closes the
function early (``true; end; touch ~/x; function g``) has an ``end`` outside any block. An
alias needs no check: its command is a quoted string in both shells.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence

from dotdbg.config.model import Config, Function
from dotdbg.errors import DotdbgError
from dotdbg.shells.posix import shquote
from dotdbg.shells.shellparse import stderr_of_each
from dotdbg.shells.target import ShellTarget
from dotdbg.shells.zshfish import body_of, kept_functions

# The parsers, reading stdin; zsh parses only after the ``setopt no_exec`` each script holds.
ZSH = ("zsh", "-f", "-s")
FISH = ("fish", "--no-config", "--no-execute")


def check_zsh(text: str, config: Config, target: ShellTarget) -> None:
    """Raise DotdbgError, naming the function to fix, unless zsh reads ``text``."""
    written = [f for f in kept_functions(config, target) if f.user_wrote("zsh")]
    aliases = {alias.name: alias.command for alias in config.aliases}
    probes = [
        (function, _zsh_probe(function.name, body_of(function, target), wrapped, with_aliases))
        for function in written
        for wrapped in (False, True)
        for with_aliases in (aliases, {})
    ]
    # the file itself parses in the same batch as the probes
    *said, problem = parse_all(ZSH, [*(probe for _, probe in probes), "setopt no_exec\n" + text])
    for (function, _), complaint in zip(probes, said, strict=True):
        if complaint:
            raise DotdbgError(
                f"function {function.name} does not stay inside its braces in zsh ({complaint})",
                hint="fix its body (or give it a zsh = '…' body); nothing was changed",
                location=config.where(_body_key(function, "zsh")),
            )
    if problem:
        raise DotdbgError(
            f"the generated dotdbg.zsh is not valid zsh ({problem})",
            hint="this is a bug in dotdbg's template: please report it; nothing was changed",
        )


def _body_key(function: Function, shell: str) -> tuple[str, ...]:
    """Where the body ``shell`` gets is written: its own key, else the bash body."""
    own = {"zsh": function.zsh, "fish": function.fish}[shell]
    return ("functions", function.name, shell if own is not None else "body")


def _zsh_probe(name: str, body: str, wrapped: bool, aliases: dict[str, str]) -> str:
    body = body.strip("\n")
    definition = (
        f"{name}() {{ if :; then\n{body}\nfi\n}}\n" if wrapped else f"{name}() {{\n{body}\n}}\n"
    )
    lines = [f"alias -- {shquote(f'{n}={v}')}" for n, v in aliases.items()]
    return "\n".join([*lines, "setopt no_exec", definition])


def check_fish(text: str, config: Config, target: ShellTarget) -> None:
    """Raise DotdbgError, naming the function to fix, unless fish reads ``text``."""
    written = [f for f in kept_functions(config, target) if f.user_wrote("fish")]
    *said, problem = parse_all(FISH, [*(body_of(f, target) for f in written), text])
    for function, complaint in zip(written, said, strict=True):
        if complaint:
            raise DotdbgError(
                f"the fish body of function {function.name} is not valid fish on its own "
                f"({complaint})",
                hint="fix its fish = '…' body; nothing was changed",
                location=config.where(_body_key(function, "fish")),
            )
    if problem:
        raise DotdbgError(
            f"the generated dotdbg.fish is not valid fish ({problem})",
            hint="this is a bug in dotdbg's template: please report it; nothing was changed",
        )


def parse_all(argv: Sequence[str], scripts: Sequence[str]) -> list[str]:
    """Each script read on the stdin of ``argv`` (a shell told to parse only): its first
    complaint, or "" when it parses. A few shells run at a time, with no PATH."""
    program = shutil.which(argv[0])
    if program is None:
        raise DotdbgError(
            f"{argv[0]} is not installed, so dotdbg cannot check the files it would write for it",
            hint=f"install {argv[0]}, or leave it out: dotdbg install --shell bash",
        )
    env = {key: value for key, value in os.environ.items() if key.startswith(("LANG", "LC_"))}
    env["PATH"] = "/nonexistent"
    env["HOME"] = "/nonexistent"  # fish would create ~/.config/fish; nothing is read from it
    shell = os.path.basename(program)
    done = stderr_of_each([program, *argv[1:]], scripts, env, "the generated file")
    return ["" if code == 0 and not err.strip() else _first_line(shell, err) for code, err in done]


def _first_line(shell: str, stderr: str) -> str:
    first = (stderr.strip().splitlines() or ["it does not parse"])[0]
    return f"{shell}: " + re.sub(r"^\S*(?:zsh|fish):( line \d+:)? ", "", first)
