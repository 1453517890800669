"""Session fixtures over the real engines (registered in tests/conftest.py):

``slurm_cluster``: munged + slurmctld + three slurmd (node1-node3) on this machine.
``ssh_server``: one sshd on 127.0.0.2-4 (hosts ``n1``-``n3`` in ``ssh_server.client_config``).

Each starts once per session and stops (with everything it left running) at its end; a test
that needs one is skipped, with the reason, only where it cannot start at all.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.infra.slurm import ClusterUnavailable, SlurmCluster
from tests.infra.sshd import SshServer, SshUnavailable


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
