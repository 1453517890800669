"""Every entry of the sheets below that can run offline without a GPU or a cluster is run, in a
scratch directory its sheet's fixture built, and must do what its comment says (issue 14.2).

Each entry is its own test, named by its place (``git:271``), so one slow or wrong entry fails
alone. They run many at a time in one module fixture; each test reads its entry's outcome.
Entries that cannot run here carry a tag in the sheet (`[net]`, `[gpu]`, `[tty]`...); they are
counted, never silently skipped.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.paths import resource_dir
from tests.cheat.entry_fixtures import FIXTURES
from tests.cheat.entry_runner import Entry, Outcome, entries_of, remove, run_sheets

SHEETS = resource_dir("cheatsheets")
# The first test's setup runs every entry (about 40 s of CPU): on a machine other suites keep
# busy (load 15 on 2 cores), that wall time passes the suite's 120 s default for one test.
pytestmark = pytest.mark.timeout(1800)

RUNNABLE = [
    entry
    for sheet in sorted(FIXTURES)
    for entry in entries_of(sheet, SHEETS / sheet)
    if not entry.needs
]


@pytest.fixture(scope="module")
def outcomes(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Outcome]]:
    # Hundreds of small scratch copies: in memory where there is a tmpfs, not on a slow disk.
    shm = Path("/dev/shm")
    in_memory = shm.is_dir() and os.access(shm, os.W_OK)
    scratch = Path(tempfile.mkdtemp(dir=shm)) if in_memory else tmp_path_factory.mktemp("entries")
    try:
        sheets = [(sheet, SHEETS / sheet, fixture) for sheet, fixture in FIXTURES.items()]
        ran = run_sheets(sheets, scratch, selected_entries(request.session.items))
        yield {outcome.entry.where: outcome for found in ran.values() for outcome in found}
    finally:
        remove(scratch)


def selected_entries(items: list[pytest.Item]) -> set[str]:
    """The entries this run asks for: `-k pytest:116` runs that one alone."""
    params = [getattr(getattr(item, "callspec", None), "params", {}) for item in items]
    return {found["entry"].where for found in params if "entry" in found}


@pytest.mark.parametrize("entry", RUNNABLE, ids=[entry.where for entry in RUNNABLE])
def test_entry_does_what_its_comment_says(entry: Entry, outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes[entry.where]
    assert not outcome.problem, f"{entry.where}: {entry.command}\n  {outcome.problem}"


@pytest.mark.parametrize("sheet", sorted(FIXTURES))
def test_every_check_belongs_to_an_entry(sheet: str) -> None:
    commands = [entry.command for entry in entries_of(sheet, SHEETS / sheet)]
    stale = [key for key in FIXTURES[sheet].checks if not any(key in c for c in commands)]
    assert stale == []
