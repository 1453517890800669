"""Backups: one folder per command, holding every file the command changed, as it was.

``backups/<UTC timestamp>/<path relative to home>`` (``_abs/<absolute path>`` outside it), mode
0600, each copied before its first change. Beside the copies, ``dotdbg-backup.json`` lists the
files that did not exist yet and keeps dotdbg's manifest as it was: whether dotdbg created a file
and which newline it added before a block are facts about the past that no file on disk records,
so a restore puts them back with the files, and a later uninstall still undoes exactly what
install did.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dotdbg.fileops import atomic_write, backup_file, backup_name, new_backup_dir, original_path
from dotdbg.paths import Paths
from dotdbg.state import MANIFEST_VERSION, read_manifest

INDEX = "dotdbg-backup.json"  # never a backed-up name: those are dotfiles or in subfolders


class Backup:
    """The backup folder of one command, made when the first file is saved into it."""

    def __init__(self, paths: Paths) -> None:
        self.paths = paths
        self.dir: Path | None = None
        self._saved: set[Path] = set()
        self._absent: list[str] = []
        self._manifest: dict[str, Any] = {}

    def save(self, files: Iterable[Path]) -> None:
        """Copy each file not saved yet (or note that it does not exist), before it changes."""
        new = [path for path in dict.fromkeys(files) if path not in self._saved]
        if not new:
            return
        if self.dir is None:
            self.dir = new_backup_dir(self.paths)
            self._manifest = read_manifest(self.paths)
        for path in new:
            if path.exists():
                backup_file(self.paths, self.dir, path)
            else:
                self._absent.append(str(backup_name(self.paths, path)))
            self._saved.add(path)
        index = {"version": 1, "absent": self._absent, "manifest": self._manifest or None}
        text = json.dumps(index, indent=2, sort_keys=True) + "\n"
        atomic_write(self.dir / INDEX, text.encode(), mode=0o600)


@dataclass(frozen=True)
class Contents:
    """What restoring a backup folder puts back."""

    saved: dict[Path, Path]  # original file: its copy
    absent: tuple[Path, ...]  # files that did not exist: a restore deletes them
    manifest: dict[str, Any] | None  # dotdbg's manifest then ({}: none); None: no index


def read_backup(paths: Paths, backup_dir: Path) -> Contents:
    copies = sorted(p for p in backup_dir.rglob("*") if p.is_file() and p.name != INDEX)
    saved = {original_path(paths, copy.relative_to(backup_dir)): copy for copy in copies}
    try:
        index = json.loads((backup_dir / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):  # an older dotdbg's folder, or damaged: the copies only
        index = None
    if not isinstance(index, dict):
        return Contents(saved, (), None)
    absent = tuple(original_path(paths, Path(name)) for name in sorted(index.get("absent", [])))
    manifest = index.get("manifest") or {}  # null: there was no manifest
    if manifest and manifest.get("version") != MANIFEST_VERSION:
        return Contents(saved, absent, None)  # records this dotdbg cannot read
    return Contents(saved, absent, manifest)


def backup_dirs(paths: Paths) -> list[Path]:
    """Backup folders, oldest first: by UTC timestamp, then ``-2``, ``-3`` … ``-10``."""
    if not paths.backups_dir.is_dir():
        return []
    return sorted((p for p in paths.backups_dir.iterdir() if p.is_dir()), key=_order)


def _order(folder: Path) -> tuple[str, int]:
    match = re.fullmatch(r"(.*)-(\d+)", folder.name)
    return (match[1], int(match[2])) if match else (folder.name, 1)
