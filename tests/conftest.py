"""Every test runs with HOME and XDG_* in a temporary directory: nothing touches the real ~."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sweep import ENV

REPO = Path(__file__).resolve().parent.parent

# the real SLURM cluster and sshd, started once per session by the tests that ask for them
pytest_plugins = ["tests.infra.fixtures"]


@pytest.fixture(autouse=True)
def fake_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("DOTDBG_VERBOSE", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    yield home


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fault-sweep"):
        os.environ[ENV] = "1"
    # A runner started in the background of a non-interactive shell (or under nohup) inherits
    # SIGINT ignored, and an ignored signal stays ignored across exec: every child the Ctrl-C
    # tests start would then rightly ignore the Ctrl-C they send.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite tests/golden/ from the current output"
    )
    parser.addoption(
        "--fault-sweep",
        action="store_true",
        help="run the full fault-injection sweep (tests marked `faults`) and longer property runs",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The `faults` tests run only with --fault-sweep (they take many minutes)."""
    if config.getoption("--fault-sweep"):
        return
    deselected = [item for item in items if item.get_closest_marker("faults")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("faults")]


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
