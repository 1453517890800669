"""A real interactive bash in tmux, with HOME in a temp dir where dotdbg was installed."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.infra.tmux import Tmux


@pytest.fixture
def installed_home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy("/etc/skel/.bashrc", home / ".bashrc") if os.path.exists(
        "/etc/skel/.bashrc"
    ) else None
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    return home


@pytest.fixture
def shell(installed_home: Path) -> Iterator[Tmux]:
    session = Tmux.bash(installed_home)
    yield session
    session.close()
