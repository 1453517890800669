"""Output that fits the terminal (issue 26.4): `dotdbg --help` whole at any width, everyday
commands first; `dotdbg aliases` at 60 columns; the dumps' section rules as wide as the
terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from dotdbg.cli.registry import SECTIONS
from dotdbg.stacks import record
from tests.clirun import run_cli


@pytest.mark.parametrize("columns", ["60", "200"])
def test_help_shows_every_summary_whole(columns: str) -> None:
    from dotdbg.cli.registry import command

    text = run_cli("dotdbg", "--help", env={"COLUMNS": columns}).stdout
    assert "..." not in text.replace("[ARGS]...", "")
    flat = " ".join(text.split())
    for names in SECTIONS.values():
        for name in names:
            assert " ".join(command(name).summary.split()) in flat, name
    assert max(len(line) for line in text.splitlines()) <= max(60, min(int(columns), 120))
    assert text.index("cheat") < text.index("install")  # everyday work first, set-up last


def test_aliases_at_60_columns_is_two_or_three_lines_a_name(tmp_path: Path) -> None:
    config = tmp_path / ".config" / "dotdbg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[functions]\nmany = "echo one\\necho two\\necho three"\n')
    text = run_cli("dotdbg", "aliases", "--home", str(tmp_path), env={"COLUMNS": "60"}).stdout
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 60
    names = [line.split()[0] for line in lines if not line.startswith(" ")]
    assert len(lines) <= 3 * len(names)
    at = lines.index(next(line for line in lines if line.startswith("many ")))
    assert lines[at + 1].strip() == "→ { 3 lines: `dotdbg aliases many` }"  # not "echo one …"
    wide = run_cli("dotdbg", "aliases", "--home", str(tmp_path), env={"COLUMNS": "160"}).stdout
    assert wide.splitlines()[0].split() == ["name", "pack", "kind", "expansion", "description"]


def test_dump_titles_are_as_wide_as_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    found = record.StackRecord(
        host="node1", pid=4711, ppid=1, rank=None, local_rank=None, launcher=None,
        command="python train.py", source="py-spy",
    )  # fmt: skip
    monkeypatch.setenv("COLUMNS", "100")
    assert len(record.title(found)) == 100
    monkeypatch.delenv("COLUMNS")
    assert len(record.title(found)) == record.TITLE_WIDTH  # no terminal: pytest's stdout
