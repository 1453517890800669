"""Every entry of the sheets below that can run offline without a GPU or a cluster is run, in a
scratch directory its sheet's fixture built, and must do what its comment says (issue 14.2).

Entries that cannot run here carry a tag in the sheet (`[net]`, `[gpu]`, `[tty]`...); they are
counted, never silently skipped.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from entry_fixtures import FIXTURES
from entry_runner import Outcome, entries_of, remove, run_sheets

from dotdbg.paths import resource_dir

SHEETS = resource_dir("cheatsheets")
# One fixture runs every entry (about 19 s of CPU): on a machine other suites keep busy, its wall
# time can pass the suite's 120 s default for a single test.
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[Outcome]]]:
    # Hundreds of small scratch copies: in memory where there is a tmpfs, not on a slow disk.
    shm = Path("/dev/shm")
    in_memory = shm.is_dir() and os.access(shm, os.W_OK)
    scratch = Path(tempfile.mkdtemp(dir=shm)) if in_memory else tmp_path_factory.mktemp("entries")
    try:
        yield run_sheets(
            [(sheet, SHEETS / sheet, fixture) for sheet, fixture in FIXTURES.items()], scratch
        )
    finally:
        remove(scratch)


@pytest.mark.parametrize("sheet", sorted(FIXTURES))
def test_entries_do_what_their_comments_say(sheet: str, outcomes: dict[str, list[Outcome]]) -> None:
    entries = entries_of(sheet, SHEETS / sheet)
    ran = outcomes.get(sheet, [])
    failed = [f"{o.entry.where}: {o.entry.command}\n  {o.problem}" for o in ran if o.problem]
    assert not failed, f"{len(failed)} of {len(ran)} entries failed:\n" + "\n".join(failed)
    not_run = [entry for entry in entries if entry.needs]
    assert len(ran) + len(not_run) == len(entries)


@pytest.mark.parametrize("sheet", sorted(FIXTURES))
def test_every_check_belongs_to_an_entry(sheet: str) -> None:
    commands = [entry.command for entry in entries_of(sheet, SHEETS / sheet)]
    stale = [key for key in FIXTURES[sheet].checks if not any(key in c for c in commands)]
    assert stale == []
