"""A man page per command, derived from the registry, where `man` finds it after a user's
`pip install` (the wheel's shared data lands in <venv>/share/man/man1; man-db searches
../share/man beside each PATH directory)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from dotdbg.cli import manpage
from dotdbg.cli.registry import COMMANDS, HELPERS


def test_a_page_for_dotdbg_every_command_and_every_helper() -> None:
    expected = {"dotdbg.1", *(f"dotdbg-{n}.1" for n in COMMANDS), *(f"{n}.1" for n in HELPERS)}
    assert set(manpage.pages()) == expected


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("man1")
    assert manpage.main([str(folder)]) == 0
    return folder


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_each_page_is_roff_that_groff_reads_without_a_warning(pages: Path) -> None:
    for page in sorted(pages.iterdir()):
        done = subprocess.run(
            ["groff", "-man", "-Tutf8", "-ww", "-z", str(page)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert (done.returncode, done.stderr) == (0, ""), page.name


def test_text_is_shown_as_it_is() -> None:
    assert manpage.text(".hidden \\n -x") == "\\&.hidden \\en \\-x"


@pytest.fixture(scope="module")
def venv(wheel_venv: Path) -> Path:
    return wheel_venv


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_man_finds_the_pages_of_a_pip_install_through_path(venv: Path, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("MANPATH", "MANPAGER")}
    env.update(PATH=f"{venv / 'bin'}:/usr/bin:/bin", HOME=str(tmp_path), MANWIDTH="80")
    for page in sorted(manpage.pages()):  # every page the build wrote, where man looks
        where = subprocess.run(["man", "-w", page[:-2]], env=env, capture_output=True, text=True)
        assert where.stdout.strip() == str(venv / "share" / "man" / "man1" / page)
    shown = subprocess.run(
        ["man", "-P", "cat", "dotdbg-cheat"], env=env, capture_output=True, text=True, timeout=60
    )
    assert "Look up your cheatsheets." in shown.stdout
    assert "--regex" in shown.stdout.replace("\u2010", "-")
