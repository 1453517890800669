"""``systemd-run --user --scope``: the methodology's own command, checked before it is trusted.

Without cgroup v2 memory delegation to the user manager, systemd-run accepts MemoryMax= and
silently ignores it; so the probe looks for that delegation, and ``admit`` reads memory.max of
the scope the command landed in before the command may run.
"""

from __future__ import annotations

import os

from dotdbg.common.programs import which
from dotdbg.memlimit.backends.base import (
    BackendProbe,
    BackendUnavailable,
    OomCounters,
    Placement,
)
from dotdbg.memlimit.backends.cgroupdir import (
    kill_stragglers,
    note_enclosing_limit,
    verify_limit,
)
from dotdbg.memlimit.cgroupfs import CgroupFS, Mount, under_mount

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from dotdbg.memlimit.limits import Limits

# OOMPolicy= is accepted for scope units from systemd 253 on (systemd.scope(5)).
OOM_POLICY_SINCE = 253


def systemd_run_argv(exe: str, limits: Limits, version: int | None) -> list[str]:
    """The systemd-run prefix that puts a command in a scope with these limits."""
    high = "infinity" if limits.high is None else str(limits.high)
    argv = [exe, "--user", "--scope", "--quiet", "--collect"]
    for prop in (f"MemoryMax={limits.ram}", f"MemorySwapMax={limits.swap}", f"MemoryHigh={high}"):
        argv += ["-p", prop]
    if version is not None and version >= OOM_POLICY_SINCE:
        # One OOM-killed child must not take the whole shell down with it.
        argv += ["-p", "OOMPolicy=continue"]
    return [*argv, "--"]


def parse_systemd_version(text: str) -> int | None:
    import re  # only once systemd is chosen

    match = re.match(r"systemd (\d+)", text)
    return int(match[1]) if match else None


class SystemdPlacement(Placement):
    def __init__(self, fs: CgroupFS, mount: Mount, prefix: list[str], limits: Limits) -> None:
        super().__init__("systemd", "a systemd scope")
        self.fs, self.mount, self.prefix, self.limits = fs, mount, prefix, limits
        self.scope: str | None = None
        self.last = OomCounters()

    def wrap(self, argv: list[str]) -> list[str]:
        return [*self.prefix, *argv]

    def admit(self, pid: int) -> None:
        try:
            where = self.fs.memberships(pid).get("")
        except OSError:
            where = None
        if where is None:
            raise BackendUnavailable(f"pid {pid} has no cgroup v2 membership")
        self.scope = under_mount(self.mount, where)
        self.where = self.scope
        verify_limit(self.fs, self.scope, "memory.max", self.limits.ram)
        note_enclosing_limit(self, self.fs, self.mount, self.scope, "memory.max", self.limits.ram)

    def tick(self, pid: int) -> None:
        # systemd removes the scope as soon as it is empty, so keep the last counters seen.
        self.last = self.counters()

    def counters(self) -> OomCounters:
        if self.scope is None:
            return self.last
        events = self.fs.read_keyed(os.path.join(self.scope, "memory.events"))
        if not events:
            return self.last
        peak = self.fs.read_int(os.path.join(self.scope, "memory.peak"))
        return OomCounters(kills=events.get("oom_kill", 0), peak=peak)

    def close(self) -> list[str]:
        if self.scope is None:
            return []
        stragglers = kill_stragglers(self.fs, self.scope)
        return [f"killed {stragglers} process(es) left in the scope"] if stragglers else []


class SystemdBackend:
    name = "systemd"

    def __init__(
        self, fs: CgroupFS | None = None, environ: Mapping[str, str] | None = None
    ) -> None:
        self.fs = fs or CgroupFS()
        self.environ = dict(os.environ) if environ is None else environ

    def probe(self) -> BackendProbe:
        try:
            exe, _ = self._check()
        except BackendUnavailable as why:
            return BackendProbe(self.name, False, str(why))
        return BackendProbe(self.name, True, f"{exe} with a user manager that owns memory")

    def arm(self, limits: Limits) -> SystemdPlacement:
        exe, mount = self._check()
        prefix = systemd_run_argv(exe, limits, self._version(exe))
        return SystemdPlacement(self.fs, mount, prefix, limits)

    def _check(self) -> tuple[str, Mount]:
        exe = which("systemd-run", self.environ.get("PATH"))
        if exe is None:
            raise BackendUnavailable("systemd-run is not installed")
        runtime = self.environ.get("XDG_RUNTIME_DIR")
        if not runtime or not self.fs.exists(os.path.join(runtime, "systemd", "private")):
            raise BackendUnavailable("no systemd user manager is running for this user")
        mount = next((m for m in self.fs.mounts() if m.fstype == "cgroup2"), None)
        if mount is None or "memory" not in self._manager_controllers(mount):
            raise BackendUnavailable(
                "the user manager has no memory controller delegated, "
                "so systemd-run --user would silently ignore MemoryMax"
            )
        return exe, mount

    def _manager_controllers(self, mount: Mount) -> set[str]:
        uid = os.getuid()
        manager = under_mount(mount, f"/user.slice/user-{uid}.slice/user@{uid}.service")
        try:
            return set(self.fs.read(os.path.join(manager, "cgroup.controllers")).split())
        except OSError:
            return set()

    @staticmethod
    def _version(exe: str) -> int | None:
        import subprocess  # only once systemd is chosen: the import costs every other run 3 ms

        try:
            done = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return parse_systemd_version(done.stdout)
