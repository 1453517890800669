"""``--edit`` and ``--new``: open a sheet in the user's editor, never writing a read-only one.

Editing a sheet that exists only in read-only paths first copies it into the user's own dir;
the copy then shadows nothing, since merging drops entries repeated from later paths.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from dotdbg.cheat.cheatpaths import PERSONAL
from dotdbg.cheat.search import Sheet, suggestions
from dotdbg.errors import DotdbgError

SHEET_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*(/[A-Za-z0-9_][A-Za-z0-9_-]*)*")
NEW_SHEET = """\
---
syntax: bash
tags: []
---
# One comment line says what the command below it does; a blank line ends the entry.
# Write <name> where the user fills in a value.
"""


def editable_file(name: str, sheets: Mapping[str, Sheet], user_dir: str) -> str:
    """The file ``--edit NAME`` opens, copying a read-only sheet into ``user_dir`` first."""
    check_name(name)
    target = os.path.join(user_dir, name)
    if os.path.isfile(target):  # also when it is malformed and so not among ``sheets``
        return target
    sheet = sheets.get(name)
    if sheet is None:
        raise _unknown_sheet(name, sheets)
    for file in sheet.files:
        if file.label == PERSONAL or not file.readonly:
            return file.path
    with open(sheet.files[0].path, "rb") as source:
        _write_new(target, source.read())
    return target


def new_file(name: str, sheets: Mapping[str, Sheet], user_dir: str) -> str:
    """The file ``--new NAME`` creates in ``user_dir`` and opens."""
    check_name(name)
    target = os.path.join(user_dir, name)
    if os.path.exists(target):
        raise DotdbgError(
            f"sheet {name!r} already exists in {user_dir}", hint=f"dotdbg cheat --edit {name}"
        )
    _write_new(target, NEW_SHEET.encode())
    return target


def check_name(name: str) -> None:
    """Sheet names stay inside their cheatpath and are files cheat would read too."""
    if not SHEET_NAME.fullmatch(name):
        raise DotdbgError(
            f"{name!r} cannot be a sheet name",
            hint="use letters, digits, '-' and '_', not first '-' (no dot: cheat skips such files)",
        )


def _write_new(target: str, data: bytes) -> None:
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "xb") as file:
        file.write(data)


def _unknown_sheet(name: str, sheets: Mapping[str, Sheet]) -> DotdbgError:
    close = suggestions(name, sheets)
    hint = f"did you mean {' or '.join(close)}?" if close else ""
    hint = f"{hint} To start a new sheet: dotdbg cheat --new {name}".strip()
    return DotdbgError(f"no sheet named {name!r}", hint=hint)


def editor_command(env: Mapping[str, str]) -> list[str]:
    """$VISUAL, else $EDITOR, else vi, split like a shell would."""
    import shlex
    import shutil

    editor = env.get("VISUAL") or env.get("EDITOR") or ""
    if editor:
        return shlex.split(editor)
    if shutil.which("vi"):
        return ["vi"]
    raise DotdbgError("no editor found", hint="set VISUAL or EDITOR, e.g. export EDITOR=nano")


def open_in_editor(path: str, env: Mapping[str, str]) -> int:
    import subprocess

    command = [*editor_command(env), path]
    try:
        return subprocess.call(command)
    except OSError as error:
        raise DotdbgError(
            f"cannot run the editor {command[0]!r}: {error.strerror}",
            hint="set VISUAL or EDITOR to an editor on PATH",
        ) from None
