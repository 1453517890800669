"""A cgroup directory memlimit made: create it, admit the child, read its counters, remove it."""

from __future__ import annotations

import errno
import os

from dotdbg.common.rawsignal import signal
from dotdbg.common.sizes import short_size
from dotdbg.memlimit.backends.base import BackendProbe, BackendUnavailable, OomCounters, Placement
from dotdbg.memlimit.cgroupfs import (
    PROCS,
    CgroupFS,
    Mount,
    is_within,
    parents,
    under_mount,
    wait_until,
)
from dotdbg.memlimit.limits import limit_in_force

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dotdbg.memlimit.limits import Limits

PREFIX = "dotdbg-memlimit-"
EMPTY_TIMEOUT = 5.0


def owner_pid(name: str) -> int | None:
    """The pid of the memlimit run a cgroup named ``dotdbg-memlimit-PID[-N]`` belongs to; None
    for any other name. Parsed by hand: ``re`` is an import memlimit's start does without."""
    if not name.startswith(PREFIX):
        return None
    pid, dash, attempt = name[len(PREFIX) :].partition("-")
    if not _digits(pid) or (dash and not _digits(attempt)):
        return None
    return int(pid)


def _digits(text: str) -> bool:
    return text.isascii() and text.isdigit()


def _running(pid: int) -> bool:
    # procs.procfs.pid_exists, without importing that module (typing and functools: ~2 ms)
    return os.path.exists(f"/proc/{pid}")


class Leftover:
    """The cgroup of a memlimit run killed -9, its command still running in it.

    A plain class, not a NamedTuple: typing's import is about 10 ms of memlimit's start."""

    __slots__ = ("commands", "directory", "pids")

    def __init__(self, directory: str, pids: tuple[int, ...], commands: tuple[str, ...]) -> None:
        self.directory, self.pids, self.commands = directory, pids, commands

    def __repr__(self) -> str:
        return f"Leftover({self.directory!r}, {self.pids!r}, {self.commands!r})"

    def message(self) -> str:
        shown = ", ".join(
            f"{pid} ({command})" for pid, command in zip(self.pids, self.commands, strict=True)
        )
        pids = " ".join(map(str, self.pids))
        return (
            f"a memlimit run killed -9 left {len(self.pids)} process(es) running under its "
            f"limit in {self.directory}: {shown}; end them with `kill {pids}` (the next "
            "memlimit run then removes the cgroup)"
        )

    @property
    def fix(self) -> str:
        return f"kill {' '.join(map(str, self.pids))}"


def orphans(fs: CgroupFS, parent: str) -> dict[str, list[int]]:
    """The cgroups in ``parent`` of memlimit runs that are gone, each with the pids still in it
    (one listing of ``parent``; the cgroup of a run that still goes is not theirs to touch)."""
    found = {}
    for name in fs.children(parent):
        pid = owner_pid(name)
        if pid is not None and not _running(pid):
            directory = os.path.join(parent, name)
            found[directory] = fs.pids(directory)
    return found


def sweep(fs: CgroupFS, parent: str) -> tuple[int, list[Leftover]]:
    """Remove the empty cgroups of memlimit runs that are gone (a ``kill -9`` cannot be cleaned
    up after, issue 21) and report the ones whose command still runs: how many were removed,
    and the leftovers. A cgroup that holds processes, or whose memlimit still runs, stays."""
    removed, left = 0, []
    for directory, pids in orphans(fs, parent).items():
        if pids:
            left.append(_leftover(fs, directory, pids))
            continue
        try:
            fs.rmdir(directory)
        except OSError:
            continue
        removed += 1
    return removed, left


def leftovers(fs: CgroupFS, parent: str) -> list[Leftover]:
    """The cgroups of memlimit runs that are gone but whose command still runs there."""
    return [_leftover(fs, d, pids) for d, pids in orphans(fs, parent).items() if pids]


def _leftover(fs: CgroupFS, directory: str, pids: list[int]) -> Leftover:
    return Leftover(directory, tuple(pids), tuple(_command_line(fs, pid) for pid in pids))


def leftovers_below(fs: CgroupFS, find_parent: Callable[[], tuple[Mount, str]]) -> list[Leftover]:
    """``leftovers`` in the parent a backend makes its cgroups in (none where it cannot)."""
    try:
        _, parent = find_parent()
    except BackendUnavailable:
        return []
    return leftovers(fs, parent)


