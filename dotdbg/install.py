"""Install, uninstall and status: a pure plan of file changes, then one function that applies it.

The plan is computed from the texts currently on disk and the rendered files, so ``--dry-run``
and ``--diff`` cost nothing extra and tests check plans without touching a home directory.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dotdbg import blocks
from dotdbg.errors import DotdbgError
from dotdbg.fileops import atomic_write, backup_file, new_backup_dir, real_target, run_lock
from dotdbg.paths import Paths
from dotdbg.render import (
    BASH_FILE,
    INPUTRC_FILE,
    PDBRC_FILE,
    Rendered,
    bash_source_line,
    render_all,
)
from dotdbg.settings import Config
from dotdbg.state import (
    MANIFEST_VERSION,
    State,
    block_files,
    digest,
    generated_files,
    read_manifest,
    read_state,
    read_text,
)

SYSTEM_INPUTRC = Path("/etc/inputrc")


# -- plans -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    path: Path
    before: str | None
    after: str | None

    @property
    def action(self) -> str:
        if self.before == self.after:
            return "unchanged"
        if self.before is None:
            return "create"
        return "delete" if self.after is None else "update"


@dataclass(frozen=True)
class Plan:
    changes: tuple[Change, ...]
    manifest: dict[str, Any] | None  # None: remove the manifest
    notes: tuple[str, ...] = ()

    @property
    def pending(self) -> tuple[Change, ...]:
        return tuple(change for change in self.changes if change.action != "unchanged")


def desired_blocks(
    paths: Paths, config: Config, state: State, rendered: Rendered
) -> dict[Path, str | None]:
    """The block body each home file should carry (None: no block)."""
    inputrc_body = None
    if config.readline is not None:
        created = state.block_record(paths.inputrc).get(
            "created", state.text(paths.inputrc) is None
        )
        system = f"$include {SYSTEM_INPUTRC}\n" if created and SYSTEM_INPUTRC.exists() else ""
        inputrc_body = system + f"$include {_tilde(paths.data_dir / INPUTRC_FILE, paths.home)}\n"
    bash_path = bash_source_line(paths.data_dir / BASH_FILE, paths.home)
    bashrc_body = f"if [ -f {bash_path} ]; then\n    . {bash_path}\nfi\n"
    pdb_lines = [
        line
        for line in rendered.files[PDBRC_FILE].splitlines(keepends=True)
        if line.startswith("alias ")
    ]
    # A login file keeps the block `doctor --fix` put there (it is refreshed, never added here).
    login = {
        path: PROFILE_BODY if blocks.block_text(state.text(path) or "", str(path)) else None
        for path in paths.login_files
    }
    return {
        paths.bashrc: bashrc_body,
        paths.inputrc: inputrc_body,
        paths.pdbrc: "".join(pdb_lines) or None,
        **login,
    }


# ~/.profile is read by sh too, hence the $BASH_VERSION test.
PROFILE_BODY = (
    "# Login shells read this file and not ~/.bashrc: load it here.\n"
    'if [ -n "$BASH_VERSION" ] && [ -f "$HOME/.bashrc" ]; then\n'
    '    . "$HOME/.bashrc"\n'
    "fi\n"
)


def _tilde(path: Path, home: Path) -> str:
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


def plan_install(paths: Paths, config: Config, rendered: Rendered, state: State) -> Plan:
    changes = [
        Change(paths.data_dir / name, state.text(paths.data_dir / name), text)
        for name, text in rendered.files.items()
    ]
    records: dict[str, Any] = {}
    for path, body in desired_blocks(paths, config, state, rendered).items():
        change, record = _block_change(path, body, state)
        if body is not None or change.action != "unchanged":  # not: a ~/.profile left alone
            changes.append(change)
        if record:
            records[str(path)] = record
    manifest = {
        "version": MANIFEST_VERSION,
        "blocks": records,
        "generated": {
            str(c.path): digest(c.after) for c in changes[: len(rendered.files)] if c.after
        },
    }
    return Plan(
        tuple(changes),
        manifest,
        tuple(drift_notes(paths, state)) + tuple(profile_notes(paths, state)),
    )


def _block_change(path: Path, body: str | None, state: State) -> tuple[Change, dict[str, Any]]:
    before = state.text(path)
    record = dict(state.block_record(path))
    if body is None:
        after = _without_block(path, before, record)
        return Change(path, before, after), {}
    record.setdefault("created", before is None)
    block = blocks.make_block(body)
    after, separator = blocks.upsert(before or "", block, str(path))
    if separator or "separator" not in record:
        record["separator"] = separator
    record["sha256"] = digest(blocks.block_text(after, str(path)) or "")
    return Change(path, before, after), record


def _without_block(path: Path, before: str | None, record: dict[str, Any]) -> str | None:
    if before is None:
        return None
    after = blocks.remove(before, record.get("separator", ""), str(path))
    if record.get("created") and after == "" and after != before:
        return None
    return after


def plan_uninstall(paths: Paths, state: State) -> Plan:
    changes = [
        Change(path, state.text(path), None)
        for path in generated_files(paths)
        if state.text(path) is not None
    ]
    for path in block_files(paths):
        after = _without_block(path, state.text(path), state.block_record(path))
        if after != state.text(path):
            changes.append(Change(path, state.text(path), after))
    return Plan(tuple(changes), None, tuple(drift_notes(paths, state)))


def drift_notes(paths: Paths, state: State) -> list[str]:
    """Files and blocks edited by hand since dotdbg last wrote them."""
    notes = []
    for name, expected in state.manifest.get("generated", {}).items():
        text = state.text(Path(name))
        if text is not None and digest(text) != expected:
            notes.append(f"{paths.display(Path(name))} was edited by hand since dotdbg wrote it")
    for name, record in state.manifest.get("blocks", {}).items():
        text = state.text(Path(name))
        block = blocks.block_text(text, name) if text is not None else None
        if block is not None and digest(block) != record.get("sha256"):
            notes.append(f"the dotdbg block in {paths.display(Path(name))} was edited by hand")
    return notes


def login_file(paths: Paths, state: State) -> Path | None:
    """The file a bash login shell reads (the first that exists), None when there is none."""
    return next((path for path in paths.login_files if state.text(path) is not None), None)


def loads_bashrc(text: str) -> bool:
    """Whether a login file mentions ~/.bashrc outside a comment (sources it, in practice)."""
    return any(
        ".bashrc" in line and not line.lstrip().startswith("#") for line in text.splitlines()
    )


def profile_notes(paths: Paths, state: State) -> list[str]:
    path = login_file(paths, state)
    if path is None or loads_bashrc(state.text(path) or ""):
        return []
    return [
        f"{paths.display(path)} does not load ~/.bashrc, so login shells (ssh, some terminals) "
        "miss dotdbg: run `dotdbg doctor --fix`"
    ]


def plan_profile_fix(paths: Paths, state: State) -> Plan:
    """Make login shells load ~/.bashrc: a block in the login file they read (a new
    ~/.bash_profile when there is none). Nothing to do when that file loads it already."""
    path = login_file(paths, state) or paths.bash_profile
    if loads_bashrc(state.text(path) or ""):
        return Plan((), None)
    change, record = _block_change(path, PROFILE_BODY, state)
    manifest = dict(state.manifest) or {"version": MANIFEST_VERSION, "blocks": {}, "generated": {}}
    manifest["blocks"] = {**manifest.get("blocks", {}), str(path): record}
    return Plan((change,), manifest)


def backups(paths: Paths) -> list[Path]:
    """Backup directories, oldest first (their names are UTC timestamps)."""
    if not paths.backups_dir.is_dir():
        return []
    return sorted(p for p in paths.backups_dir.iterdir() if p.is_dir())


def plan_restore(paths: Paths, backup_dir: Path) -> Plan:
    """Put every file saved in ``backup_dir`` back where it came from."""
    changes = []
    for saved in sorted(p for p in backup_dir.rglob("*") if p.is_file()):
        relative = saved.relative_to(backup_dir)
        original = (
            Path("/", *relative.parts[1:]) if relative.parts[0] == "_abs" else paths.home / relative
        )
        changes.append(Change(original, read_text(original), read_text(saved)))
    return Plan(tuple(changes), read_manifest(paths) or None)


# -- applying --------------------------------------------------------------------------------


def preflight(paths: Paths, changes: Iterable[Change]) -> None:
    """Refuse before the first write if any file cannot be written: nothing is half-changed."""
    for change in changes:
        target = real_target(change.path)
        if target.exists() and not target.stat().st_mode & stat.S_IWUSR:
            shown = paths.display(change.path)
            raise DotdbgError(
                f"{shown} is read-only, so dotdbg changed nothing",
                hint=f"make it writable (chmod u+w {shown}) or switch off its pack in the config",
            )
        directory = _existing_parent(target)
        if not directory.is_dir():
            raise DotdbgError(
                f"{directory} is a file where dotdbg needs a directory, so dotdbg changed nothing",
                hint=f"move it away (mv {directory} {directory}.old), then run it again",
            )
        if not os.access(directory, os.W_OK):
            raise DotdbgError(
                f"cannot write in {directory}, so dotdbg changed nothing",
                hint="check the directory's permissions",
            )


def _existing_parent(path: Path) -> Path:
    parent = path.parent
    while not parent.exists():
        parent = parent.parent
    return parent


def apply(paths: Paths, plan: Plan) -> Path | None:
    """Back up, then write or delete each pending change atomically; returns the backup dir."""
    pending = plan.pending
    preflight(paths, pending)
    backup_dir = _backup(paths, [c.path for c in pending if c.before is not None])
    done: list[Change] = []
    for change in pending:
        try:
            _write(change.path, change.after)
        except OSError as error:  # what preflight cannot see: chattr +i, a full disk, EROFS
            _roll_back(paths, done, change, error, backup_dir)
        done.append(change)
    _save_manifest(paths, plan.manifest)
    if plan.manifest is None:
        _remove_if_empty(paths.data_dir)
    return backup_dir


def _write(path: Path, text: str | None) -> None:
    if text is None:
        real_target(path).unlink()
    else:
        atomic_write(path, text.encode("utf-8", errors="surrogateescape"))


def _roll_back(
    paths: Paths, done: Sequence[Change], failed: Change, error: OSError, backup_dir: Path | None
) -> None:
    """Undo the changes already written, then raise: a run changes everything or nothing."""
    shown = paths.display(failed.path)
    for change in reversed(done):
        try:
            _write(change.path, change.before)
        except OSError:
            saved = f"; the old files are in {paths.display(backup_dir)}" if backup_dir else ""
            raise DotdbgError(
                f"cannot write {shown} ({error.strerror}), and undoing the files written before "
                f"it failed too at {paths.display(change.path)}",
                hint=f"`dotdbg status` shows the state{saved}",
            ) from None
    raise DotdbgError(
        f"cannot write {shown} ({error.strerror}), so dotdbg changed nothing",
        hint=f"check the file and its directory: ls -ld {shown} (lsattr for chattr +i; df)",
    ) from None


def _remove_if_empty(directory: Path) -> None:
    try:
        directory.rmdir()
    except OSError:
        pass  # not empty (the user keeps files there) or already gone


def _backup(paths: Paths, files: Sequence[Path]) -> Path | None:
    if not files:
        return None
    backup_dir = new_backup_dir(paths)
    for path in files:
        backup_file(paths, backup_dir, path)
    return backup_dir


def _save_manifest(paths: Paths, manifest: dict[str, Any] | None) -> None:
    if manifest is None:
        paths.manifest_file.unlink(missing_ok=True)
    else:
        text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
        atomic_write(paths.manifest_file, text.encode(), mode=0o600)


# -- the operations the CLI calls ------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    plan: Plan
    backup_dir: Path | None = None
    warnings: tuple[str, ...] = field(default=())


def render_for(paths: Paths, config: Config) -> Rendered:
    shown = [
        paths.display(source) if source.is_relative_to(paths.home) else "dotdbg's defaults"
        for source in config.sources
    ]
    return render_all(config, shown, command_names())


def command_names() -> list[str]:
    from dotdbg.cli import command_names as names

    return names()


def _lock_unless(dry_run: bool, paths: Paths) -> AbstractContextManager[None]:
    """A dry run (status, diff, --dry-run) writes nothing, not even the lock file: every
    write is a rename, so it reads each file whole, before or after a concurrent run."""
    return nullcontext() if dry_run else run_lock(paths)


def install(paths: Paths, config: Config, *, dry_run: bool = False) -> Report:
    from dotdbg.render import check_bash

    rendered = render_for(paths, config)
    check_bash(rendered.files[BASH_FILE], config)
    with _lock_unless(dry_run, paths):
        plan = plan_install(paths, config, rendered, read_state(paths))
        backup_dir = None if dry_run else apply(paths, plan)
    return Report(plan, backup_dir, config.warnings)


def uninstall(paths: Paths, *, dry_run: bool = False) -> Report:
    with _lock_unless(dry_run, paths):
        plan = plan_uninstall(paths, read_state(paths))
        backup_dir = None if dry_run else apply(paths, plan)
    return Report(plan, backup_dir)


def fix_profile(paths: Paths, *, dry_run: bool = False) -> Report:
    with _lock_unless(dry_run, paths):
        plan = plan_profile_fix(paths, read_state(paths))
        backup_dir = None if dry_run or not plan.pending else apply(paths, plan)
    return Report(plan, backup_dir)


def restore(paths: Paths, stamp: str | None = None, *, dry_run: bool = False) -> Report:
    available = backups(paths)
    chosen = [b for b in available if stamp is None or b.name == stamp]
    if not chosen:
        names = ", ".join(b.name for b in available[-5:]) or "none yet"
        raise DotdbgError(
            f"no backup named {stamp!r}" if stamp else "there are no backups to restore",
            hint=f"recent backups: {names} (`dotdbg restore --list`)",
        )
    with _lock_unless(dry_run, paths):
        plan = plan_restore(paths, chosen[-1])
        backup_dir = None if dry_run else apply(paths, plan)
    return Report(plan, backup_dir)


def unified_diff(paths: Paths, plan: Plan) -> str:
    chunks: list[str] = []
    for change in plan.pending:
        name = paths.display(change.path)
        chunks.extend(
            difflib.unified_diff(
                (change.before or "").splitlines(keepends=True),
                (change.after or "").splitlines(keepends=True),
                fromfile=name if change.before is not None else "/dev/null",
                tofile=name if change.after is not None else "/dev/null",
            )
        )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
        for line in chunks
    )
