"""memlimit fixtures: the real cgroup (skipped where there is none) and a fake cgroup tree."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
from dotdbg.memlimit.backends.cgroupdir import PREFIX
from dotdbg.procs.procfs import pid_exists
from tests.memlimit.memlimit_fakes import FakeTree, memlimit_cgroups


@pytest.fixture
def cgroup_v1() -> Iterator[Callable[[], list[str]]]:
    """Skips without a writable cgroup v1 memory controller; checks nothing is left behind."""
    probe = Cgroup1Backend().probe()
    if not probe.works:
        pytest.skip(f"needs a writable cgroup v1 memory controller: {probe.why}")
    before = set(memlimit_cgroups())
    yield memlimit_cgroups
    # new ones whose memlimit has ended: those of runs still going (another suite, a sheet entry
    # run beside this test) are theirs, and old ones may be swept by this test's run
    left = [name for name in memlimit_cgroups() if name not in before and not running(name)]
    assert left == [], "memlimit left a cgroup behind"


def running(cgroup_name: str) -> bool:
    pid = cgroup_name.removeprefix(PREFIX).split("-")[0]
    return pid_exists(int(pid))


@pytest.fixture
def fake_tree(tmp_path: Path) -> FakeTree:
    return FakeTree(tmp_path / "machine")
