"""Session fixtures over the real engines (registered in tests/conftest.py):

``slurm_cluster``: munged + slurmctld + three slurmd (node1-node3) on this machine.
``ssh_server``: one sshd on 127.0.0.2-4 (hosts ``n1``-``n3`` in ``ssh_server.client_config``).
``spawn``: real Python processes (tests/infra/spawner.py), killed when the test ends.
``dotdbg_wheel``: the wheel users install, built once (``venv_with`` puts it in a fresh venv;
``wheel_venv`` is one such venv for the session).
``terminal``: a list a test appends the ``Tmux`` terminals it opens to; all closed at its end.

Each starts once per session and stops (with everything it left running) at its end; a test
that needs one is skipped, with the reason, only where it cannot start at all.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.infra.slurm import ClusterUnavailable, SlurmCluster
from tests.infra.spawner import Spawner
from tests.infra.sshd import SshServer, SshUnavailable
from tests.infra.tmux import Tmux

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def slurm_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SlurmCluster]:
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm"))
    try:
        cluster.start()
    except ClusterUnavailable as error:
        cluster.stop()
        pytest.skip(f"no SLURM test cluster: {error}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def ssh_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SshServer]:
    server = SshServer(tmp_path_factory.mktemp("sshd"))
    try:
        server.start()
    except SshUnavailable as error:
        server.stop()
        pytest.skip(f"no test sshd: {error}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def dotdbg_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """dotdbg built as a wheel, as pip builds it for users; once per session (worker)."""
    out = tmp_path_factory.mktemp("wheel")
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(REPO)]
    subprocess.run(build, check=True, capture_output=True)
    return next(out.glob("dotdbg-*.whl"))


@pytest.fixture(scope="session")
def wheel_venv(dotdbg_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel alone (none of its dependencies), once per session
    (worker): the tests that run it only read it."""
    root = tmp_path_factory.mktemp("wheel-venv")
    venv_with(dotdbg_wheel, root)
    return root


def venv_with(wheel: Path, root: Path) -> Path:
    """A fresh venv holding only ``wheel`` (no dependencies); its python.

    Made without pip of its own and filled by this run's pip (``--python``): ensurepip alone
    takes seconds.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps"]
    subprocess.run([*install, str(wheel)], check=True, capture_output=True)
    return python


@pytest.fixture
def spawn(tmp_path: Path) -> Iterator[Spawner]:
    spawner = Spawner(tmp_path)
    try:
        yield spawner
    finally:
        spawner.cleanup()


@pytest.fixture
def terminal() -> Iterator[list[Tmux]]:
    opened: list[Tmux] = []
    yield opened
    for term in opened:
        term.close()
