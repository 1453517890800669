"""The ``spawn`` fixture: real processes that are killed when the test ends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from watch_procs import Spawner


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawner]:
    spawner = Spawner(tmp_path)
    try:
        yield spawner
    finally:
        spawner.cleanup()
