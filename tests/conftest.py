"""Every test runs with HOME and XDG_* in a temporary directory: nothing touches the real ~."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
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
    monkeypatch.delenv("ZDOTDIR", raising=False)
    monkeypatch.setenv("SHELL", "/bin/bash")  # the login shell decides some messages
    monkeypatch.setenv("NO_COLOR", "1")
    yield home


@pytest.fixture(autouse=True)
def same_recursion_limit() -> Iterator[None]:
    """Each test starts at the interpreter's recursion limit: `dotdbg stacks` run in the test's
    process raises it for good, and a test of a TOML nested too deeply then saw no error."""
    limit = sys.getrecursionlimit()
    yield
    sys.setrecursionlimit(limit)


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fault-sweep"):
        os.environ[ENV] = "1"
    # A runner started in the background of a non-interactive shell (or under nohup) inherits
    # SIGINT ignored, and an ignored signal stays ignored across exec: every child the Ctrl-C
    # tests start would then rightly ignore the Ctrl-C they send.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Likewise SIGHUP under nohup: the ssh, srun and shells the tests start would outlive the
    # terminals the tests close (a user's terminal gives them SIGHUP's default action).
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite tests/golden/ from the current output"
    )
    parser.addoption(
        "--fault-sweep",
        action="store_true",
        help="run the full fault-injection sweep (tests marked `faults`) and longer property runs",
    )
    parser.addoption(
        "--benchmarks",
        action="store_true",
        help="run benchmarks/ and check issue 27's targets (tests marked `benchmark`; a quiet "
        "machine, minutes)",
    )


# Each marker's tests run only with its option: the sweep takes hours, and a benchmark's
# ratios mean something only on a quiet machine, never as a timed test beside the suite.
OPT_IN = {"faults": "--fault-sweep", "benchmark": "--benchmarks"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = {marker for marker, option in OPT_IN.items() if config.getoption(option)}

    def left_out(item: pytest.Item) -> bool:
        return any(item.get_closest_marker(m) for m in OPT_IN if m not in wanted)

    deselected = [item for item in items if left_out(item)]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not left_out(item)]


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``cli("dotdbg", "alias", "add", …)``: tests/clirun.py's in-process run."""
    from tests.clirun import run_cli

    return run_cli


# Tests that share one thing the machine has only once run on one xdist worker, one at a time:
# the session's SLURM cluster and sshd are started once (not once per worker), and memlimit's
# tests compare the cgroups below this process's own, which a parallel memlimit would change;
# the wheel is built once.
# (pytest-xdist's own xdist_group marker does nothing under pytest 9.2, which no longer lets
# a plugin rename a test: its loadgroup mode fell back to spreading the tests.)
GROUPS = {
    "tests/memlimit/": "memlimit",
    "tests/stacks/test_stacks_slurm.py": "slurm",
    "tests/salloc/": "slurm",
    "tests/remote/test_shell_srun.py": "slurm",
    "tests/cheat/test_sheet_slurm.py": "slurm",
    "tests/stacks/test_stacks_slurm_launchers.py": "slurm",
    "tests/stacks/test_stacks_ssh.py": "sshd",
    "tests/remote/test_ssh_session.py": "sshd",
    "tests/remote/test_ssh_shells.py": "sshd",
    "tests/remote/test_push.py": "sshd",
    "tests/remote/test_push_path.py": "sshd",
    "tests/remote/test_push_answers.py": "sshd",
    "tests/remote/test_session_stream.py": "sshd",
    "tests/alias/test_alias_installed.py": "wheel",  # the session's one wheel
    "tests/cheat/test_cheat_installed.py": "wheel",
    "tests/cli/test_manpage.py": "wheel",
    # the one GPU: gpu-fill's tests measure its free memory, watch-python's its used memory
    "tests/fill/test_cuda_ctypes.py": "gpu",
    "tests/gpu/test_nvml.py": "gpu",
    "tests/stacks/test_stacks_torch.py::test_nccl": "gpu",
}


def scope_of(nodeid: str) -> str:
    """The unit one worker runs: its group, else its module."""
    module = nodeid.split("::", 1)[0]
    return next((g for prefix, g in GROUPS.items() if nodeid.startswith(prefix)), module)


# What each scope took in the last run that ran it (pytest's cache), so the next run starts the
# longest first: scheduled by test count, install.sh's 2 tests (48 s) came last, alone on one
# worker while the other sat idle. A clean clone has no figures and keeps xdist's order.
SCOPE_SECONDS = "dotdbg/scope-seconds"


_took: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    scope = scope_of(report.nodeid)
    _took[scope] = _took.get(scope, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    cache = getattr(session.config, "cache", None)  # none under -p no:cacheprovider
    if cache is None or hasattr(session.config, "workerinput") or not _took:
        return  # a worker's figures reach the controller in its reports
    cache.set(SCOPE_SECONDS, {**cache.get(SCOPE_SECONDS, {}), **_took})


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    from xdist.scheduler import LoadScopeScheduling

    cache = getattr(config, "cache", None)
    seconds: dict[str, float] = cache.get(SCOPE_SECONDS, {}) if cache else {}

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]  # xdist ships no types
        """A module's tests on one worker (its module fixtures are made once), a group's too;
        the longest scope of the last run first."""

        def _split_scope(self, nodeid: str) -> str:
            return scope_of(nodeid)

        def _assign_work_unit(self, node: object) -> None:
            if seconds and self.workqueue:
                longest = max(self.workqueue, key=lambda scope: seconds.get(scope, 0.0))
                self.workqueue.move_to_end(longest, last=False)
            super()._assign_work_unit(node)

    return GroupScheduling(config, log)
