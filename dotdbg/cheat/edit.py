"""``--edit`` and ``--new``: open a sheet in the user's editor, never writing a read-only one.

Editing a sheet that exists only in read-only paths first copies it into the user's own dir;
the copy then shadows nothing, since merging drops entries repeated from later paths.
New files appear whole or not at all, and never replace an existing file.
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from collections.abc import Mapping

from dotdbg.cheat.fast import PERSONAL, Sheet, suggestions
from dotdbg.errors import DotdbgError
from dotdbg.home.fileops import new_file_mode
from dotdbg.visible import one_line

# What cheat reads as a sheet, minus what a shell makes awkward: parts without a dot, a space,
# a control character or a backslash, not starting with '-'; '/' makes a subfolder ("lang/rust").
_PART = r"[^\s./\\\x00-\x1f\x7f-][^\s./\\\x00-\x1f\x7f]*"
SHEET_NAME = re.compile(f"{_PART}(/{_PART})*")
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
    if name not in sheets:  # a loaded sheet's name is a path below its cheatpath already
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
    try:
        with open(sheet.files[0].path, "rb") as source:
            data = source.read()
    except OSError as error:
        raise _cannot(f"read {sheet.files[0].path}", error) from None
    try:
        _write_new(target, data)
    except FileExistsError:
        pass  # made meanwhile (another edit): open that one
    return target


def new_file(name: str, sheets: Mapping[str, Sheet], user_dir: str) -> str:
    """The file ``--new NAME`` creates in ``user_dir`` and opens."""
    check_name(name)
    target = os.path.join(user_dir, name)
    if os.path.exists(target):
        raise _exists(name, user_dir)
    try:
        _write_new(target, NEW_SHEET.encode())
    except FileExistsError:
        raise _exists(name, user_dir) from None
    return target


def check_name(name: str) -> None:
    """Sheet names stay inside their cheatpath and are files cheat would read too."""
    if not SHEET_NAME.fullmatch(name):
        raise DotdbgError(
            f"{name!r} cannot be a sheet name",
            hint="no dot (cheat skips such files), space or backslash, and not first '-'",
        )


def _exists(name: str, user_dir: str) -> DotdbgError:
    return DotdbgError(
        f"sheet {name!r} already exists in {user_dir}", hint=f"dotdbg cheat --edit {name}"
    )


def _cannot(what: str, error: OSError) -> DotdbgError:
    return DotdbgError(
        f"cannot {what}: {error.strerror}", hint="check the path and its permissions"
    )


def _write_new(target: str, data: bytes) -> None:
    """Create ``target`` with ``data`` atomically; FileExistsError if it exists already."""
    directory = os.path.dirname(target)
    try:
        os.makedirs(directory, exist_ok=True)
        # A hidden temp name: sheet loading skips it even if a crash leaves it behind.
        fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", dir=directory)
    except OSError as error:
        raise _cannot(f"create a file in {directory}", error) from None
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temp, new_file_mode())
        _link_no_replace(temp, target)
    except FileExistsError:
        raise
    except OSError as error:
        raise _cannot(f"write {target}", error) from None
    finally:
        os.unlink(temp)


def _link_no_replace(temp: str, target: str) -> None:
    try:
        os.link(temp, target)  # fails with FileExistsError rather than replacing
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        with open(temp, "rb") as source, open(target, "xb") as file:  # no hard links here
            file.write(source.read())


def _unknown_sheet(name: str, sheets: Mapping[str, Sheet]) -> DotdbgError:
    close = suggestions(name, sheets)
    new = f"start a new sheet with `dotdbg cheat --new {one_line(name)}`"
    hint = f"did you mean {one_line(' or '.join(close))}, or {new}?" if close else new
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
