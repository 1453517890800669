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


def install_home(root: Path, bashrc: str | None = None, user_config: str | None = None) -> Path:
    """``root``/home with dotdbg installed: its ~/.bashrc is ``bashrc``, else the system's
    skeleton one where there is one; ``user_config``: the text of a config of the user's."""
    home = root / "home"
    home.mkdir()
    if bashrc is not None:
        (home / ".bashrc").write_text(bashrc)
    elif os.path.exists("/etc/skel/.bashrc"):
        shutil.copy("/etc/skel/.bashrc", home / ".bashrc")
    paths = Paths.from_env(home)
    install(paths, load_config(paths, user_text=user_config))
    return home


@pytest.fixture
def installed_home(tmp_path: Path) -> Path:
    return install_home(tmp_path)


@pytest.fixture
def shell(installed_home: Path) -> Iterator[Tmux]:
    session = Tmux.bash(installed_home)
    yield session
    session.close()
