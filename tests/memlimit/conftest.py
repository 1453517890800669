"""memlimit fixtures: the real cgroup (skipped where there is none) and a fake cgroup tree."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
from tests.memlimit.memlimit_fakes import FakeTree, memlimit_cgroups


@pytest.fixture
def cgroup_v1() -> Iterator[Callable[[], list[str]]]:
    """Skips without a writable cgroup v1 memory controller; checks nothing is left behind."""
    probe = Cgroup1Backend().probe()
    if not probe.works:
        pytest.skip(f"needs a writable cgroup v1 memory controller: {probe.why}")
    before = memlimit_cgroups()
    yield memlimit_cgroups
    assert memlimit_cgroups() == before, "memlimit left a cgroup behind"


@pytest.fixture
def fake_tree(tmp_path: Path) -> FakeTree:
    return FakeTree(tmp_path / "machine")
