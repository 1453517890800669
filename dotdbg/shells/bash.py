"""bash: ``dotdbg.bash`` in dotdbg's data directory, loaded by a block in ~/.bashrc, quoted in
POSIX single quotes, checked by ``bash -n`` and shellcheck (``dotdbg.shells.bashcheck``)."""

from __future__ import annotations

import os
from pathlib import Path

from dotdbg.shells import session
from dotdbg.shells.posix import bash_source_line, function_definition, posix_path_lines, shquote
from dotdbg.shells.target import ShellTarget
from dotdbg.shells.zshfish import entry_names

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.config.model import Config
    from dotdbg.paths import Paths


def _bashrc(paths: Paths) -> Path:
    return paths.bashrc


def load_block(generated: Path, home: Path) -> str:
    source = bash_source_line(generated, home)
    return f"if [ -f {source} ]; then\n    . {source}\nfi\n"


def check(text: str, config: Config) -> None:
    from dotdbg.shells.bashcheck import check_bash

    check_bash(text, config)


def parts(text: str) -> dict[str, str]:
    """shellcheck's verdict depends on what it reads alone."""
    from dotdbg.shells.bashcheck import shellcheck_input

    return {"shellcheck": shellcheck_input(text)}


def check_known(text: str, config: Config, passed: frozenset[str]) -> None:
    from dotdbg.shells.bashcheck import check_bash

    check_bash(text, config, shellchecked="shellcheck" in passed)


def checker_key() -> str:
    """bash and shellcheck, each by path, size and change time: a new version checks again
    (cheaper than asking them their versions, which costs a process each)."""
    from dotdbg.common.programs import which
    from dotdbg.shells.bashcheck import shellcheck_program

    programs = [which("bash") or "/bin/bash", shellcheck_program() or "no shellcheck"]
    return ";".join(identity(program) for program in programs)


def identity(program: str) -> str:
    try:
        info = os.stat(program)
    except OSError:
        return program
    return f"{program}:{info.st_size}:{info.st_mtime_ns}:{info.st_ino}"


BASH = ShellTarget(
    name="bash",
    template="dotdbg.bash.j2",
    generated="dotdbg.bash",
    rc_file=_bashrc,
    load_block=load_block,
    quote_filter="shquote",
    filters={"shquote": shquote, "definition": function_definition, "entry_names": entry_names},
    check=check,
    checker_key=checker_key,
    parts=parts,
    check_known=check_known,
    path_file=_bashrc,  # before its interactive guard: bash reads it for `ssh HOST cmd` too
    path_lines=posix_path_lines,
    used_if=_bashrc,
    session=session.BASH,
)
