"""``dotdbg cheat --add SHEET``: the command just run becomes an entry of the personal sheet.

The command is the newest one in the history file of the shell it runs in (bash's, zsh's or
fish's: dotdbg.shells.histfile; the generated files make each shell write each command there as
it runs) that is not this very ``--add``. The one-line comment is asked for
on the terminal unless ``--comment`` gives it. The entry is appended to the sheet in the
user's own directory (created if need be; a built-in sheet of that name is merged with it),
and the file is replaced whole, so a crash leaves the old sheet or the new one.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path

from dotdbg.cheat.edit import check_name
from dotdbg.errors import DotdbgError
from dotdbg.home.fileops import new_file_mode

NEW_SHEET_HEAD = "---\nsyntax: bash\ntags: []\n---\n"


def last_command(history: list[str], where: str) -> str:
    """The newest command that is not a ``--add`` of dotdbg's own."""
    for command in reversed(history):
        if command.strip() and not is_add_command(command):
            return command
    raise DotdbgError(
        f"the shell's history ({where}) has no command to add yet",
        hint="run the command first; dotdbg's bash, zsh and fish write each command to the "
        "history as it runs",
    )


def is_add_command(command: str) -> bool:
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if "--add" not in words:
        return False
    return (words[0] == "dotdbg" and "cheat" in words) or words[1] == "--add"  # or `ch --add`


def read_history_commands(shell: str, env: Mapping[str, str]) -> tuple[list[str], Path]:
    """The commands in ``shell``'s history file, and that file."""
    from dotdbg.shells.histfile import commands_in, history_file

    path = history_file(shell, env)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], path
    except OSError as error:
        raise DotdbgError(
            f"cannot read the history file {path}: {error.strerror}", hint="check its permissions"
        ) from None
    return commands_in(shell, data), path


def check_comment(comment: str) -> str:
    comment = " ".join(comment.split())
    if not comment:
        raise DotdbgError(
            "an entry needs a comment saying what the command does", hint="nothing was added"
        )
    return comment


def entry_text(comment: str, command: str) -> str:
    return f"# {comment}\n{command.rstrip()}\n"


def appended(old: str, entry: str) -> str:
    """The sheet text with ``entry`` as its last entry, one blank line before it."""
    if not old:
        return NEW_SHEET_HEAD + entry
    return old.rstrip("\n") + "\n\n" + entry


def has_command(text: str, command: str) -> bool:
    from dotdbg.cheat.sheets import parse

    try:
        return any(entry[1] == command.rstrip() for entry in parse(text).entries)
    except ValueError:
        return False


def add_entry(sheet_file: str, comment: str, command: str) -> None:
    """Append the entry to ``sheet_file``, replacing the file atomically (mode kept)."""
    path = Path(sheet_file)
    try:
        old = path.read_text(encoding="utf-8")
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        old, mode = "", new_file_mode()
    except (OSError, UnicodeDecodeError) as error:
        raise DotdbgError(f"cannot read {path}: {error}", hint="fix or move the file") from None
    if has_command(old, command):
        raise DotdbgError(
            f"sheet {path.name!r} already has this command", hint=f"dotdbg cheat {path.name}"
        )
    _replace(path, appended(old, entry_text(comment, command)), mode)


def _replace(path: Path, text: str, mode: int) -> None:
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # hidden: never read as a sheet
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(temp, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except OSError as error:
        temp.unlink(missing_ok=True)
        raise DotdbgError(
            f"cannot write {path}: {error.strerror}", hint="check the directory and free space"
        ) from None


def ask_comment(command: str, sheet: str) -> str:
    """Show the command and read its comment from the terminal."""
    from dotdbg.visible import visible

    try:
        with (
            open("/dev/tty", "w", encoding="utf-8") as out,
            open("/dev/tty", encoding="utf-8") as tty,
        ):
            out.write(f"adding to sheet {sheet!r}:\n  {visible(command)}\ncomment (what it does): ")
            out.flush()
            answer = tty.readline()
    except OSError:
        raise DotdbgError(
            "no terminal to ask for the comment on", hint="give it with --comment 'what it does'"
        ) from None
    if not answer:  # Ctrl-D
        raise KeyboardInterrupt
    return answer


def run_add(
    sheet: str, comment: str | None, user_dir: str, env: Mapping[str, str], shell: str
) -> str:
    """Add the last command run in ``shell`` to ``sheet``; returns the line to report."""
    check_name(sheet)
    history, path = read_history_commands(shell, env)
    command = last_command(history, str(path))
    text = check_comment(ask_comment(command, sheet) if comment is None else comment)
    target = os.path.join(user_dir, sheet)
    add_entry(target, text, command)
    return f"dotdbg: added to {target}:\n# {text}\n{command}"
