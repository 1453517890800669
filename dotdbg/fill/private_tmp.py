"""Run a command with a small private tmpfs over /tmp (and $TMPDIR), in its own mount namespace.

With CAP_SYS_ADMIN (root) the child unshares only its mount namespace. Otherwise it first
enters a new user namespace that maps the caller's own uid and gid, which gives it the right to
mount there; the command still runs as the same user. The tmpfs vanishes with the namespace
when the command ends. (Mapping uid 0 needs CAP_SETFCAP since Linux 5.12: root without
capabilities cannot take the user-namespace way and gets the error.)
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

from dotdbg.common import child, programs
from dotdbg.common.output import Report
from dotdbg.common.sizes import format_size
from dotdbg.errors import DotdbgError

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18

USERNS_HINT = (
    "this kernel does not let unprivileged users make user namespaces "
    "(kernel.unprivileged_userns_clone, user.max_user_namespaces or an AppArmor/SELinux rule); "
    "run as root, or mount a tmpfs yourself and point TMPDIR at it"
)


@dataclass(frozen=True)
class PrivateTmp:
    size: int
    mount_points: tuple[str, ...]  # the first gets the tmpfs, the others a bind mount of it
    inner_dirs: tuple[str, ...]  # directories to create inside the tmpfs ($TMPDIR under /tmp)

    privileged: bool  # CAP_SYS_ADMIN (root): no user namespace needed


def plan_private_tmp(size: int, tmpdir: str | None, privileged: bool) -> PrivateTmp:
    """/tmp always; $TMPDIR too when it names another directory."""
    real = os.path.realpath(tmpdir) if tmpdir else "/tmp"
    if real == "/tmp":
        return PrivateTmp(size, ("/tmp",), (), privileged)
    if real.startswith("/tmp/"):
        return PrivateTmp(size, ("/tmp",), (real,), privileged)
    return PrivateTmp(size, ("/tmp", real), (), privileged)


CAP_SYS_ADMIN = 21


def has_cap_sys_admin(proc_status: str) -> bool:
    """Whether the effective capabilities in /proc/self/status include CAP_SYS_ADMIN."""
    for line in proc_status.splitlines():
        if line.startswith("CapEff:"):
            return bool(int(line.split()[1], 16) >> CAP_SYS_ADMIN & 1)
    return False


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def _enter_user_namespace(libc: ctypes.CDLL) -> None:
    uid, gid = os.geteuid(), os.getegid()
    _check(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare(CLONE_NEWUSER)")
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text)
    except OSError as error:
        raise OSError(error.errno, f"write {path}: {error.strerror}") from error


def enter_private_tmp(plan: PrivateTmp) -> None:
    """In the calling (forked, single-threaded) process: new namespace, tmpfs mounted."""
    libc = _libc()
    if plan.privileged:
        _check(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
    else:
        _enter_user_namespace(libc)
    _check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "make / private")
    first, *others = (point.encode() for point in plan.mount_points)
    options = f"size={plan.size},mode=1777".encode()
    _check(libc.mount(b"tmpfs", first, b"tmpfs", 0, options), f"mount tmpfs on {first.decode()}")
    for point in others:
        _check(libc.mount(first, point, None, MS_BIND, None), f"bind {point.decode()}")
    for inner in plan.inner_dirs:
        os.makedirs(inner, mode=0o700, exist_ok=True)


def run_with_private_tmp(plan: PrivateTmp, argv: list[str]) -> int:
    """Run ``argv`` in a child that set the namespace up first; its return code."""
    try:
        return child.run_command(
            argv, lambda: enter_private_tmp(plan), f"give {argv[0]} a private /tmp"
        )
    except DotdbgError as error:
        if "CLONE_NEWUSER" not in error.message:
            raise
        raise DotdbgError(error.message, hint=USERNS_HINT) from error


def hidden_places(plan: PrivateTmp, places: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(what, path, mount point) of each of ``places`` the plan's mounts cover: the command
    finds an empty tmpfs where they were (a checkout or a venv under /tmp, say)."""
    hidden = []
    for what, path in places:
        if not path:
            continue
        spellings = {os.path.abspath(path), os.path.realpath(path)}
        point = next((p for p in plan.mount_points if any(_under(s, p) for s in spellings)), "")
        if point:
            hidden.append((what, path, point))
    return hidden


def _under(path: str, point: str) -> bool:
    return path == point or path.startswith(point.rstrip("/") + "/")


def _places_the_command_uses(argv: list[str]) -> list[tuple[str, str]]:
    program = shutil.which(argv[0]) or argv[0]
    return [
        ("the working directory", os.getcwd()),
        (f"the program {argv[0]}", os.path.abspath(program)),
        ("the active virtualenv", os.environ.get("VIRTUAL_ENV", "")),
    ]


def run_private_tmp(size: int, argv: list[str], report: Report) -> int:
    """Run ``argv`` over a private ``size`` tmpfs; its exit code as a shell shows it."""
    programs.require_program(argv[0])
    privileged = has_cap_sys_admin(Path("/proc/self/status").read_text())
    plan = plan_private_tmp(size, os.environ.get("TMPDIR"), privileged)
    how = "as root" if plan.privileged else "through a user namespace"
    places = ", ".join(plan.mount_points + plan.inner_dirs)
    tmpfs = f"a private {format_size(size)} tmpfs on {places}"
    for what, path, point in hidden_places(plan, _places_the_command_uses(argv)):
        report(
            f"warning: the tmpfs on {point} hides {what}, {path}: the command finds nothing "
            f"there (start it from outside {point}, with its venv outside {point})"
        )
    report(f"running {shlex.join(argv)} with {tmpfs}, {how}")
    returncode = run_with_private_tmp(plan, argv)
    report(f"{argv[0]} {child.describe_exit(returncode)}; its tmpfs went with it")
    return programs.exit_code_of(returncode)
