"""A config value of 10 MiB (issue 21.7): `dotdbg aliases` lists the rest and shows that one cut,
with a warning naming it, its file:line and size; the commands that use the config refuse it in
one line. Measured with this very config (n=1, load 5 on 2 cores): `dotdbg aliases` 3.0 s wall,
1.2 s CPU, most of it the standard library's TOML reader (it did not finish in 300 s before)."""

from __future__ import annotations

import itertools
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.config import limits
from dotdbg.config.load import DEFAULTS_FILE, build_config
from dotdbg.config.source import Source
from dotdbg.errors import DotdbgError
from dotdbg.visible import one_line, pieces
from tests.infra.spawner import BIN

HUGE = 10 * 2**20  # the user's value, read by the first test
# The other tests' value: over the 64K limit, and long enough that printing it whole breaks
# their 100,000-character bound on the output (a 10 MiB read costs 1.2 s of CPU a command).
OVER = 2**17
TIMEOUT = 240  # seconds; measured 3 s at load 5 on 2 cores, and > 300 s before the bound


def where(value_bytes: int) -> str:
    return (
        f".config/dotdbg/config.toml:3:1: aliases.big is {value_bytes + len('echo '):,} bytes; "
        "a config value may hold 65,536 (64K)"
    )


WHERE = where(HUGE)
Run = Callable[..., subprocess.CompletedProcess[str]]


def home_with(root: Path, value_bytes: int) -> Path:
    config = root / ".config/dotdbg/config.toml"
    config.parent.mkdir(parents=True)
    big = "echo " + "x" * value_bytes
    config.write_text(f'[aliases]\nll2 = "ls -la"\nbig = "{big}"\nsmall = "ls -l"\n')
    return root


@pytest.fixture(scope="module")
def huge_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return home_with(tmp_path_factory.mktemp("huge"), HUGE)


@pytest.fixture(scope="module")
def over_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return home_with(tmp_path_factory.mktemp("over"), OVER)


def dotdbg(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The installed program, as a user runs it: a hang fails this test by its own name."""
    argv = [str(BIN / "dotdbg"), *args, "--home", str(home)]
    env = {**os.environ, "COLUMNS": "250"}
    return subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT, env=env)


def test_aliases_lists_the_rest_and_shows_the_huge_one_cut(huge_home: Path) -> None:
    done = dotdbg(huge_home, "aliases")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert "ls -la" in rows["ll2"] and "ls -l" in rows["small"] and "pyt" in rows
    assert "echo xxxx" in rows["big"] and "(10M," in rows["big"]
    assert len(done.stdout) < 100_000  # bounded: the value is not printed
    warning, hint = done.stderr.splitlines()
    assert warning == f"dotdbg: warning: {huge_home}/{WHERE}: shown cut"
    assert hint.startswith("hint: put the long part in a script on your PATH")


@pytest.mark.parametrize("args", [("aliases", "big"), ("aliases", "--json")])
def test_the_other_ways_of_showing_it_are_bounded_too(
    over_home: Path, args: tuple[str, ...]
) -> None:
    done = dotdbg(over_home, *args)
    assert done.returncode == 0, done.stderr
    assert "… (128K, cut)" in done.stdout
    assert len(done.stdout) < 100_000
    assert done.stderr.splitlines()[0] == f"dotdbg: warning: {over_home}/{where(OVER)}: shown cut"


@pytest.mark.parametrize(
    "args", [("status",), ("expand", "big"), ("install",), ("install", "--dry-run")]
)
def test_commands_using_the_config_refuse_it_in_one_line(
    over_home: Path, args: tuple[str, ...]
) -> None:
    done = dotdbg(over_home, *args)
    assert done.returncode == 2
    error, hint = done.stderr.splitlines()
    assert error == f"dotdbg: error: {over_home}/{where(OVER)}"
    assert hint == f"hint: {limits.HINT}"
    assert not (over_home / ".bashrc").exists()  # install wrote nothing


def build(user: str, cut: bool = False) -> tuple[str, ...]:
    """The config's values as the user wrote them (aliases, functions, pdb aliases)."""
    defaults = Source(DEFAULTS_FILE, DEFAULTS_FILE.read_text(encoding="utf-8"))
    config = build_config(defaults, Source(Path("config.toml"), user), cut_huge=cut)
    values = [a.command for a in config.aliases if a.name == "v"]
    values += [f.body for f in config.functions if f.name == "v"]
    values += [p.command for p in config.pdb_aliases if p.name == "v"]
    return (*values, *config.cut)


@pytest.mark.parametrize(
    ("table", "written", "key"),
    [
        ("aliases", 'v = "{}"', "aliases.v"),
        ("aliases", 'v = {{ command = "{}", desc = "d" }}', "aliases.v.command"),
        ("functions", 'v = "{}"', "functions.v"),
        ("functions", 'v = {{ body = "x", zsh = "{}" }}', "functions.v.zsh"),
        ("pdb.aliases", 'v = "{}"', "pdb.aliases.v"),
    ],
)
def test_every_value_is_bounded(table: str, written: str, key: str) -> None:
    user = f"[{table}]\n" + written.format("y" * (limits.MAX_VALUE_BYTES + 1))
    with pytest.raises(DotdbgError) as refused:
        build(user)
    assert refused.value.location.startswith("config.toml:2:")  # the key, in a table too
    assert refused.value.message == f"{key} is 65,537 bytes; a config value may hold 65,536 (64K)"
    said = build(user, cut=True)[-1]
    assert said == f"{refused.value.location}: {refused.value.message}: shown cut"


def test_the_limit_counts_bytes() -> None:
    at_limit = "y" * limits.MAX_VALUE_BYTES
    assert build(f'[aliases]\nv = "{at_limit}"\n') == (at_limit,)
    over = "✓" * (limits.MAX_VALUE_BYTES // 3 + 1)  # 3 bytes each in UTF-8
    with pytest.raises(DotdbgError):
        build(f'[aliases]\nv = "{over}"\n')


@pytest.mark.parametrize("text", ["", "plain", "a\x1bb\x1b\x1bc\n", "\u202e" + "x" * 5000 + "\x07"])
def test_pieces_are_one_line_in_runs(text: str) -> None:
    runs = pieces(text)
    assert "".join(piece for piece, _ in runs) == one_line(text)
    assert all(escaped or piece for piece, escaped in runs)
    plain = [escaped for _, escaped in runs]
    assert not any(a is b is False for a, b in itertools.pairwise(plain))
