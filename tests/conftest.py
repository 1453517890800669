"""Every test runs with HOME and XDG_* in a temporary directory: nothing touches the real ~."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

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
    # A runner started in the background of a non-interactive shell (or under nohup) inherits
    # SIGINT ignored, and an ignored signal stays ignored across exec: every child the Ctrl-C
    # tests start would then rightly ignore the Ctrl-C they send.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite tests/golden/ from the current output"
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``dotdbg …`` or a helper (``memlimit …``) in this process, through the same entry
    points as the installed scripts: what ``subprocess.run(…, text=True)`` would have returned,
    without a Python start-up per call. The smoke tests that need a real process keep one."""
    from dotdbg.entry import helper, main

    def run(program: str, *args: str) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = main(list(args)) if program == "dotdbg" else helper(program, list(args))
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([program, *args], code, out, err)

    return run
