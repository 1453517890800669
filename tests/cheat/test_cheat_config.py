"""The [cheat] table: a key must be a readline key sequence, the alias a valid alias name."""

from __future__ import annotations

from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from tests.cheat.cheat_helpers import RunCheat, write_sheet


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


# -- [[cheat.paths]]: one validator for install and for `dotdbg cheat` ---------------------------
BAD_PATHS = [
    ('name = ""\npath = "/x"', "name of [[cheat.paths]] number 1 must be a non-empty string"),
    ('name = "  "\npath = "/x"', "must be a non-empty string"),
    ('name = "c"\npath = "/x"\ncolour = 1', "unknown key 'colour' in [[cheat.paths]] number 1"),
    ('name = "c"\npath = ""', "path of [[cheat.paths]] number 1 must be a non-empty string"),
    ('name = "c"', "[[cheat.paths]] number 1 has no path"),
    ("name = 1\npath = '/x'", "name of [[cheat.paths]] number 1 must be a non-empty string"),
    ('name = "c"\npath = "/x"\nreadonly = "yes"', "readonly of [[cheat.paths]] 'c' must be true"),
    ('name = "personal"\npath = "/x"', "cannot be named 'personal'"),
    ('name = "c"\npath = "/x"\n[[cheat.paths]]\nname = "c"\npath = "/y"', "two [[cheat.paths]]"),
]


@pytest.mark.parametrize(("table", "problem"), BAD_PATHS)
def test_install_and_cheat_refuse_the_same_cheat_paths(
    tmp_path: Path, config_file: Path, run_cheat: RunCheat, table: str, problem: str
) -> None:
    text = f"[[cheat.paths]]\n{table}\n"
    with pytest.raises(DotdbgError) as raised:
        load_config(Paths.from_env(tmp_path), user_text=text)
    assert problem in raised.value.message
    line = raised.value.location.rsplit(":", 2)[1]
    config_file.write_text(text)
    warning = run_cheat("--names").stderr
    assert f"config.toml:{line}:" in warning
    assert problem in warning
    assert warning.endswith("; its cheat paths are ignored\n")


def test_install_and_cheat_take_the_same_cheat_paths(
    tmp_path: Path, config_file: Path, run_cheat: RunCheat
) -> None:
    (tmp_path / "sheets").mkdir()
    write_sheet(tmp_path / "sheets", "qqmine", "# qq\nqq\n")
    text = f'[[cheat.paths]]\nname = "c"\npath = "{tmp_path}/sheets"\nreadonly = true\n'
    assert load_config(Paths.from_env(tmp_path), user_text=text).cheat.paths[0].readonly
    config_file.write_text(text)
    done = run_cheat("qqmine")
    assert done.stderr == ""
    assert "==> qqmine (c) <==" in done.stdout
