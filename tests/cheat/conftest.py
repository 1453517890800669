"""Cheat test fixtures: sheet directories in the fake home, the installed `dotdbg` command."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.cheat.cheat_helpers import DOTDBG, RunCheat


@pytest.fixture
def personal_dir(fake_home: Path) -> Path:
    """The user's own sheets: $XDG_CONFIG_HOME/dotdbg/cheatsheets (XDG unset in tests)."""
    directory = fake_home / ".config" / "dotdbg" / "cheatsheets"
    directory.mkdir(parents=True)
    return directory


@pytest.fixture
def config_file(fake_home: Path) -> Path:
    path = fake_home / ".config" / "dotdbg" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def community_dir(tmp_path: Path, config_file: Path) -> Path:
    """A read-only configured cheatpath named 'community', as a clone of cheat/cheatsheets."""
    directory = tmp_path / "community"
    directory.mkdir()
    config_file.write_text(
        f'[[cheat.paths]]\nname = "community"\npath = "{directory}"\nreadonly = true\n'
    )
    return directory


@pytest.fixture
def work_dir(tmp_path: Path) -> Path:
    """A current directory with no .cheat/ above it (tmp_path's parents have none)."""
    directory = tmp_path / "work"
    directory.mkdir()
    return directory


@pytest.fixture
def run_cheat(work_dir: Path) -> RunCheat:
    """Run the installed `dotdbg cheat ARGS...` as a user would, in ``work_dir`` by default."""

    def run(
        *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [DOTDBG, "cheat", *args],
            cwd=cwd or work_dir,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=30,
        )

    return run
