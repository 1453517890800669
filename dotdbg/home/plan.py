"""Plans: the file changes an install, uninstall, restore or login-file fix would make.

A plan is computed from the disk state read up front (a ``State``: texts, records, whether
/etc/inputrc exists) and the rendered files; nothing here reads or writes, so ``--dry-run`` and
``--diff`` cost nothing extra and tests plan on literal disk states without a home directory.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path

from dotdbg.common.record import Record
from dotdbg.config.model import Config
from dotdbg.errors import DotdbgError
from dotdbg.home import blocks
from dotdbg.home.render import INPUTRC_FILE, PDBRC_FILE, Rendered
from dotdbg.home.state import (
    MANIFEST_VERSION,
    SYSTEM_INPUTRC,
    State,
    block_files,
    digest,
    generated_files,
)
from dotdbg.paths import Paths
from dotdbg.shells import generated_path, registered

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from dotdbg.home.backup import Contents


class Change(Record):
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


class Plan(Record):
    changes: tuple[Change, ...]
    manifest: dict[str, Any] | None  # None: remove the manifest
    notes: tuple[str, ...] = ()
    keep_manifest: bool = False  # the manifest is left as it is (a config edit, not installed)
    remove_dirs: tuple[Path, ...] = ()  # removed after the writes, each if it is empty

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
        system = f"$include {SYSTEM_INPUTRC}\n" if created and state.system_inputrc else ""
        inputrc_body = system + f"$include {_tilde(paths.data_dir / INPUTRC_FILE, paths.home)}\n"
    rc_bodies = {
        target.rc_file(paths): (
            target.load_block(target.generated_path(paths), paths.home)
            if target.name in rendered.shells
            else None
        )
        for target in registered()
        if target.rc_file
    }
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
    moved = dict.fromkeys(state.recorded_block_files())  # the block leaves
    return {
        **moved,
        **rc_bodies,
        paths.inputrc: inputrc_body,
        paths.pdbrc: "".join(pdb_lines) or None,
        **login,
    }


def desired_path_blocks(paths: Paths, state: State, rendered: Rendered) -> dict[Path, str | None]:
    """The PATH block body each installed shell's always-read file should carry (None: none):
    dotdbg's folder for `ssh HOST dotdbg`, where a non-interactive PATH lacks it."""
    wanted: dict[Path, str | None] = {}
    for target in registered():
        if target.path_file is None or target.path_lines is None:
            continue
        path = target.path_file(paths)
        body = None
        if state.path_dir is not None and target.name in rendered.shells:
            body = target.path_lines(state.path_dir, paths.home)
        wanted[path] = wanted.get(path) or body
    return wanted


# ~/.profile is read by sh too, hence the $BASH_VERSION test.
PROFILE_BODY = (
    "# Login shells read this file and not ~/.bashrc: load it here.\n"
    'if [ -n "$BASH_VERSION" ] && [ -f "$HOME/.bashrc" ]; then\n'
    '    . "$HOME/.bashrc"\n'
    "fi\n"
)


def _tilde(path: Path, home: Path) -> str:
    """``~/…`` for readline's ``$include``, which expands a leading ``~``."""
    from dotdbg.common.output import home_relative

    return home_relative(path, home)


def plan_install(paths: Paths, config: Config, rendered: Rendered, state: State) -> Plan:
    changes = [
        Change(generated_path(paths, name), state.text(generated_path(paths, name)), text)
        for name, text in rendered.files.items()
    ]
    for change in changes:
        _refuse_a_file_of_the_users(paths, change, state)
    generated = {str(change.path): digest(change.after) for change in changes if change.after}
    changes += _dropped_shells(paths, state, {str(change.path) for change in changes})
    afters: dict[Path, str | None] = {}
    records: dict[str, dict[str, Any]] = {}
    path_records: dict[str, dict[str, Any]] = {}
    wanted = (
        (blocks.MAIN, records, desired_blocks(paths, config, state, rendered)),
        (blocks.PATH, path_records, desired_path_blocks(paths, state, rendered)),
    )
    for markers, kept, bodies in wanted:
        for path, body in bodies.items():
            before = afters.get(path, state.text(path))
            after, record = _with_block(path, before, body, _record(state, path, markers), markers)
            if body is not None or after != before:  # not: a ~/.profile left alone
                afters[path] = after
            if record:
                kept[str(path)] = {"created": _created(state, path), **record}
    changes += [Change(path, state.text(path), after) for path, after in afters.items()]
    manifest = {
        "version": MANIFEST_VERSION,
        "blocks": records,
        "path_blocks": path_records,
        "generated": generated,
        "dirs": state.manifest.get("dirs", []),
        "shells": list(rendered.shells),
    }
    return Plan(
        tuple(changes),
        manifest,
        tuple(drift_notes(paths, state)) + tuple(profile_notes(paths, state)),
    )


