"""--json of status, doctor, aliases and suggest: every record a run prints is valid against its
documented schema (docs/schemas/), in each state a user meets, and says what the text says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.clirun import run_cli

SCHEMAS = Path(__file__).resolve().parents[2] / "docs" / "schemas"


def record(name: str, *args: str) -> tuple[Any, int]:
    done = run_cli("dotdbg", *args)
    found = json.loads(done.stdout)
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    jsonschema.validate(found, schema, format_checker=jsonschema.FormatChecker())
    return found, done.returncode


def test_status_before_during_and_after_an_install(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path)]
    before, code = record("status", "status", "--json", *home)
    assert (before["installed"], before["current"], code) == (False, False, 1)
    assert before["problems"][0] == "not installed: run `dotdbg install`"
    assert run_cli("dotdbg", "install", *home).returncode == 0
    after, code = record("status", "status", "--json", *home)
    assert (after["installed"], after["current"], after["problems"], code) == (True, True, [], 0)
    states = {entry["shown"]: entry["state"] for entry in after["files"]}
    assert states["~/.bashrc"] == "current"
    config = tmp_path / ".config" / "dotdbg" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[aliases]\nzz = "echo zz"\n')
    drifted, code = record("status", "status", "--json", *home)
    assert (drifted["current"], code) == (False, 1)
    states = {entry["shown"]: entry["state"] for entry in drifted["files"]}
    assert states["~/.local/share/dotdbg/dotdbg.bash"] == "changed"


def test_status_of_a_block_edited_by_hand_says_what_the_text_says(tmp_path: Path) -> None:
    home = ["--home", str(tmp_path)]
    assert run_cli("dotdbg", "install", *home).returncode == 0
    bashrc = tmp_path / ".bashrc"
    bashrc.write_text(bashrc.read_text().replace("# >>> dotdbg >>>\n", "# >>> dotdbg >>>\nls\n"))
    found, code = record("status", "status", "--json", *home)
    text = run_cli("dotdbg", "status", *home).stdout.splitlines()
    assert (found["current"], found["files"], found["problems"], code) == (False, [], text, 1)
    assert "edited by hand" in text[0]


def test_doctor(tmp_path: Path) -> None:
    found, code = record("doctor", "doctor", "--json", "--home", str(tmp_path))
    text = run_cli("dotdbg", "doctor", "--home", str(tmp_path))
    assert code == text.returncode == (0 if found["ok"] else 1)
    names = [check["name"] for check in found["checks"]]
    assert names == [line[4:].split(":")[0] for line in text.stdout.splitlines() if line[:1] != " "]


def test_aliases_lists_whole_bodies_and_what_is_switched_off(tmp_path: Path) -> None:
    config = tmp_path / ".config" / "dotdbg" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[packs]\ngit = false\n[functions]\nf2 = "echo one\\necho two"\n')
    found, code = record("aliases", "aliases", "--json", "--home", str(tmp_path))
    entries = {entry["name"]: entry for entry in found["entries"]}
    assert entries["f2"]["expansion"] == "echo one\necho two"
    assert "gs" not in entries
    off = {item["name"]: item["why"] for item in found["switched_off"]}
    assert off["gs"] == "pack off"
    one, code = record("aliases", "aliases", "--json", "f2", "--home", str(tmp_path))
    assert ([e["name"] for e in one["entries"]], code) == (["f2"], 0)
    none, code = record("aliases", "aliases", "--json", "gs", "--home", str(tmp_path))
    assert (none["entries"], code) == ([], 1)
    assert [item["name"] for item in none["switched_off"]] == ["gs"]


def test_suggest(tmp_path: Path) -> None:
    history = tmp_path / "history"
    history.write_text("kubectl get pods --all-namespaces\n" * 12 + "git status\n" * 3)
    args = ["suggest", "--json", "--history", str(history), "--home", str(tmp_path)]
    found, code = record("suggest", *args)
    assert (found["commands_read"], code) == (15, 0)
    first = found["proposals"][0]
    assert (first["number"], first["command"], first["uses"]) == (
        1, "kubectl get pods --all-namespaces", 12,
    )  # fmt: skip
    refused = run_cli("dotdbg", *args, "--apply", "1")
    assert refused.returncode == 2 and "--json and --apply" in refused.stderr


@pytest.mark.parametrize("name", ["status", "doctor", "aliases", "suggest", "push"])
def test_each_schema_is_documented(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(
        json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    )
    assert f"schemas/{name}.schema.json" in (SCHEMAS.parent / "json.md").read_text()
