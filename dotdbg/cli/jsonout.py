"""``--json`` of status, doctor, aliases and suggest: one record per run, for scripts.

Each record is built from the same values its text is printed from, carries ``"version"`` (as
push's does: it changes when a field changes meaning or goes; fields may be added within one)
and is documented in docs/json.md, with a JSON Schema in docs/schemas/ that tests/cli/test_json.py
validates every record against.
"""

from __future__ import annotations

import json
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

    from dotdbg.aliases.suggest import Suggestions
    from dotdbg.config.model import Config
    from dotdbg.home.doctor import Check
    from dotdbg.home.install import Result
    from dotdbg.paths import Paths

    Record = dict[str, Any]

VERSION = 1
STATES = {"unchanged": "current", "create": "missing", "update": "changed", "delete": "extra"}


def emit(record: object) -> None:
    sys.stdout.write(json.dumps(record, indent=2, ensure_ascii=False) + "\n")


def status(
    paths: Paths, done: Result | None, installed: bool, problems: Sequence[str] = ()
) -> Record:
    """``done``: the dry run of install (None when status could not plan one: ``problems``)."""
    files, found = [], list(problems)
    for change in done.plan.changes if done is not None else ():
        if change.action == "unchanged" and change.after is None:
            continue  # a file dotdbg neither has nor wants
        files.append(_file(paths, change.path, STATES[change.action]))
        if change.action != "unchanged":
            found.append(
                f"{paths.display(change.path)} is not current with the config "
                f"({change.action} pending)"
            )
    if done is not None:
        found[:0] = done.plan.notes
    if not installed:
        found.insert(0, "not installed: run `dotdbg install`")
    return {
        "version": VERSION,
        "installed": installed,
        "current": installed and not found,
        "files": files,
        "problems": found,
    }


def _file(paths: Paths, path: Path, state: str) -> Record:
    return {"path": str(path), "shown": paths.display(path), "state": state}


def checks(results: Sequence[Check], fixed: Sequence[str] = ()) -> Record:
    return {
        "version": VERSION,
        "ok": all(result.ok or result.optional for result in results),
        "fixed": list(fixed),
        "checks": [
            {
                "name": result.name,
                "ok": result.ok,
                "optional": result.optional,
                "detail": result.detail,
                "fix": result.fix or None,
            }
            for result in results
        ],
    }


def aliases(config: Config) -> Record:
    """Every alias, function, the cheat alias and key, and what the config switched off."""
    entries: list[Record] = [
        _entry(a.name, "alias", a.pack, a.command, a.desc) for a in config.aliases
    ]
    entries += [_entry(f.name, "function", f.pack, f.body, f.desc) for f in config.functions]
    if config.cheat.alias:
        entries.append(
            _entry(config.cheat.alias, "alias", "cheat", "dotdbg cheat", "look up a cheatsheet")
        )
    if config.cheat.key:
        what = "pick a cheatsheet command onto the prompt line (never runs it)"
        entries.append(_entry(config.cheat.key, "key", "cheat", "cheatsheet picker", what))
    off = [
        {
            "name": item.name,
            "section": item.section,
            "pack": item.pack,
            "value": item.value,
            "why": "removed" if item.removed else "pack off",
        }
        for item in config.switched_off
    ]
    return {"version": VERSION, "entries": entries, "switched_off": off}


def _entry(name: str, kind: str, pack: str, expansion: str, description: str) -> Record:
    return {
        "name": name,
        "kind": kind,
        "pack": pack,
        "expansion": expansion,
        "description": description,
    }


def suggestions(found: Suggestions, history: Path, entries: int) -> Record:
    return {
        "version": VERSION,
        "history": str(history),
        "commands_read": entries,
        "proposals": [
            {
                "number": number,
                "name": p.name,
                "command": p.command,
                "uses": p.count,
                "saves": p.saved,
            }
            for number, p in enumerate(found.proposals, 1)
        ],
        "unused": [
            {"name": u.name, "command": u.command, "uses": u.count, "wasted": u.wasted}
            for u in found.unused
        ],
    }
