"""`dotdbg cheat` from a built wheel in a fresh venv, as users install it (not editable)."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.cheat.cheat_helpers import FIXTURE_SHEETS, write_sheet

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(dotdbg_wheel: Path) -> Path:
    return dotdbg_wheel


@pytest.fixture(scope="module")
def venv(wheel_venv: Path) -> Path:
    """A venv with only the wheel: no typer, rich or jinja2, which `cheat` must not need."""
    return wheel_venv


@pytest.mark.slow
def test_wheel_carries_the_launcher_widget_and_sheets(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "dotdbg/templates/cheat_widget.bash.j2" in names
    launcher = next(name for name in names if name.endswith(".data/scripts/dotdbg"))
    text = zipfile.ZipFile(wheel).read(launcher).decode()
    assert text.startswith("#!python\n")
    assert "import re" not in text
    shipped = {name.split("/", 2)[2] for name in names if name.startswith("dotdbg/cheatsheets/")}
    in_repo = {path.name for path in (REPO / "cheatsheets").iterdir() if path.is_file()}
    assert shipped == in_repo


@pytest.mark.slow
def test_installed_cheat_works_without_the_other_dependencies(
    venv: Path, personal_dir: Path, work_dir: Path
) -> None:
    write_sheet(personal_dir, "qqgit", (FIXTURE_SHEETS / "git").read_text())
    dotdbg = str(venv / "bin" / "dotdbg")
    done = subprocess.run(
        [dotdbg, "cheat", "-c", "qqgit", "bisect", "skip"],
        cwd=work_dir,
        capture_output=True,
        text=True,
    )
    assert (done.stdout, done.stderr) == ("git bisect skip\n", "")
    listing = json.loads(
        subprocess.run(
            [dotdbg, "cheat", "--json"], cwd=work_dir, capture_output=True, text=True
        ).stdout
    )
    builtin_files = [
        p["file"] for sheet in listing for p in sheet["paths"] if p["label"] == "builtin"
    ]
    site_packages = str(venv / "lib")
    assert all(file.startswith(site_packages) for file in builtin_files)
    assert len(builtin_files) == len([p for p in (REPO / "cheatsheets").iterdir() if p.is_file()])
