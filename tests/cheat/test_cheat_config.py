"""The [cheat] table: a key must be a readline key sequence, the alias a valid alias name."""

from __future__ import annotations

from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths


def cheat_table(tmp_path: Path, body: str) -> tuple[str, str]:
    config = load_config(Paths.from_env(tmp_path), user_text=f"[cheat]\n{body}\n")
    return config.cheat.key, config.cheat.alias


@pytest.mark.parametrize(
    ("body", "key"),
    [('key = "\\\\C-g"', "\\C-g"), ('key = "\\\\eg"', "\\eg"), ('key = ""', "")],
)
def test_key_sequences_and_none(tmp_path: Path, body: str, key: str) -> None:
    assert cheat_table(tmp_path, body)[0] == key


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ('key = "C-g"', "cheat.key 'C-g' is not a key sequence"),  # would take over typing C
        ('key = "g"', "cheat.key 'g' is not a key sequence"),
        ("key = '\\C-g\"'", "is not a key sequence"),
        ('alias = "c h"', "cheat.alias 'c h' is not a valid alias name"),
    ],
)
def test_bad_key_or_alias_is_one_error_with_a_hint(tmp_path: Path, body: str, problem: str) -> None:
    with pytest.raises(DotdbgError) as raised:
        cheat_table(tmp_path, body)
    assert problem in str(raised.value)
    assert raised.value.hint
    assert raised.value.location.endswith(":2:1")
