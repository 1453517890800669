"""Every lookup docs/cheatsheets.md names finds entries in the shipped sheets."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from dotdbg.cheat.fast import Catalog, Cheatpath, Sheet, lookup, merge
from dotdbg.cheat.index import sheet_files
from dotdbg.paths import resource_dir
from tests.cheat.entry_fixtures import FIXTURES
from tests.cheat.entry_runner import entries_of

REPO = Path(__file__).resolve().parents[2]
TABLE = (REPO / "docs" / "cheatsheets.md").read_text().split("### Where each technique")[1]
LOOKUPS = [
    cell.strip("`")
    for row in TABLE.splitlines()
    if row.startswith("| ") and not row.startswith("| methodology") and "---" not in row
    for cell in row.strip("|").split("|")[1].strip().split(", ")
    if cell.startswith("`")
]


@pytest.fixture(scope="module")
def sheets() -> dict[str, Sheet]:
    builtin = Cheatpath("builtin", str(resource_dir("cheatsheets")), readonly=True)
    return merge(Catalog([builtin], "", lambda path, problem: None).load())


@pytest.mark.parametrize("words", LOOKUPS)
def test_the_lookup_finds_entries(words: str, sheets: dict[str, Sheet]) -> None:
    assert lookup(sheets, shlex.split(words), regex=False).groups


def test_the_table_has_its_lookups() -> None:
    assert len(LOOKUPS) > 60


def test_ls_leads_with_entries_that_run_ls(sheets: dict[str, Sheet]) -> None:
    """docs/cheat.md: `dotdbg cheat ls` leads with entries that run `ls`; in each sheet (one
    header each), entries where "ls" is only part of a longer word ("fails") come after its
    whole-word hits, and sheets with only such hits after every sheet with a whole-word hit."""
    groups = lookup(sheets, ["ls"], regex=False).groups
    assert re.match(r"(\S+ )?ls\b", groups[0].hits[0][1]), groups[0].hits[0]
    whole = [
        [bool(re.search(r"\bls\b", f"{entry[0]}\n{entry[1]}", re.I)) for entry in group.hits]
        for group in groups
    ]
    assert all(hits == sorted(hits, reverse=True) for hits in whole)
    assert [hits[0] for hits in whole] == sorted((hits[0] for hits in whole), reverse=True)


def entry_counts() -> dict[str, int]:
    builtin = resource_dir("cheatsheets")
    return {name: len(entries_of(name, Path(path))) for name, path in sheet_files(str(builtin))}


def test_the_counts_in_the_docs_are_those_of_the_sheets() -> None:
    """README.md and docs/cheatsheets.md say how many sheets and entries ship, per sheet too."""
    counts = entry_counts()
    total = sum(counts.values())
    doc = (REPO / "docs" / "cheatsheets.md").read_text()
    readme = " ".join((REPO / "README.md").read_text().split())
    assert re.search(r"(\d+) sheets in `cheatsheets/`, (\d+) entries", doc).groups() == (  # type: ignore[union-attr]
        str(len(counts)),
        str(total),
    )
    assert re.search(r"(\d+) starter sheets \((\d+) entries", readme).groups() == (  # type: ignore[union-attr]
        str(len(counts)),
        str(total),
    )
    rows = re.findall(r"^\| ((?:`[\w-]+`(?:, )?)+) \| ([\d, ]+) \|", doc, re.MULTILINE)
    listed = {
        name.strip("`"): int(count)
        for names, numbers in rows
        for name, count in zip(names.split(", "), numbers.split(", "))  # noqa: B905
    }
    assert listed == counts


def test_the_run_entries_count_in_the_docs_is_right() -> None:
    sheets = resource_dir("cheatsheets")
    entries = [entry for sheet in FIXTURES for entry in entries_of(sheet, sheets / sheet)]
    ran = sum(not entry.needs for entry in entries)
    doc = " ".join((REPO / "docs" / "cheatsheets.md").read_text().split())
    readme = " ".join((REPO / "README.md").read_text().split())
    assert f"{ran} of their {len(entries)} entries" in doc
    assert f"The suite runs {ran} of their entries" in readme