def _refuse_a_file_of_the_users(paths: Paths, change: Change, state: State) -> None:
    """A generated file outside dotdbg's folder (fish's conf.d/dotdbg.fish) that is there
    already and that dotdbg's records do not know is the user's own: replacing it would make
    uninstall delete it, so nothing is changed."""
    if change.before is None or change.before == change.after:
        return
    if change.path.is_relative_to(paths.data_dir):
        return
    if str(change.path) in state.manifest.get("generated", {}):
        return
    raise DotdbgError(
        "the file is not one dotdbg wrote (its records do not know it), so dotdbg changed nothing",
        hint="it is yours: rename it (keep the .fish ending for fish to load it) and run the "
        "command again",
        location=str(change.path),
    )


def _dropped_shells(paths: Paths, state: State, kept: set[str]) -> list[Change]:
    """The generated files of the shells no longer installed for: removed."""
    return [
        Change(path, state.text(path), None)
        for path in _our_generated_files(paths, state)
        if str(path) not in kept
    ]


def _our_generated_files(paths: Paths, state: State) -> list[Path]:
    """The generated files there are: in dotdbg's own folder, or recorded as written by it
    (fish's conf.d/dotdbg.fish may be a file of the user's own that dotdbg never wrote)."""
    recorded = state.manifest.get("generated", {})
    return [
        path
        for path in generated_files(paths)
        if state.text(path) is not None
        and (path.is_relative_to(paths.data_dir) or str(path) in recorded)
    ]


def _block_change(path: Path, body: str | None, state: State) -> tuple[Change, dict[str, Any]]:
    before = state.text(path)
    after, record = _with_block(path, before, body, state.block_record(path), blocks.MAIN)
    if record:
        record["created"] = _created(state, path)
    return Change(path, before, after), record


def _with_block(
    path: Path,
    before: str | None,
    body: str | None,
    record: Mapping[str, Any],
    markers: blocks.Markers,
) -> tuple[str | None, dict[str, Any]]:
    """``before`` with the block of ``markers`` holding ``body`` (None: without it), and the
    block's new record ({} when it is gone)."""
    if body is None:
        return _without_block(path, before, record, (), markers), {}
    block = blocks.make_block(body, markers)
    check_ours(path, before or "", record, (block,), markers)
    after, separator = blocks.upsert(before or "", block, str(path), markers)
    kept = dict(record)
    if separator or "separator" not in kept:
        kept["separator"] = separator
    kept["sha256"] = digest(blocks.block_text(after, str(path), markers) or "")
    return after, kept


def _record(state: State, path: Path, markers: blocks.Markers) -> dict[str, Any]:
    return state.path_record(path) if markers is blocks.PATH else state.block_record(path)


def _created(state: State, path: Path) -> bool:
    """Whether dotdbg created ``path`` (uninstall then deletes it when nothing else is left):
    one record of its blocks says so, or it is missing now and none is recorded."""
    recorded = [state.block_record(path), state.path_record(path)]
    if any("created" in record for record in recorded):
        return any(record.get("created") for record in recorded)
    return state.text(path) is None


class NotOurBlock(DotdbgError):
    """A block between dotdbg's markers that dotdbg cannot prove it wrote."""


def check_ours(
    path: Path,
    text: str,
    record: Mapping[str, Any],
    accepted: Collection[str],
    markers: blocks.Markers = blocks.MAIN,
) -> None:
    """Refuse to replace or remove a block dotdbg cannot prove it wrote: its records hold the
    block's digest, or it is exactly a block dotdbg writes. Anything else between the markers
    (written by hand, inside a heredoc, edited since) is the user's."""
    span = blocks.find_block(text, str(path), markers)
    if span is None:
        return
    block = text[span.start : span.end]
    if record.get("sha256") == digest(block) or _same_block(block, accepted):
        return
    first = text.count("\n", 0, span.start) + 1
    last = text.count("\n", 0, span.end - 1) + 1
    where = f"{path}:{first}"
    if record:
        raise NotOurBlock(
            f"the {markers.label} (lines {first}-{last}) was edited by hand since dotdbg "
            "wrote it, so dotdbg changed nothing",
            hint=f"move the lines you added out of the block, or delete lines {first}-{last} "
            "to drop your edits; then run the command again",
            location=where,
        )
    raise NotOurBlock(
        f"lines {first}-{last} are a '{markers.start}' block that dotdbg's records do not know "
        "(written by hand, or inside a heredoc), so dotdbg changed nothing",
        hint="if they are yours, change the two marker lines (add a word to each); if they are "
        f"an old dotdbg block, delete lines {first}-{last}; then run the command again",
        location=where,
    )


def _same_block(block: str, accepted: Collection[str]) -> bool:
    return block.rstrip("\n") in {text.rstrip("\n") for text in accepted}


def _without_block(
    path: Path,
    before: str | None,
    record: Mapping[str, Any],
    accepted: Collection[str],
    markers: blocks.Markers = blocks.MAIN,
) -> str | None:
    if before is None:
        return None
    check_ours(path, before, record, accepted, markers)
    after = blocks.remove(before, record.get("separator", ""), str(path), markers)
    if record.get("created") and after == "" and after != before:
        return None
    return after


