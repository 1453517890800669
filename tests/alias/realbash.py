"""Real bash as the oracle of the alias tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from dotdbg.aliases.history import HistoryEntry

# `history` prints "  N  <HISTTIMEFORMAT><command>"; \x01 and \x02 frame the epoch so that the
# continuation lines of a multi-line entry cannot be mistaken for the start of an entry.
_ENTRY_START = re.compile(r"^ *\d+\*? +\x01(\d+)\x02", re.MULTILINE)


def bash_reads_history(history: Path, tmp_path: Path) -> list[HistoryEntry]:
    """What an interactive bash 5 with HISTTIMEFORMAT set loads from ``history``."""
    copy = tmp_path / "bash-reads-this"  # bash rewrites HISTFILE on exit: keep the original
    shutil.copyfile(history, copy)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "HISTFILE": str(copy),
        "HISTSIZE": "100000",
        "HISTFILESIZE": "100000",
        "HISTTIMEFORMAT": "\x01%s\x02",
    }
    out = subprocess.run(
        ["bash", "--norc", "--noprofile", "-i"],
        input=b"history\n",
        capture_output=True,
        env=env,
        check=True,
        timeout=30,
    ).stdout.decode("utf-8", errors="replace")
    starts = list(_ENTRY_START.finditer(out))
    entries = [
        HistoryEntry(out[start.end() : end.start() if end else len(out)].rstrip("\n"), int(stamp))
        for start, end, stamp in zip(
            starts, [*starts[1:], None], (m.group(1) for m in starts), strict=True
        )
    ]
    return entries[:-1]  # the last one is our own `history`


# HISTFILE empty: an interactive bash writes no history file when it exits.
_QUIET_ENV = {"PATH": os.environ["PATH"], "TERM": "dumb", "HISTFILE": ""}


def _shquote(value: str) -> str:
    return "'" + value.replace("'", "'\\''") + "'"


def bash_parses(
    command: str, aliases: dict[str, str], setup: str = "", home: Path = Path("/nonexistent")
) -> str:
    """How an interactive bash with ``aliases`` defined parses ``command``.

    The command becomes the body of a function; ``declare -f`` prints the body bash built, with
    every alias already expanded, in bash's own canonical layout. Two commands that print the
    same body are the same command to bash.
    """
    script = setup + "set +H\n"  # no `!` history expansion in the commands
    script += "".join(f"alias {name}={_shquote(value)}\n" for name, value in aliases.items())
    script += f"__probe() {{\n{command}\n}}\ndeclare -f __probe\n"
    # A generated alias can close the function early, and then its `> o` runs: in a scratch dir.
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            # --noediting: an interactive bash reads even a pipe through readline, where TAB
            # completes
            ["bash", "--norc", "--noprofile", "--noediting", "-i"],
            input=script.encode(),
            capture_output=True,
            env={**_QUIET_ENV, "HOME": str(home)},
            cwd=scratch,
            timeout=30,
            check=False,
        )
    return done.stdout.decode()


def bash_runs(command: str, aliases: dict[str, str]) -> str:
    """What ``command`` prints when an interactive bash with ``aliases`` runs it.

    For what ``declare -f`` cannot show: bash keeps the text of ``$(…)`` and backquotes as typed
    and parses it, aliases included, only when it runs it.
    """
    script = "set +H\n"
    script += "".join(f"alias {name}={_shquote(value)}\n" for name, value in aliases.items())
    script += f"{command}\n"
    # The commands really run: a generated `> o` must land in a scratch dir, not the checkout.
    with tempfile.TemporaryDirectory() as scratch:
        return subprocess.run(
            ["bash", "--norc", "--noprofile", "--noediting", "-i"],
            input=script.encode(),
            capture_output=True,
            env={**_QUIET_ENV, "HOME": "/nonexistent"},
            cwd=scratch,
            timeout=30,
            check=False,
        ).stdout.decode()
