"""Every lookup docs/cheatsheets.md names finds entries in the shipped sheets."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from dotdbg.cheat.cache import Index
from dotdbg.cheat.cheatpaths import Cheatpath
from dotdbg.cheat.index import Catalog
from dotdbg.cheat.search import Sheet, lookup, merge
from dotdbg.paths import resource_dir

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
    return merge(Catalog([builtin], Index(""), lambda path, problem: None).load())


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
