"""memlimit fixtures: the real cgroup (skipped where there is none) and a fake cgroup tree."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
from dotdbg.memlimit.backends.cgroupdir import PREFIX
from dotdbg.procs.procfs import pid_exists
from tests.memlimit.memlimit_fakes import FakeTree, memlimit_cgroups, own_v1_dir

OWN = "dotdbg-tests-"  # the memory cgroup of this test process, below the one it started in


@pytest.fixture(scope="session")
def own_memory_cgroup() -> Iterator[None]:
    """This test process (the one worker that runs memlimit's real-cgroup tests) in a memory
    cgroup of its own for the session, so the memlimit runs it starts make their cgroups there.
    Another copy of the suite running on the machine then neither counts them nor sweeps them
    (memlimit removes the cgroups of runs that are gone), nor the reverse; a user's memlimit
    runs beside the suite are kept apart the same way."""
    parent = Path(own_v1_dir())
    for stale in parent.glob(f"{OWN}*"):  # of a test process killed before its teardown
        if not pid_exists(int(stale.name.removeprefix(OWN))):
            with contextlib.suppress(OSError):
                stale.rmdir()
    mine = parent / f"{OWN}{os.getpid()}"
    mine.mkdir()
    (mine / "cgroup.procs").write_text(str(os.getpid()))
    try:
        yield
    finally:
        (parent / "cgroup.procs").write_text(str(os.getpid()))
        with contextlib.suppress(OSError):  # busy: a test left something, which its check said
            mine.rmdir()


@pytest.fixture
def cgroup_v1(request: pytest.FixtureRequest) -> Iterator[Callable[[], list[str]]]:
    """Skips without a writable cgroup v1 memory controller; checks nothing is left behind."""
    probe = Cgroup1Backend().probe()
    if not probe.works:
        pytest.skip(f"needs a writable cgroup v1 memory controller: {probe.why}")
    request.getfixturevalue("own_memory_cgroup")  # only where there is a cgroup v1
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
