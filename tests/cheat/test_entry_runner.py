"""The executed-entries runner itself: a slow entry fails alone and by its name (issue 26.1), and
the fixtures' stand-in packages win over a real one installed in front of PYTHONPATH (26.7)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from dotdbg.paths import resource_dir
from tests.cheat import entry_runner
from tests.cheat.entry_fixtures import FIXTURES
from tests.cheat.entry_runner import (
    Check,
    SheetFixture,
    build_template,
    entries_of,
    run_entry,
    run_sheets,
)

SHEETS = resource_dir("cheatsheets")

SLOW_SHEET = """\
---
syntax: bash
---
# hangs
sleep 30

# fine
echo fine

# fine, but its check afterwards hangs
echo checked
"""


def test_a_slow_entry_fails_by_its_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(entry_runner, "TIMEOUT", 1)
    sheet = tmp_path / "qqslow"
    sheet.write_text(SLOW_SHEET)
    fixture = SheetFixture(setup=":", checks={"echo checked": Check(after="sleep 30")})
    (tmp_path / "scratch").mkdir()
    ran = run_sheets([("qqslow", sheet, fixture)], tmp_path / "scratch")
    problems = {outcome.entry.command: outcome.problem for outcome in ran["qqslow"]}
    assert problems["sleep 30"] == "still running after the 1 s an entry may take"
    assert problems["echo fine"] == ""
    assert "check afterwards was still running" in problems["echo checked"]
    seconds = max(outcome.seconds for outcome in ran["qqslow"])
    assert seconds < 20  # the sleeps were killed, not waited for


# What `python setup.py develop` leaves in site-packages (setuptools' easy-install.pth): the
# checkout goes to the front of sys.path, before PYTHONPATH's directories.
EASY_INSTALL_PTH = (
    "import sys; sys.__plen = len(sys.path)\n"
    "{site}\n"
    "import sys; new = sys.path[sys.__plen:]; del sys.path[sys.__plen:]; "
    "p = getattr(sys, '__egginsert', 0); sys.path[p:p] = new; sys.__egginsert = p + len(new)\n"
)


def python_with_transformers_in_front(root: Path) -> Path:
    """A venv that sees this one's packages and a dummy `transformers` 5.0 installed in front."""
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = root / "site"
    (site / "transformers" / "cli").mkdir(parents=True)
    (site / "transformers" / "__init__.py").write_text('__version__ = "5.0.0"\n')
    (site / "transformers" / "cli" / "__init__.py").write_text("")
    (site / "transformers-5.0.0.dist-info").mkdir()
    (site / "transformers-5.0.0.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: transformers\nVersion: 5.0.0\n"
    )
    packages = next((venv / "lib").glob("python3*/site-packages"))
    (packages / "easy-install.pth").write_text(EASY_INSTALL_PTH.format(site=site))
    (packages / "this-venv.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


def test_stand_ins_win_over_an_installed_transformers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = python_with_transformers_in_front(tmp_path)
    shadowed = subprocess.run(
        [bin_dir / "python", "-c", "import transformers; print(transformers.__version__)"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shadowed.stdout == "5.0.0\n"  # the dummy is really installed in front
    monkeypatch.setattr(entry_runner, "VENV_BIN", str(bin_dir))
    outcomes = []
    for sheet in ("python", "pdb"):
        template = build_template(FIXTURES[sheet], tmp_path / sheet)
        entries = entries_of(sheet, SHEETS / sheet)
        commands = {entry.command for entry in entries}
        importing = [e for e in entries if "transformers" in e.command or e.command == "n"]
        assert importing
        outcomes += [
            run_entry(entry, FIXTURES[sheet], commands, template, tmp_path)
            for entry in importing
            if not entry.needs
        ]
    failed = [f"{o.entry.where}: {o.problem}" for o in outcomes if o.problem]
    assert failed == []
