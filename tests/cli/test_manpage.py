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
from tests.infra.fixtures import venv_with

REPO = Path(__file__).resolve().parents[2]
PAGES = REPO / "man" / "man1"


def test_the_pages_in_the_repository_are_the_registrys() -> None:
    """Regenerate with `python -m dotdbg.cli.manpage man/man1` after changing a command."""
    wanted = manpage.pages()
    assert sorted(path.name for path in PAGES.iterdir()) == sorted(wanted)
    for name, text in wanted.items():
        assert (PAGES / name).read_text(encoding="utf-8") == text, name
    expected = {"dotdbg.1", *(f"dotdbg-{n}.1" for n in COMMANDS), *(f"{n}.1" for n in HELPERS)}
    assert set(wanted) == expected


@pytest.mark.parametrize("page", sorted(manpage.pages()))
def test_each_page_is_valid_roff(page: str) -> None:
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed")
    done = subprocess.run(
        ["groff", "-man", "-Tutf8", "-ww", "-z", str(PAGES / page)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert (done.returncode, done.stderr) == (0, "")


def test_text_is_shown_as_it_is() -> None:
    assert manpage.text(".hidden \\n -x") == "\\&.hidden \\en \\-x"


@pytest.fixture(scope="module")
def venv(dotdbg_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("man-venv")
    venv_with(dotdbg_wheel, root)
    return root


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("man") is None, reason="man is not installed")
def test_man_finds_the_pages_of_a_pip_install_through_path(venv: Path, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key not in ("MANPATH", "MANPAGER")}
    env.update(PATH=f"{venv / 'bin'}:/usr/bin:/bin", HOME=str(tmp_path), MANWIDTH="80")
    for page in ("dotdbg", "dotdbg-cheat", "dotdbg-install", "memlimit"):
        where = subprocess.run(["man", "-w", page], env=env, capture_output=True, text=True)
        assert where.stdout.strip() == str(venv / "share" / "man" / "man1" / f"{page}.1")
    shown = subprocess.run(
        ["man", "-P", "cat", "dotdbg-cheat"], env=env, capture_output=True, text=True, timeout=60
    )
    assert "Look up your cheatsheets." in shown.stdout
    assert "--regex" in shown.stdout.replace("\u2010", "-")
