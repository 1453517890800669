"""Finishing what a dead run left: its journal, its temp files, its unfinished backup folders.

Every run that takes the lock calls ``recover`` first. A run that wrote every file (it died
before removing its journal, or before saving the manifest) is finished forward; any other is
rolled back from its backup, which is complete before the journal exists. A file changed by
someone since the run died is left as it is, and said so.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from dotdbg.errors import DotdbgError
from dotdbg.home.backup import (
    Contents,
    digest_bytes,
    encoded,
    leftover_folders,
    read_backup,
    remove_folder,
    verified_copy,
)
from dotdbg.home.journal import Journal, Step, read_journal, remove_journal
from dotdbg.home.state import block_files, generated_files, save_manifest
from dotdbg.paths import Paths


def recover(paths: Paths) -> list[str]:
    """Finish a dead run's journal and remove its leftovers; one line for each thing done."""
    lines = []
    journal = read_journal(paths)
    if journal is not None:
        lines.append(finish(paths, journal))
    return lines + tidy(paths)


def current_digest(paths: Paths, path: Path) -> str | None:
    data = paths.fs.read_bytes(paths.fs.real_target(path))
    return None if data is None else digest_bytes(data)


def all_written(paths: Paths, journal: Journal) -> bool:
    return all(current_digest(paths, step.path) == step.after for step in journal.steps)


def finish(paths: Paths, journal: Journal) -> str:
    what = f"the `dotdbg {journal.command}` interrupted at {journal.when}"
    try:
        if all_written(paths, journal):
            if journal.writes_manifest:
                save_manifest(paths, journal.manifest)
            paths.fs.remove_empty_dirs(list(journal.remove_dirs))
            remove_journal(paths)
            return f"finished {what}: every file had been written; its records are saved now"
        kept = roll_back(paths, journal)
    except OSError as error:
        raise DotdbgError(
            f"cannot finish {what}: {error.strerror} ({error.filename})",
            hint="fix that (df for a full disk), then run the command again; the files from "
            f"before are in {paths.display(paths.backups_dir / journal.backup)}",
        ) from None
    line = f"undid {what}: its files are back as they were before it"
    if kept:
        shown = ", ".join(paths.display(path) for path in kept)
        line += (
            f", except {shown}, changed since then and left as is (the version from before is "
            f"in {paths.display(paths.backups_dir / journal.backup)})"
        )
    return line


def roll_back(paths: Paths, journal: Journal) -> list[Path]:
    """Put every file of the run back from its backup; returns the files left alone because
    they hold neither the text from before nor the run's (someone changed them since)."""
    now = {step.path: current_digest(paths, step.path) for step in journal.steps}
    written = [step for step in journal.steps if now[step.path] == step.after]
    kept = [step.path for step in journal.steps if now[step.path] not in (step.before, step.after)]
    folder = paths.backups_dir / journal.backup
    if written:  # else the run died before its first change (its backup may not be named yet)
        backup = read_backup(paths, folder)
        for step in reversed(written):
            _put_back(paths, backup, step)
        if journal.writes_manifest and backup.manifest is not None:
            save_manifest(paths, backup.manifest or None)
    paths.fs.remove_empty_dirs(list(journal.dirs))
    remove_journal(paths)
    with contextlib.suppress(OSError):  # the files are as saved there: the copy is spare
        remove_folder(paths, folder)
    return kept


def _put_back(paths: Paths, backup: Contents, step: Step) -> None:
    if step.before is None:
        paths.fs.remove(paths.fs.real_target(step.path))
    else:
        paths.fs.write_atomic(step.path, encoded(verified_copy(paths, backup, step.path)))


def written_dirs(paths: Paths) -> list[Path]:
    """Every directory dotdbg writes files in (where a dead run's temp files can be)."""
    written = [*block_files(paths), *generated_files(paths)]  # fish's file is in its conf.d
    parents = [paths.fs.real_target(path).parent for path in written]
    dirs = [paths.home, paths.data_dir, paths.config_dir, paths.state_dir, *parents]
    return list(dict.fromkeys(dirs))


def tidy(paths: Paths) -> list[str]:
    """Remove the temp files and unfinished backup folders of runs that died."""
    lines = []
    fs = paths.fs
    temps = [temp for folder in written_dirs(paths) for temp in fs.leftover_temp_files(folder)]
    for temp in temps:
        with contextlib.suppress(FileNotFoundError):
            fs.remove(temp)
    if temps:
        shown = ", ".join(paths.display(temp) for temp in temps)
        lines.append(f"removed {len(temps)} temp file(s) that a killed dotdbg run left: {shown}")
    folders = leftover_folders(paths)
    for folder in folders:
        fs.remove_tree(folder)
    if folders:
        shown = ", ".join(folder.name for folder in folders)
        lines.append(
            f"removed {len(folders)} unfinished backup folder(s) that a killed dotdbg run left "
            f"(never used): {shown}"
        )
    return lines


def interrupted(paths: Paths) -> str:
    """For a dry run: the unfinished run on disk and what the next run will do about it, or
    "" when there is none. Writes nothing."""
    journal = read_journal(paths)
    if journal is None:
        return ""
    finishes = (
        "saves its records (every file was written)"
        if all_written(paths, journal)
        else "undoes it (puts its files back from the backup)"
    )
    return (
        f"a `dotdbg {journal.command}` started at {journal.when} was interrupted: the next "
        f"dotdbg command that changes files (install, uninstall, restore, alias …) {finishes}"
    )
