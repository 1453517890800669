"""`dotdbg init`'s starter config shows every section and every default of defaults.toml."""

from __future__ import annotations

import re
from typing import Any

import pytest

from dotdbg.config import DEFAULTS_FILE, load_config
from dotdbg.config.source import loads
from dotdbg.home.render import render_starter_config, tomlquote
from dotdbg.paths import Paths

DEFAULTS = loads(DEFAULTS_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def starter() -> str:
    return render_starter_config(load_config(Paths.from_env()))


def is_item(value: Any) -> bool:
    """An alias, function or pdb alias: a table of scalars."""
    return isinstance(value, dict) and not any(isinstance(v, dict) for v in value.values())


def sections(table: dict[str, Any], path: tuple[str, ...] = ()) -> dict[str, dict[str, Any]]:
    """Each section of a config by its header: a table of items ([aliases], [pdb.aliases]) is
    one section, as is a table of settings ([history])."""
    if path and (
        not all(isinstance(v, dict) for v in table.values()) or all(map(is_item, table.values()))
    ):
        return {".".join(path): table}
    found: dict[str, dict[str, Any]] = {}
    for key, value in table.items():
        found.update(sections(value, (*path, key)))
    return found


def headers(text: str) -> set[str]:
    return set(re.findall(r"^\[([\w.]+)\]$", text, re.MULTILINE))


def test_the_starter_has_every_section_of_the_defaults(starter: str) -> None:
    assert set(sections(DEFAULTS)) == {
        "packs", "aliases", "functions", "history", "readline", "fish", "pdb.aliases", "cheat"
    }  # fmt: skip
    assert headers(starter) == set(sections(DEFAULTS))


def test_the_starter_names_every_default_under_its_section(starter: str) -> None:
    parts = re.split(r"^\[([\w.]+)\]$", starter, flags=re.MULTILINE)
    shown = dict(zip(parts[1::2], parts[2::2], strict=True))
    for section, entries in sections(DEFAULTS).items():
        for name in entries:
            written = (
                rf"^#\s+(\[\[{re.escape(section)}\.)?{re.escape(name)}\b"  # or [[cheat.paths]]
            )
            assert re.search(written, shown[section], re.MULTILINE), (
                f"[{section}] {name} is not in the starter config"
            )


def test_each_default_shown_reads_back_as_its_command(starter: str) -> None:
    for section in ("aliases", "pdb.aliases"):
        for name, item in sections(DEFAULTS)[section].items():
            shown = re.search(rf"^#\s+{re.escape(name)} = (.*?)    # ", starter, re.MULTILINE)
            assert shown is not None and loads(f"x = {shown[1]}")["x"] == item["command"]


@pytest.mark.parametrize("value", ["plain", "it's", "both ' and \"", "tab\there", "back\\slash"])
def test_tomlquote_reads_back(value: str) -> None:
    assert loads(f"x = {tomlquote(value)}")["x"] == value
