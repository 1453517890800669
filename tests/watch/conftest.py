"""The ``spawn`` fixture: real processes that are killed when the test ends; and
``interruptible``, for tests that press Ctrl-C in a child."""

from __future__ import annotations

import signal
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


@pytest.fixture
def interruptible() -> Iterator[None]:
    """Children start with SIGINT's default action, even under a test runner started with SIGINT
    ignored (a background job of a non-interactive shell, nohup): an ignored signal stays ignored
    across exec, and a watch-python started that way rightly ignores Ctrl-C."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