def _command_line(fs: CgroupFS, pid: int) -> str:
    try:
        words = fs.read(f"/proc/{pid}/cmdline").split("\0")
    except OSError:
        return "?"
    line = " ".join(word for word in words if word)
    return line if len(line) <= 60 else line[:57] + "..."


def make_cgroup(fs: CgroupFS, parent: str) -> str:
    """A new child cgroup of ``parent`` named after this process."""
    for attempt in range(100):
        suffix = f"-{attempt}" if attempt else ""
        directory = os.path.join(parent, f"{PREFIX}{os.getpid()}{suffix}")
        try:
            fs.mkdir(directory)
        except FileExistsError:
            continue
        except OSError as error:
            raise BackendUnavailable(
                f"cannot create a cgroup in {parent}: {error.strerror}"
            ) from None
        return directory
    raise BackendUnavailable(f"cannot find a free cgroup name in {parent}")


def write_limit(fs: CgroupFS, directory: str, name: str, value: int | str) -> None:
    try:
        fs.write(os.path.join(directory, name), str(value))
    except OSError as error:
        raise BackendUnavailable(
            f"the kernel refused {value} for {name}: {error.strerror}"
        ) from None


def verify_limit(fs: CgroupFS, directory: str, name: str, requested: int) -> None:
    """Read a limit back: a kernel or manager may accept the write and still not apply it."""
    read_back = fs.read_int(os.path.join(directory, name))
    if read_back is None or not limit_in_force(requested, read_back, os.sysconf("SC_PAGE_SIZE")):
        shown = "max" if read_back is None else read_back
        raise BackendUnavailable(
            f"{name} reads {shown} after writing {requested}: the limit was silently ignored"
        )


def enclosing_limit(
    fs: CgroupFS, mount: Mount, directory: str, limit_file: str
) -> tuple[int, str] | None:
    """The lowest limit set on a cgroup above ``directory`` in this hierarchy, and where."""
    tightest: tuple[int, str] | None = None
    for level in parents(directory):
        if not is_within(level, mount.point):
            break
        try:
            limit = fs.read_int(os.path.join(level, limit_file))
        except (OSError, ValueError):
            limit = None
        if limit is not None and (tightest is None or limit < tightest[0]):
            tightest = (limit, level)
    return tightest


def note_enclosing_limit(
    placement: Placement,
    fs: CgroupFS,
    mount: Mount,
    directory: str,
    limit_file: str,
    requested: int,
) -> None:
    """Tell, up front and in kill reports, when a cgroup above has a lower limit, which then
    acts first: usage here can never reach the limit asked for."""
    found = enclosing_limit(fs, mount, directory, limit_file)
    if found is None or found[0] >= requested:
        return
    placement.enclosing_limit = found[0]
    placement.notes.append(
        f"{found[1]} is limited to {short_size(found[0])}, below the {short_size(requested)} "
        "asked: the OOM killer acts at that lower limit"
    )