def plan_uninstall(
    paths: Paths, state: State, accepted: Mapping[Path, Collection[str]] | None = None
) -> Plan:
    """Remove every block and generated file. ``accepted``: the blocks dotdbg would write now,
    which prove a block is dotdbg's when its records are missing."""
    changes = [Change(path, state.text(path), None) for path in _our_generated_files(paths, state)]
    for path in dict.fromkeys((*block_files(paths), *state.recorded_block_files())):
        proofs = (accepted or {}).get(path, ())
        after = _without_block(path, state.text(path), state.block_record(path), proofs)
        path_record = state.path_record(path)
        if path_record:  # the file goes when dotdbg created it, whichever block says so
            path_record = {**path_record, "created": _created(state, path)}
        after = _without_block(path, after, path_record, proofs, blocks.PATH)
        if after != state.text(path):
            changes.append(Change(path, state.text(path), after))
    dirs = [Path(name) for name in state.manifest.get("dirs", [])]
    return Plan(
        tuple(changes),
        None,
        tuple(drift_notes(paths, state)),
        remove_dirs=(*dirs, paths.data_dir),
    )


def accepted_blocks(
    paths: Paths, config: Config, state: State, rendered: Rendered
) -> dict[Path, set[str]]:
    """Every block dotdbg would write now into each file (~/.inputrc with and without the
    system include it adds to a file it creates)."""
    accepted: dict[Path, set[str]] = {path: set() for path in block_files(paths)}
    desired = desired_blocks(paths, config, state, rendered)
    for path, body in desired.items():
        if body is not None:
            accepted[path] |= {blocks.make_block(body)}
    if (inputrc := desired[paths.inputrc]) is not None:
        system = f"$include {SYSTEM_INPUTRC}\n"
        bare = inputrc.removeprefix(system)
        accepted[paths.inputrc] |= {blocks.make_block(bare), blocks.make_block(system + bare)}
    for path in paths.login_files:
        accepted[path].add(blocks.make_block(PROFILE_BODY))
    for path, body in desired_path_blocks(paths, state, rendered).items():
        if body is not None:
            accepted[path].add(blocks.make_block(body, blocks.PATH))
    return accepted


def drift_notes(paths: Paths, state: State) -> list[str]:
    """Generated files edited by hand since dotdbg wrote them (a block edited by hand is an
    error instead: its lines are the user's)."""
    notes = []
    for name, expected in state.manifest.get("generated", {}).items():
        text = state.text(Path(name))
        if text is not None and digest(text) != expected:
            notes.append(f"{paths.display(Path(name))} was edited by hand since dotdbg wrote it")
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


def plan_restore(paths: Paths, backup: Contents, state: State, copies: Mapping[Path, str]) -> Plan:
    """Put every file saved in ``backup`` back where it came from (``copies``: the saved texts,
    read and verified against their digests), delete the files that did not exist then, and
    give each of them back the manifest record it had. ``state`` holds the current texts."""
    changes = [Change(path, state.text(path), copies[path]) for path in backup.saved]
    changes += [Change(path, state.text(path), None) for path in backup.absent]
    changes.sort(key=lambda change: str(change.path))
    current = state.manifest
    if backup.manifest is None:
        note = (
            "this backup keeps dotdbg's records in a format this dotdbg cannot read: files "
            "created since are kept and the records unchanged; check `dotdbg status`"
        )
        return Plan(tuple(changes), current or None, (note,), remove_dirs=backup.dirs)
    files = [change.path for change in changes]
    manifest = restored_manifest(current, backup.manifest, files)
    dropped = set(current.get("dirs", [])) - set((manifest or {}).get("dirs", []))
    dirs = (*backup.dirs, *sorted(Path(name) for name in dropped))
    return Plan(tuple(changes), manifest, remove_dirs=dirs)


def restored_manifest(
    current: dict[str, Any], saved: dict[str, Any], files: list[Path]
) -> dict[str, Any] | None:
    """The records of ``files`` as ``saved`` had them, every other record as ``current`` has it
    (None: no record is left, so no manifest)."""
    manifest: dict[str, Any] = {**current, "version": MANIFEST_VERSION}
    for key in ("blocks", "path_blocks", "generated"):
        records = dict(current.get(key, {}))
        for path in map(str, files):
            records.pop(path, None)
            if path in saved.get(key, {}):
                records[path] = saved[key][path]
        manifest[key] = records
    if not (manifest["blocks"] or manifest["path_blocks"] or manifest["generated"]):
        return None
    manifest["dirs"] = sorted(set(current.get("dirs", [])) | set(saved.get("dirs", [])))
    if "shells" in saved and "shells" not in current:  # the shells installed for come back too
        manifest["shells"] = saved["shells"]
    return manifest


def unified_diff(paths: Paths, plan: Plan) -> str:
    if not plan.pending:
        return ""
    import difflib  # only a diff shows one (its import compiles a regex)

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
