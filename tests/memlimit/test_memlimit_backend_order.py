"""Backend order, probes and the silent-ignore fallback, on a fake cgroup tree in a tmp dir."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.errors import DotdbgError
from dotdbg.memlimit import probe_backends, run_memlimit
from dotdbg.memlimit.backends import BackendUnavailable
from dotdbg.memlimit.backends.cgroup1 import Cgroup1Backend
from dotdbg.memlimit.backends.cgroup2 import Cgroup2Backend
from dotdbg.memlimit.backends.rlimit import RlimitBackend
from dotdbg.memlimit.backends.systemd import SystemdBackend
from dotdbg.memlimit.limits import Limits
from tests.memlimit.memlimit_fakes import V1_MOUNT, V2_MOUNT, FakeKernelFS, FakeTree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.memlimit.backends.base import Backend

M = 2**20
LIMITS = Limits(ram=100 * M)


def read(tree: FakeTree, directory: str, name: str) -> str:
    return (tree.root / directory.lstrip("/") / name).read_text()


def test_probes_come_in_the_order_memlimit_tries_them(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v1()
    fake_tree.v2()
    probes = probe_backends(fake_tree.fs())
    assert [p.name for p in probes] == ["systemd", "cgroup2", "cgroup1", "rlimit"]
    assert [p.works for p in probes[1:]] == [True, True, True]
    assert all(p.why and "\n" not in p.why for p in probes)


def test_cgroup2_makes_a_leaf_beside_its_own_cgroup(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v2(own_subtree="", parent_subtree="memory")
    placement = Cgroup2Backend(fs=fake_tree.fs()).arm(Limits(ram=100 * M, high=80 * M))
    assert os.path.dirname(placement.where) == f"{V2_MOUNT}/user"
    assert read(fake_tree, placement.where, "memory.max") == str(100 * M)
    assert read(fake_tree, placement.where, "memory.swap.max") == "0"
    assert read(fake_tree, placement.where, "memory.high") == str(80 * M)
    placement.close()
    assert not Path(fake_tree.root, placement.where.lstrip("/")).exists()


def test_cgroup2_at_the_root_makes_a_child(fake_tree: FakeTree) -> None:
    fake_tree.own = "/"
    fake_tree.proc()
    fake_tree.write(f"{V2_MOUNT}/cgroup.subtree_control", "cpu memory")
    placement = Cgroup2Backend(fs=fake_tree.fs()).arm(LIMITS)
    assert os.path.dirname(placement.where) == V2_MOUNT
    placement.close()


def test_cgroup2_without_the_memory_controller_says_what_there_is(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v2(parent_subtree="", controllers="hugetlb")
    probe = Cgroup2Backend(fs=fake_tree.fs()).probe()
    assert not probe.works
    assert "no memory controller" in probe.why and "hugetlb" in probe.why


def test_cgroup2_never_breaks_the_no_internal_process_rule(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v2(own_subtree="", parent_subtree="")  # memory available, enabled nowhere
    fs = fake_tree.fs()
    probe = Cgroup2Backend(fs=fs).probe()
    assert not probe.works
    assert "no-internal-process rule" in probe.why
    with pytest.raises(BackendUnavailable):
        Cgroup2Backend(fs=fs).arm(LIMITS)
    assert fs.written == []
    assert fs.made() == []


def test_cgroup2_that_silently_ignores_memory_max_is_refused_and_removed(
    fake_tree: FakeTree,
) -> None:
    fake_tree.proc()
    fake_tree.v2()
    fs = fake_tree.fs(ignore=frozenset({"memory.max"}))
    with pytest.raises(BackendUnavailable, match=r"memory\.max reads max .* silently ignored"):
        Cgroup2Backend(fs=fs).arm(LIMITS)
    assert fs.made() == []


def test_cgroup1_writes_limit_then_memsw_and_maps_high_to_the_soft_limit(
    fake_tree: FakeTree,
) -> None:
    fake_tree.proc()
    fake_tree.v1()
    fs = fake_tree.fs()
    placement = Cgroup1Backend(fs=fs).arm(Limits(ram=100 * M, swap=50 * M, high=80 * M))
    assert [name for name, _ in fs.written] == [
        "memory.limit_in_bytes",
        "memory.memsw.limit_in_bytes",
        "memory.soft_limit_in_bytes",
    ]
    assert read(fake_tree, placement.where, "memory.memsw.limit_in_bytes") == str(150 * M)
    assert any("soft_limit_in_bytes" in note for note in placement.notes)
    assert any("no swap is configured" in note for note in placement.notes)
    placement.close()


def test_cgroup1_without_swap_accounting_keeps_out_of_active_swap(fake_tree: FakeTree) -> None:
    fake_tree.proc(swap=True)
    fake_tree.v1(memsw=False)
    placement = Cgroup1Backend(fs=fake_tree.fs()).arm(LIMITS)
    assert read(fake_tree, placement.where, "memory.swappiness") == "0"
    assert any("swappiness=0" in note for note in placement.notes)
    placement.close()


def test_cgroup1_that_silently_ignores_the_limit_is_refused_and_removed(
    fake_tree: FakeTree,
) -> None:
    fake_tree.proc()
    fake_tree.v1()
    fs = fake_tree.fs(ignore=frozenset({"memory.limit_in_bytes", "memory.memsw.limit_in_bytes"}))
    with pytest.raises(BackendUnavailable, match="silently ignored"):
        Cgroup1Backend(fs=fs).arm(LIMITS)
    assert fs.made() == []


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_a_lower_limit_above_is_noted_and_named_in_kill_reports(
    fake_tree: FakeTree, version: str
) -> None:
    fake_tree.proc()
    backend: type[Cgroup1Backend | Cgroup2Backend]
    if version == "v1":
        fake_tree.v1()
        mount, limit_file, backend = V1_MOUNT, "memory.limit_in_bytes", Cgroup1Backend
    else:
        fake_tree.v2(own_subtree="memory")
        mount, limit_file, backend = V2_MOUNT, "memory.max", Cgroup2Backend
    fake_tree.write(f"{mount}/user/me/{limit_file}", str(300 * M))  # our own cgroup
    fake_tree.write(f"{mount}/user/{limit_file}", str(60 * M))  # its parent
    placement = backend(fs=fake_tree.fs()).arm(LIMITS)
    assert placement.enclosing_limit == 60 * M
    assert placement.notes == [
        f"{mount}/user is limited to 60M, below the 100M asked: the OOM killer acts at that "
        "lower limit"
    ]
    placement.close()


def test_a_higher_limit_above_is_not_noted(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v1()
    fake_tree.write(f"{V1_MOUNT}/user/me/memory.limit_in_bytes", str(100 * M))
    placement = Cgroup1Backend(fs=fake_tree.fs()).arm(LIMITS)
    assert (placement.enclosing_limit, placement.notes) == (None, [])
    placement.close()


def dead_pid() -> int:
    """The pid of a process that has ended (and been reaped)."""
    return int(subprocess.run(["sh", "-c", "echo $$"], capture_output=True, text=True).stdout)


def test_empty_cgroups_of_runs_that_are_gone_are_removed(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v1()
    gone, busy = dead_pid(), dead_pid()
    own = f"{V1_MOUNT}/user/me"
    for name, procs in [
        (f"dotdbg-memlimit-{gone}", ""),  # its memlimit was killed -9
        (f"dotdbg-memlimit-{gone}-1", ""),
        (f"dotdbg-memlimit-{busy}", "4242\n"),  # its command still runs: not ours to kill
        (f"dotdbg-memlimit-{os.getppid()}", ""),  # its memlimit still runs
        ("someone-else", ""),
    ]:
        fake_tree.write(f"{own}/{name}/cgroup.procs", procs)
    placement = Cgroup1Backend(fs=fake_tree.fs()).arm(LIMITS)
    assert "removed 2 empty cgroup(s) left by memlimit runs killed -9" in placement.notes
    # the same listing finds the command left running, and says how to end it
    assert [note for note in placement.notes if "killed -9 left" in note] == [
        f"a memlimit run killed -9 left 1 process(es) running under its limit in "
        f"{own}/dotdbg-memlimit-{busy}: 4242 (?); end them with `kill 4242` (the next memlimit "
        "run then removes the cgroup)"
    ]
    placement.close()
    left = sorted(path.name for path in (fake_tree.root / own.lstrip("/")).iterdir())
    kept = ["cgroup.procs", f"dotdbg-memlimit-{busy}", f"dotdbg-memlimit-{os.getppid()}"]
    assert [name for name in left if not name.startswith("memory.")] == sorted(
        [*kept, "someone-else"]
    )


def test_cgroup1_needs_a_mounted_memory_controller(fake_tree: FakeTree) -> None:
    fake_tree.proc(v1=False)
    probe = Cgroup1Backend(fs=fake_tree.fs()).probe()
    assert (probe.works, probe.why) == (False, "no cgroup v1 memory controller is mounted")


def test_auto_falls_through_silent_ignores_to_a_backend_that_limits(
    fake_tree: FakeTree, capfd: pytest.CaptureFixture[str]
) -> None:
    fake_tree.proc()
    fake_tree.v1()
    fake_tree.v2()
    ignored = {"memory.max", "memory.limit_in_bytes", "memory.memsw.limit_in_bytes"}
    fs = fake_tree.fs(ignore=frozenset(ignored))
    backends: list[Backend] = [Cgroup2Backend(fs=fs), Cgroup1Backend(fs=fs), RlimitBackend()]
    show = "import os, resource as r; print(os.environ['MEMLIMIT'], r.getrlimit(r.RLIMIT_DATA))"
    code = run_memlimit(LIMITS, [sys.executable, "-c", show], backends=backends)
    out, err = capfd.readouterr()
    assert code == 0
    assert out.strip() == f"100M ({100 * M}, {100 * M})"
    lines = err.splitlines()
    assert lines[0].startswith("memlimit: not using cgroup2: memory.max reads max")
    assert lines[1].startswith("memlimit: not using cgroup1: memory.limit_in_bytes reads")
    assert lines[2] == "memlimit: 100M RAM, no swap, backend rlimit (RLIMIT_DATA + RSS watchdog)"
    assert fs.made() == []


def test_a_named_backend_that_cannot_work_is_a_user_error(fake_tree: FakeTree) -> None:
    fake_tree.proc()
    fake_tree.v2(parent_subtree="", controllers="hugetlb")
    backends: list[Backend] = [Cgroup2Backend(fs=fake_tree.fs()), RlimitBackend()]
    with pytest.raises(DotdbgError) as caught:
        run_memlimit(LIMITS, ["true"], backend="cgroup2", backends=backends)
    assert caught.value.message.startswith("backend cgroup2 cannot limit memory here: no memory")
    assert caught.value.exit_code == 2


def fake_systemd(fake_tree: FakeTree, tmp_path: Path, delegated: str) -> SystemdBackend:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "systemd-run").write_text("#!/bin/sh\nexit 1\n")
    (bin_dir / "systemd-run").chmod(0o755)
    fake_tree.write("/run/user/0/systemd/private", "")
    uid = os.getuid()
    manager = f"{V2_MOUNT}/user.slice/user-{uid}.slice/user@{uid}.service"
    fake_tree.write(f"{manager}/cgroup.controllers", delegated)
    environ = {"PATH": str(bin_dir), "XDG_RUNTIME_DIR": "/run/user/0"}
    return SystemdBackend(fs=fake_tree.fs(), environ=environ)


def test_systemd_without_memory_delegation_is_not_trusted(
    fake_tree: FakeTree, tmp_path: Path
) -> None:
    fake_tree.proc()
    probe = fake_systemd(fake_tree, tmp_path, delegated="cpu pids").probe()
    assert not probe.works
    assert "would silently ignore MemoryMax" in probe.why


def test_systemd_with_memory_delegation_works(fake_tree: FakeTree, tmp_path: Path) -> None:
    fake_tree.proc()
    probe = fake_systemd(fake_tree, tmp_path, delegated="cpu memory pids").probe()
    assert probe.works, probe.why


def test_systemd_scope_whose_memory_max_stayed_max_is_refused(
    fake_tree: FakeTree, tmp_path: Path
) -> None:
    fake_tree.proc()
    backend = fake_systemd(fake_tree, tmp_path, delegated="memory")
    placement = backend.arm(LIMITS)
    assert placement.wrap(["bash"])[-2:] == ["--", "bash"]
    scope = "/user.slice/user-0.slice/user@0.service/app.slice/run-r1.scope"
    fake_tree.write("/proc/4242/cgroup", f"0::{scope}\n")
    fake_tree.write(f"{V2_MOUNT}{scope}/memory.max", "max")
    with pytest.raises(BackendUnavailable, match="silently ignored"):
        placement.admit(4242)


# Runs the command after `--` like systemd-run --scope does (same pid), and says its version.
EXEC_AFTER_DASHES = """#!/bin/sh
[ "$1" = --version ] && { echo "systemd 255 (255.4-1)"; exit 0; }
while [ "$1" != -- ]; do shift; done
shift
exec "$@"
"""


def test_auto_falls_through_a_scope_that_ignored_memory_max(
    fake_tree: FakeTree, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The methodology's trap end to end: systemd-run takes MemoryMax= and the scope it makes
    reads memory.max "max"; the command, held at the gate, never runs there."""
    fake_tree.proc()
    scope = "/user.slice/user-0.slice/user@0.service/app.slice/run-r1.scope"
    fake_tree.write(f"{V2_MOUNT}{scope}/memory.max", "max")
    fake_tree.write(f"{V2_MOUNT}{scope}/cgroup.procs", "")

    class ScopeFS(FakeKernelFS):
        def memberships(self, pid: int | str = "self") -> dict[str, str]:
            return super().memberships(pid) if pid == "self" else {"": scope}

    systemd = fake_systemd(fake_tree, tmp_path, delegated="memory")
    (tmp_path / "bin" / "systemd-run").write_text(EXEC_AFTER_DASHES)
    systemd = SystemdBackend(fs=ScopeFS(root=fake_tree.root), environ=systemd.environ)
    witness = tmp_path / "ran-in-the-scope"
    show = f"import os; open({str(witness)!r}, 'a').write('x'); print(os.environ['MEMLIMIT'])"
    code = run_memlimit(LIMITS, [sys.executable, "-c", show], backends=[systemd, RlimitBackend()])
    out, err = capfd.readouterr()
    assert (code, out, witness.read_text()) == (0, "100M\n", "x")  # it ran once: under rlimit
    lines = err.splitlines()
    assert lines[0] == (
        f"memlimit: not using systemd: memory.max reads max after writing {100 * M}: "
        "the limit was silently ignored"
    )
    assert lines[1].startswith("memlimit: 100M RAM, no swap, backend rlimit")


def test_systemd_is_missing_without_systemd_run(fake_tree: FakeTree, tmp_path: Path) -> None:
    fake_tree.proc()
    backend = SystemdBackend(fs=fake_tree.fs(), environ={"PATH": str(tmp_path)})
    assert backend.probe().why == "systemd-run is not installed"