def kill_stragglers(fs: CgroupFS, directory: str) -> int:
    """SIGKILL every process left in ``directory`` until it is empty; returns how many there were.

    The command has exited, but processes it left behind (background jobs, daemons) still sit
    in the cgroup, and a cgroup can only be removed once empty. Moving them to the parent would
    let them run on without the limit they were started under, charged to someone else, which
    silently changes the experiment; so they are killed, as systemd does when it stops a scope.
    """
    seen: set[int] = set()

    def empty() -> bool:
        pids = fs.pids(directory)
        for pid in pids:
            seen.add(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        return not pids

    wait_until(empty, EMPTY_TIMEOUT)
    return len(seen)


def remove_cgroup(fs: CgroupFS, directory: str) -> list[str]:
    """Empty and remove ``directory``; messages say what had to be killed or what went wrong."""
    messages = []
    stragglers = kill_stragglers(fs, directory)
    if stragglers:
        messages.append(f"killed {stragglers} process(es) left in the cgroup after the command")

    def removed() -> bool:
        try:
            fs.rmdir(directory)
        except FileNotFoundError:
            return True
        except OSError as error:
            if error.errno != errno.EBUSY:
                raise
            return False
        return True

    try:
        if not wait_until(removed, EMPTY_TIMEOUT):
            messages.append(f"could not remove {directory}: still busy; rmdir it later")
    except OSError as error:
        messages.append(f"could not remove {directory}: {error.strerror}")
    return messages


class CgroupKind:
    """How a cgroup version names things: its key in /proc/PID/cgroup and its counter files."""

    __slots__ = ("events_file", "label", "membership", "peak_file")

    def __init__(self, label: str, membership: str, events_file: str, peak_file: str) -> None:
        self.label, self.membership = label, membership
        self.events_file, self.peak_file = events_file, peak_file


V1 = CgroupKind("cgroup-v1", "memory", "memory.oom_control", "memory.max_usage_in_bytes")
V2 = CgroupKind("cgroup-v2", "", "memory.events", "memory.peak")


class CgroupPlacement(Placement):
    """A cgroup this run created."""

    def __init__(self, fs: CgroupFS, mount: Mount, directory: str, kind: CgroupKind) -> None:
        super().__init__(kind.label, str(directory))
        self.fs, self.mount, self.directory, self.kind = fs, mount, directory, kind
        self.removed = False

    def admit(self, pid: int) -> None:
        write_limit(self.fs, self.directory, PROCS, pid)
        try:
            where = self.fs.memberships(pid).get(self.kind.membership)
        except OSError:
            where = None
        if where is None or under_mount(self.mount, where) != self.directory:
            raise BackendUnavailable(f"pid {pid} did not arrive in {self.directory}")

    def counters(self) -> OomCounters:
        events = self.fs.read_keyed(os.path.join(self.directory, self.kind.events_file))
        peak = self.fs.read_int(os.path.join(self.directory, self.kind.peak_file))
        return OomCounters(kills=events.get("oom_kill", 0), peak=peak)

    def close(self) -> list[str]:
        if self.removed:
            return []
        self.removed = True
        return remove_cgroup(self.fs, self.directory)


def arm_cgroup(
    fs: CgroupFS,
    mount: Mount,
    parent: str,
    kind: CgroupKind,
    apply: Callable[[str], list[str]],
) -> CgroupPlacement:
    """Make a cgroup below ``parent`` and ``apply`` the limits (it returns notes); on any
    refusal the cgroup is removed again before the reason travels on."""
    stale, left = sweep(fs, parent)
    directory = make_cgroup(fs, parent)
    placement = CgroupPlacement(fs, mount, directory, kind)
    if stale:
        placement.notes.append(f"removed {stale} empty cgroup(s) left by memlimit runs killed -9")
    placement.notes.extend(leftover.message() for leftover in left)
    try:
        placement.notes.extend(apply(directory))
    except BackendUnavailable:
        placement.close()
        raise
    return placement


class CgroupBackend:
    """What the cgroup v1 and v2 backends share: find the parent cgroup, make a child below it
    with the limits applied, note a lower limit above it. A version says where (``_parent``),
    what to write (``_apply``) and what its probe reports (``_works``)."""

    name = ""
    kind = V1
    limit_file = ""

    def __init__(self, fs: CgroupFS | None = None) -> None:
        self.fs = fs or CgroupFS()

    def probe(self) -> BackendProbe:
        try:
            _, parent = self._parent()
        except BackendUnavailable as why:
            return BackendProbe(self.name, False, str(why))
        return BackendProbe(self.name, True, self._works(parent))

    def arm(self, limits: Limits) -> CgroupPlacement:
        mount, parent = self._parent()
        placement = arm_cgroup(
            self.fs, mount, parent, self.kind, lambda cgroup: self._apply(cgroup, limits)
        )
        directory, ram = placement.directory, limits.ram
        note_enclosing_limit(placement, self.fs, mount, directory, self.limit_file, ram)
        return placement

    def parent_dir(self) -> str:
        """The cgroup this backend makes its cgroups in (BackendUnavailable where none)."""
        return self._parent()[1]

    def leftovers(self) -> list[Leftover]:
        """Commands of memlimit runs killed -9 that still run in their cgroup here."""
        return leftovers_below(self.fs, self._parent)

    def _parent(self) -> tuple[Mount, str]:
        raise NotImplementedError

    def _apply(self, directory: str, limits: Limits) -> list[str]:
        raise NotImplementedError

    def _works(self, parent: str) -> str:
        raise NotImplementedError
