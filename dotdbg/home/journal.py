"""The journal: what a run is changing, on disk from before its first change to after its last.

``state/journal.json`` names the complete backup folder of the run, each file with the sha256
of its text before and after (null: no file), the directories the run creates and those it
removes when empty, and the manifest it will write. A journal left on disk means the run died
in between: the next run that takes the lock finishes it (``recover``). Every file is written
by rename, so each one is wholly before or wholly after, and the digests tell which.
"""

from __future__ import annotations

import contextlib
import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dotdbg.common.record import Record
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths

JOURNAL_VERSION = 1


class Step(Record):
    """One file of the run: the sha256 of its text before and after (None: no file)."""

    path: Path
    before: str | None
    after: str | None


class Journal(Record):
    command: str
    started: str  # UTC, ISO 8601
    backup: str  # the name of the run's folder under backups/
    steps: tuple[Step, ...]
    dirs: tuple[Path, ...]  # created by the run, outermost first
    manifest: dict[str, Any] | None  # the manifest to come (None: none)
    writes_manifest: bool
    remove_dirs: tuple[Path, ...] = ()  # removed, if empty, after the last write

    def to_json(self) -> str:
        data = {
            "version": JOURNAL_VERSION,
            "command": self.command,
            "started": self.started,
            "backup": self.backup,
            "files": [
                {"path": str(s.path), "before": s.before, "after": s.after} for s in self.steps
            ],
            "dirs": [str(d) for d in self.dirs],
            "manifest": self.manifest,
            "writes_manifest": self.writes_manifest,
            "remove_dirs": [str(d) for d in self.remove_dirs],
        }
        return json.dumps(data, indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Journal:
        data = json.loads(text)
        return cls(
            command=data["command"],
            started=data["started"],
            backup=data["backup"],
            steps=tuple(Step(Path(s["path"]), s["before"], s["after"]) for s in data["files"]),
            dirs=tuple(Path(d) for d in data["dirs"]),
            manifest=data["manifest"],
            writes_manifest=data["writes_manifest"],
            remove_dirs=tuple(Path(d) for d in data.get("remove_dirs", [])),
        )

    @property
    def when(self) -> str:
        """When the run started, as a reader wants it (local time, to the second)."""
        started = datetime.fromisoformat(self.started)
        return started.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def write_journal(paths: Paths, journal: Journal) -> None:
    paths.fs.write_atomic(paths.journal_file, journal.to_json().encode(), 0o600, follow=False)


def read_journal(paths: Paths) -> Journal | None:
    shown = paths.display(paths.journal_file)
    try:
        raw = paths.fs.read_bytes(paths.journal_file, follow=False)
    except OSError as error:
        raise DotdbgError(
            f"cannot read {shown}: {error.strerror}",
            hint="it records an unfinished dotdbg run; check the file and its directory",
        ) from None
    if raw is None:
        return None
    try:
        return Journal.from_json(raw.decode())
    except (ValueError, KeyError, TypeError):
        raise DotdbgError(
            f"{shown} is damaged, so dotdbg cannot tell what an interrupted run changed",
            hint="`dotdbg restore --list` shows the backups; restore the newest, then delete "
            f"{shown}",
        ) from None


def remove_journal(paths: Paths) -> None:
    with contextlib.suppress(FileNotFoundError):
        paths.fs.remove(paths.journal_file)
