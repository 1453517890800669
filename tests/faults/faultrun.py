"""Fault injection with strace: a dotdbg command run with EIO, ENOSPC, EDQUOT or SIGKILL at one
of its system calls in the home, and the checks that must hold after it.

A point is the N-th call of one system call (strace's ``when=N`` counts per system call), found
by tracing the command once with ``-y`` (file descriptors shown with their paths) and keeping
the calls that touch the test's home: writes, and (since issue 21) the stat family, close,
getdents64, lseek, access and every read of a home file. Only the dotdbg process is traced:
faults in bash -n or shellcheck are their own story. PYTHONHASHSEED is fixed so that each run
makes the same calls. The sweep gives each point the faults its call can meet (``Point.faults``,
worked out by ``points_of``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dotdbg.config import load_config
from dotdbg.home.backup import backup_dirs, is_complete, read_backup, verified_copy
from dotdbg.home.edit import add
from dotdbg.home.install import install
from dotdbg.paths import Paths

STRACE = shutil.which("strace")
FAST = ["-f", "--seccomp-bpf"]  # children traced too, and stopped only at the traced calls
SYSCALLS = (
    "openat",
    "read",
    "write",
    "fsync",
    "rename",
    "unlink",
    "mkdir",
    "rmdir",
    "fchmod",
    "flock",
    # issue 21: the calls a second audit added (os.stat and os.lstat are newfstatat here;
    # fstat, stat, lstat and statx are listed for the C libraries that make them instead)
    "newfstatat",
    "fstat",
    "stat",
    "lstat",
    "statx",
    "close",
    "getdents64",
    "lseek",
    "access",
    "faccessat",
    "faccessat2",
)
FAULTS = ("EIO", "ENOSPC", "EDQUOT", "SIGKILL")
# The errors the sweep gives a call: EIO at every call (a failing disk or a lost NFS server can
# fail any call that reaches the file system), ENOSPC and EDQUOT only where the call can take
# space, as their man pages list them: a read, a stat or a directory listing never returns them.
ERRORS = ("EIO", "ENOSPC", "EDQUOT")
TAKES_SPACE = {"write", "fsync", "rename", "mkdir"}  # and an open that creates, and the close
# of a file opened for writing (close(2): NFS reports a failed write-back there)
# The calls that change what is on disk (beside those of SYSCALLS that do), traced to tell which
# SIGKILLs leave the same disk: a kill between two of them leaves the disk as any other kill there.
CHANGES_DISK = (
    "pwrite64",
    "writev",
    "pwritev",
    "renameat",
    "renameat2",
    "unlinkat",
    "mkdirat",
    "symlink",
    "symlinkat",
    "link",
    "linkat",
    "chmod",
    "fchmodat",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "utimensat",
    "utimes",
    "futimesat",
    "truncate",
    "ftruncate",
    "fallocate",
    "sendfile",
    "copy_file_range",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "open",
    "creat",
)
_BY_DESCRIPTOR = {"write", "pwrite64", "writev", "pwritev", "ftruncate", "fallocate", "fchmod"}
_BY_DESCRIPTOR |= {"fchown", "sendfile", "copy_file_range", "fsetxattr", "fremovexattr"}
_NOT_DISK = ("pipe:", "socket:", "anon_inode:", "/dev/", "/memfd:", "/proc/")
# Calls bash -n and shellcheck never make: a run given an error at one of them can trace its
# children too, with --seccomp-bpf, which stops only at the traced call (2.5x faster). strace
# counts when=N per process, so the children cannot take the fault meant for dotdbg. (strace 6
# delivers no injected signal under --seccomp-bpf: SIGKILL cases stop at every call.)
CHILDLESS = {"rename", "flock", "mkdir", "rmdir", "fchmod", "unlink", "fsync"}
_CALL = re.compile(r"^(?P<pid>[0-9]+) +(?P<name>[a-z0-9_]+)\((?P<args>.*)")
SKEL = Path("/etc/skel/.bashrc")
DEBIAN = (
    SKEL.read_bytes() if SKEL.exists() else b'# ~/.bashrc\nHISTSIZE=1000\n[ -z "$PS1" ] && return\n'
)


@dataclass(frozen=True)
class Point:
    syscall: str
    nth: int  # strace's when=N
    line: str  # the traced call, for reports
    faults: tuple[str, ...] = FAULTS  # what the sweep tries here
    alone: bool = False  # no child or thread makes this call N times: -f --seccomp-bpf is safe

    def __str__(self) -> str:
        return f"{self.syscall}#{self.nth}: {self.line[:110]}"


# -- homes -------------------------------------------------------------------------------------


def shape_home(home: Path, shape: str) -> None:
    """A home with a ~/.bashrc of one of the shapes users have."""
    home.mkdir(parents=True, exist_ok=True)
    bashrc = home / ".bashrc"
    if shape == "debian":
        bashrc.write_bytes(DEBIAN)
    elif shape == "symlinked":
        (home / "dotfiles").mkdir()
        (home / "dotfiles/bashrc").write_bytes(DEBIAN)
        bashrc.symlink_to(home / "dotfiles/bashrc")
    elif shape == "crlf":
        bashrc.write_bytes(b"export A=1\r\nalias ll='ls -l'\r\n")
    elif shape == "no-newline":
        bashrc.write_bytes(b"export EDITOR=vim")
    elif shape == "existing-block":
        bashrc.write_bytes(DEBIAN)
        (home / ".pdbrc").write_bytes(b"alias pl pp locals()\n")
        install(Paths.from_env(home), load_config(Paths.from_env(home), user_text=""))
    elif shape == "zsh-fish":
        bashrc.write_bytes(DEBIAN)
        (home / ".zshrc").write_bytes(b"setopt HIST_IGNORE_DUPS\nalias gs='git status'\n")
        (home / ".config/fish/conf.d").mkdir(parents=True)
        (home / ".config/fish/conf.d/mine.fish").write_bytes(b"set -gx EDITOR vim\n")
    elif shape != "missing":
        raise ValueError(shape)


SHAPES = ("debian", "symlinked", "crlf", "no-newline", "existing-block", "missing", "zsh-fish")
STAMP = "{oldest backup}"  # in an argv: the name of the oldest backup after the setup


@dataclass(frozen=True)
class Operation:
    name: str
    argv: tuple[str, ...]  # after `dotdbg`; --home is added
    setup: Callable[[Paths], None] = field(default=lambda paths: None)
    report_exit: int | None = None  # an exit that reports findings (doctor: a check failed)


# The three shells, as for a user who has all of them (the first install sets up the shells a
# home shows it uses): every file kind dotdbg writes is faulted.
SHELLS = ("bash", "zsh", "fish")


def _installed(paths: Paths) -> None:
    install(paths, load_config(paths), shells=SHELLS)


def _installed_and_edited(paths: Paths) -> None:
    _installed(paths)
    add(paths, "aliases", "zz", "echo zz")


def _installed_and_functions_added(paths: Paths) -> None:
    _installed(paths)
    add(paths, "functions", "mkcd", 'mkdir -p "$1" && cd "$1"')


def _installed_twice(paths: Paths) -> None:
    """Two backups: the install's and the edit's."""
    _installed_and_edited(paths)
    install(paths, load_config(paths), shells=SHELLS)


def settle_backups(paths: Paths) -> None:
    """The setup's backups renamed, in order, to fixed stamps of the past: the command's own
    backup then always takes the same name. (One made in the same second as the setup's took a
    -2 suffix, one stat more, and the two workers' traces did not line up.)"""
    for number, folder in enumerate(backup_dirs(paths)):
        folder.rename(folder.with_name(f"20200101T0000{number:02d}Z"))


def _installed_profile_not_loading(paths: Paths) -> None:
    _installed(paths)
    (paths.home / ".bash_profile").write_bytes(b'export PATH="$HOME/bin:$PATH"\n')


OPERATIONS = {
    "install": Operation("install", ("install", "--shell", ",".join(SHELLS))),
    "uninstall": Operation("uninstall", ("uninstall",), _installed),
    "restore": Operation("restore", ("restore",), _installed_and_edited),
    "alias add": Operation("alias add", ("alias", "add", "gst", "git status --short"), _installed),
    "alias rm": Operation("alias rm", ("alias", "rm", "zz"), _installed_and_edited),
    "fn add (not installed)": Operation("fn add", ("fn", "add", "mkcd", 'mkdir -p "$1"')),
    # issue 21
    "pack off": Operation("pack off", ("pack", "off", "git"), _installed),
    "fn rm": Operation("fn rm", ("fn", "rm", "mkcd"), _installed_and_functions_added),
    "alias rm (a default)": Operation("alias rm", ("alias", "rm", "pyt"), _installed),
    "restore NAME": Operation("restore NAME", ("restore", STAMP), _installed_twice),
    "doctor --fix": Operation(
        "doctor --fix", ("doctor", "--fix"), _installed_profile_not_loading, report_exit=1
    ),
}


def snapshot(home: Path) -> dict[str, bytes]:
    """Every file of the home but dotdbg's state (lock, journal, manifest, backups); a
    symlink as its link text."""
    found = {}
    for path in sorted(home.rglob("*")):
        name = str(path.relative_to(home))
        if name.startswith(".local/state"):
            continue
        if path.is_symlink():
            found[name] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            found[name] = path.read_bytes()
    return found


# -- running ---------------------------------------------------------------------------------


def command(operation: Operation, home: Path) -> list[str]:
    """The command line, after the setup (a backup's name is known only then)."""
    argv = list(operation.argv)
    if STAMP in argv:
        argv[argv.index(STAMP)] = backup_dirs(Paths.from_env(home))[0].name
    return [sys.executable, "-m", "dotdbg", *argv, "--home", str(home)]


def environment(home: Path) -> dict[str, str]:
    return {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",  # a first run writing .pyc files would shift the count
        "NO_COLOR": "1",
        "LANG": "C.UTF-8",
    }


def keep_compiled_templates(home: Path) -> None:
    """Render once with compiled templates kept (home.compiled), so that every traced or
    faulted run finds them and makes the same calls: a run that wrote them would make more,
    and another test writing them between a trace and its faulted run would shift the count."""
    import compileall

    import dotdbg
    from dotdbg.home.install import render_for

    # and dotdbg's .pyc files written: under PYTHONDONTWRITEBYTECODE a fresh checkout would
    # compile every module at every run (twice as slow), and a stale one the edited modules
    compileall.compile_dir(Path(dotdbg.__file__).parent, quiet=1)

    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, False
    try:
        paths = Paths.from_env(home)
        render_for(paths, load_config(paths), SHELLS)
    finally:
        sys.dont_write_bytecode = writes


def write_points(
    argv: list[str], home: Path, trace: Path, ok_exits: tuple[int, ...] = (0,)
) -> list[Point]:
    """The calls of ``argv`` that write (or read dotdbg's state) in ``home``, numbered as
    strace's when=N counts them, each with the faults the sweep gives it."""
    assert STRACE
    keep_compiled_templates(home)
    traced = ",".join(SYSCALLS + CHANGES_DISK)
    done = subprocess.run(
        [STRACE, *FAST, "-y", "-o", str(trace), "-e", f"trace={traced}", *argv],
        env=environment(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    # a command that fails unfaulted would make every case a test of its error path
    assert done.returncode in ok_exits, f"{argv[3:5]} failed unfaulted: {done.stderr[-300:]}"
    return points_of(trace.read_text(errors="replace").splitlines(), home)


@dataclass
class _Call:
    name: str
    nth: int  # of its name, in its process
    args: str
    line: str
    changes_disk: bool


def points_of(lines: list[str], home: Path) -> list[Point]:
    """The points of a trace (``strace -f -y``): the main process's calls in the home."""
    calls, others, others_write_home = _calls(lines, home)
    points: list[Point] = []
    killed = set()  # the indexes in points of those SIGKILL is tried at
    last_open: dict[str, str] = {}  # a path → the arguments of its last openat
    for call in calls:
        if call.name == "openat" and (opened := re.search(r'"([^"]*)"', call.args)):
            last_open[opened[1]] = call.args
        if call.changes_disk and points:
            killed.add(len(points) - 1)  # the last point before it, if nothing changed since
        if call.name not in SYSCALLS or not _touches_home(call.name, call.args, home):
            continue
        errors = ERRORS if _takes_space(call, last_open) else ERRORS[:1]
        alone = call.name in CHILDLESS or call.nth > 2 * others.get(call.name, 0) + 32
        points.append(Point(call.name, call.nth, call.line, errors, alone))
        if call.changes_disk:
            killed.add(len(points) - 1)
    killed.add(len(points) - 1)
    # SIGKILL at a call leaves the disk as the calls before it left it: of the points between
    # two calls that change the disk only the last (which has printed the most) is killed, and
    # each point that changes the disk. Sound only while no other process writes in the home.
    if others_write_home:
        killed = set(range(len(points)))
    return [
        Point(p.syscall, p.nth, p.line, (*p.faults, "SIGKILL"), p.alone) if n in killed else p
        for n, p in enumerate(points)
    ]


def _calls(lines: list[str], home: Path) -> tuple[list[_Call], dict[str, int], bool]:
    """The main process's calls in order; for every other process or thread the most calls of
    each name it made; and whether any of theirs changed the home."""
    counts: dict[tuple[str, str], int] = {}
    main_pid = ""
    calls = []
    others: dict[str, int] = {}
    others_write_home = False
    for line in lines:
        match = _CALL.match(line)
        if not match:
            continue  # the end of a call that began on an earlier line, a signal, an exit
        pid, name, args = match["pid"], match["name"], match["args"]
        main_pid = main_pid or pid
        nth = counts[pid, name] = counts.get((pid, name), 0) + 1
        changes = _changes_disk(name, args)
        if pid == main_pid:
            calls.append(_Call(name, nth, args, line.split(" ", 1)[1].lstrip(), changes))
        else:
            others[name] = max(others.get(name, 0), nth)
            others_write_home |= changes and str(home) in args
    return calls, others, others_write_home


def _descriptor_path(args: str) -> str | None:
    """What the first argument's descriptor names (strace -y: ``3</path>``)."""
    target = re.match(r"\d+<([^>]*)>", args)
    return target[1] if target else None


def _changes_disk(name: str, args: str) -> bool:
    if name in _BY_DESCRIPTOR:
        target = _descriptor_path(args)
        return target is None or not target.startswith(_NOT_DISK)
    if name in ("openat", "open", "creat"):
        return name == "creat" or "O_CREAT" in args or "O_TRUNC" in args
    return name in CHANGES_DISK or name in ("rename", "unlink", "mkdir", "rmdir")


def _takes_space(call: _Call, last_open: dict[str, str]) -> bool:
    if call.name == "openat":
        return "O_CREAT" in call.args
    if call.name == "close":  # a file opened for writing, as its last open says
        path = _descriptor_path(call.args)
        opened = last_open.get(path) if path is not None else None
        return opened is None or "O_RDONLY" not in opened
    return call.name in TAKES_SPACE


def _touches_home(name: str, args: str, home: Path) -> bool:
    if str(home) not in args:
        return False
    if name == "openat":
        return "O_RDONLY" not in args or "/.local/state/" in args
    if name == "read":  # of any home file, since issue 21 (not the bytes read: a file's text)
        return str(home) in args.split(",")[0]
    return True


def run_faulted(
    argv: list[str], home: Path, point: Point, fault: str
) -> subprocess.CompletedProcess[str]:
    assert STRACE
    what = "signal=SIGKILL" if fault == "SIGKILL" else f"error={fault}"
    inject = f"inject={point.syscall}:{what}:when={point.nth}"
    fast = FAST if point.alone and fault != "SIGKILL" else []
    return subprocess.run(
        [STRACE, *fast, "-o", "/dev/null", "-e", f"trace={point.syscall}", "-e", inject, *argv],
        env=environment(home),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# -- the checks --------------------------------------------------------------------------------


@dataclass
class Tally:
    cases: int = 0
    bytes_lost: int = 0
    tracebacks: int = 0
    leftovers: int = 0
    failures: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"cases run: {self.cases}, bytes lost: {self.bytes_lost}, tracebacks: "
            f"{self.tracebacks}, leftovers: {self.leftovers}, failing cases: {len(self.failures)}"
        )


def lost_bytes(state: dict[str, bytes], before: dict[str, bytes], after: dict[str, bytes]) -> int:
    """Bytes of the files from before that are in neither version now (a torn or emptied file
    loses all of its old bytes)."""
    lost = 0
    for name in set(before) | set(after):
        if state.get(name) not in (before.get(name), after.get(name)):
            lost += len(before.get(name, b"")) or 1
    return lost


def leftovers(paths: Paths) -> list[str]:
    found = [str(p) for p in paths.home.rglob("*.dotdbg-tmp")]
    if paths.backups_dir.is_dir():
        found += [str(p) for p in paths.backups_dir.iterdir() if p.name.startswith(".")]
    if paths.journal_file.exists():
        found.append(str(paths.journal_file))
    return found


def unrestorable(paths: Paths) -> list[str]:
    """Backup folders whose copies do not all have their recorded digest."""
    bad = []
    for folder in backup_dirs(paths):
        if not is_complete(paths, folder):
            bad.append(f"{folder.name}: incomplete")
            continue
        contents = read_backup(paths, folder)
        for original in contents.saved:
            try:
                verified_copy(paths, contents, original)
            except Exception as error:  # reported, not raised
                bad.append(f"{folder.name}: {error}")
    return bad


def check_case(
    result: subprocess.CompletedProcess[str],
    paths: Paths,
    before: dict[str, bytes],
    after: dict[str, bytes],
    recover: Callable[[Paths], str],
    tally: Tally,
    label: str,
    report_exit: int | None = None,
) -> None:
    """Everything that must hold after one faulted run, then after the next command."""
    tally.cases += 1
    problems = []
    if "Traceback" in result.stderr:
        tally.tracebacks += 1
        problems.append("traceback: " + result.stderr.strip().splitlines()[-1])
    errors = [line for line in result.stderr.splitlines() if line.startswith("dotdbg: error:")]
    done = (0, -9, report_exit)
    if result.returncode not in done and len(errors) != 1:
        problems.append(f"exit {result.returncode} without one error line: {result.stderr!r}")
    state = snapshot(paths.home)
    lost = lost_bytes(state, before, after)
    if result.returncode in (0, report_exit) and state != after:
        problems.append("exit 0 but the home is not as the command leaves it")
    said = recover(paths)  # what the next dotdbg command does first
    final = snapshot(paths.home)
    if final not in (before, after):
        lost = max(lost, lost_bytes(final, before, after)) or 1
        changed = sorted(n for n in set(final) | set(before) if final.get(n) != before.get(n))
        problems.append(f"after recovery the home is neither as before nor as after: {changed}")
    # An error that did not hand its rollback to the next command must have changed nothing.
    finished = "next dotdbg command" in result.stderr
    if result.returncode not in done and not finished and state != before:
        problems.append("an error exit changed the home")
    tally.bytes_lost += lost
    left = leftovers(paths)
    tally.leftovers += len(left)
    if left:
        problems.append(f"leftovers: {left}")
    bad = unrestorable(paths)
    if bad:
        problems.append(f"backups not restorable: {bad}")
    if problems:
        tally.failures.append(f"{label}: {'; '.join(problems)} (recovery said: {said!r})")
