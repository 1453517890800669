"""The `dotdbg cheat` path stays light: no typer, rich, jinja2, tomlkit, YAML, nor even `re`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cheat.cheat_helpers import DOTDBG, FIXTURE_SHEETS, write_sheet

HEAVY = {"typer", "click", "rich", "jinja2", "tomlkit", "yaml", "ruamel", "psutil", "pynvml"}
# Not forbidden by the issue, but each costs a measurable share of the 2x budget.
SLOW_STDLIB = {
    "re",
    "typing",
    "pathlib",
    "dataclasses",
    "json",
    "tomllib",
    "subprocess",
    "collections",
}

PROBE = """
import io, json, sys
before = set(sys.modules)
sys.stdout = io.StringIO()
from dotdbg.cli.entry import main
code = main(sys.argv[1:])
sys.stdout = sys.__stdout__
print(json.dumps({"code": code, "loaded": sorted(set(sys.modules) - before)}))
"""


def loaded_by(args: list[str], cwd: Path) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], cwd=cwd, capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    return {name.split(".")[0] for name in report["loaded"]}


@pytest.mark.parametrize(
    "args",
    [
        ["cheat", "qqgit", "bisect"],
        ["cheat", "--color", "always", "qqgit", "bisect"],
        ["cheat", "zorblax"],
        ["cheat"],
        ["cheat", "--names"],
        ["cheat", "-c", "qqgit", "skip"],
        ["--verbose", "cheat", "qqgit", "bisect"],
    ],
)
def test_lookup_path_imports_nothing_heavy(
    args: list[str], personal_dir: Path, config_file: Path, work_dir: Path
) -> None:
    write_sheet(personal_dir, "qqgit", (FIXTURE_SHEETS / "git").read_text())
    config_file.write_text('[cheat]\nkey = "\\\\C-g"\nalias = "ch"\n')
    stamp = config_file.stat()  # an hour old: a config just written is read again each run
    os.utime(config_file, ns=(stamp.st_atime_ns, stamp.st_mtime_ns - 3600 * 10**9))
    loaded_by(args, work_dir)  # first run parses the config and builds the index
    loaded = loaded_by(args, work_dir)
    assert not loaded & HEAVY
    assert not loaded & SLOW_STDLIB


def test_the_launcher_does_not_import_re(personal_dir: Path, work_dir: Path) -> None:
    """The installed `dotdbg` script, unlike an entry-point wrapper, leaves `re` unloaded."""
    write_sheet(personal_dir, "qqgit", "# x\nqq x\n")
    done = subprocess.run(
        [sys.executable, "-X", "importtime", DOTDBG, "cheat", "qqgit"],
        cwd=work_dir,
        capture_output=True,
        text=True,
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()}
    assert "dotdbg.cheat.fast" in imported
    assert not imported & (HEAVY | SLOW_STDLIB)


def test_cheat_help_loads_nothing_heavy(work_dir: Path) -> None:
    assert not set(loaded_by(["cheat", "--help"], work_dir)) & HEAVY


def test_a_lookup_goes_past_the_command_registry(personal_dir: Path, work_dir: Path) -> None:
    """`dotdbg cheat` goes from the entry to its own parser: the registry, the command parser
    and importlib (4 million instructions, a tenth of Python's start) stay unloaded."""
    write_sheet(personal_dir, "qqgit", "# x\nqq x\n")
    probe = [sys.executable, "-c", PROBE, "cheat", "qqgit"]
    subprocess.run(probe, cwd=work_dir, capture_output=True, check=True)
    done = subprocess.run(probe, cwd=work_dir, capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert report["code"] == 0
    assert "dotdbg.cheat.fast" in report["loaded"]
    assert not {"dotdbg.cli.registry", "dotdbg.cli.parser", "importlib"} & set(report["loaded"])


# All that a warm lookup imports beyond Python's own start: the one module of the warm path,
# its packages, dotdbg.visible (every string from a sheet goes through it) and two builtin
# modules: gc (the launcher switches the cycle collector off) and atexit (dotdbg.cheat.leave
# asks it whether a hook waits). Not __future__, not dotdbg.cli, not the
# option table, nor what only a failing run, a line on stderr, a changed sheet or folder need:
# each module costs about 1% of Python's start (docs/cheat.md, "Speed").
WARM_PATH = {"atexit", "gc", "dotdbg", "dotdbg.cheat", "dotdbg.cheat.fast", "dotdbg.visible"}


def imported_by(command: list[str], cwd: Path) -> set[str]:
    """What ``command`` (a Python one) imports, by -X importtime."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *command],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines()}


@pytest.mark.parametrize(
    "args",
    [
        ["qqgit", "bisect"],
        ["qqbisect", "skip"],
        ["qqgit"],
        ["git", "bisect"],
        ["qqgi", "log"],
        ["--color", "always", "qqgit", "bisect"],
        ["qqgit", "--color=never", "bisect"],
    ],
)
def test_a_warm_lookup_imports_only_the_warm_path(
    args: list[str], community_dir: Path, config_file: Path, work_dir: Path, tmp_path: Path
) -> None:
    """The installed launcher, a configured path an hour old and its cache built: a named
    lookup, a search, a whole sheet, a built-in sheet, a unique prefix, with --color."""
    write_sheet(community_dir, "qqgit", (FIXTURE_SHEETS / "git").read_text())
    write_sheet(community_dir, "sub/qqother", "# qqbisect skip\ngit bisect skip\n")
    hour_ago = 3600 * 10**9
    for path in (*community_dir.rglob("*"), community_dir, config_file):
        stamp = path.stat()
        os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns - hour_ago))
    empty_script = tmp_path / "nothing"
    empty_script.write_text("")
    python_itself = imported_by([str(empty_script)], work_dir)
    lookup = [DOTDBG, "cheat", *args]
    subprocess.run([sys.executable, *lookup], cwd=work_dir, capture_output=True, check=True)
    assert imported_by(lookup, work_dir) - python_itself == WARM_PATH


def test_the_warm_path_knows_the_color_choices() -> None:
    """dotdbg.cheat.fast takes --color without the option table: the same three words."""
    from dotdbg.cheat.fast import COLOR_CHOICES as WARM
    from dotdbg.cheat.options import COLOR_CHOICES

    assert WARM == COLOR_CHOICES
