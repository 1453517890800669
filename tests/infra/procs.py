"""Finding and ending the processes a fixture started, even those that left its process tree."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterable


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``condition`` every 50 ms, at most ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:g}s waiting for {what}")
        time.sleep(0.05)


def argv_of(proc: subprocess.Popen[bytes]) -> list[str]:
    """The argument list ``proc`` was started with (a list of strings, as these fixtures pass)."""
    args = proc.args
    assert isinstance(args, list), args
    return [str(arg) for arg in args]


def environ_of(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/environ", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def cmdline_of(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def pids_with_env(marker: str) -> list[int]:
    """Live processes whose environment contains ``marker`` (a temp path only they carry)."""
    needle = marker.encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        if needle in environ_of(int(entry)) and not _is_zombie(int(entry)):
            found.append(int(entry))
    return found


def pids_with_argv(marker: str) -> list[int]:
    """Live processes whose command line contains ``marker`` (a name only they carry)."""
    return [
        int(entry)
        for entry in os.listdir("/proc")
        if entry.isdigit()
        and int(entry) != os.getpid()
        and marker in cmdline_of(int(entry))
        and not _is_zombie(int(entry))
    ]


def _is_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True


def kill_all(pids: Iterable[int], sig: int = signal.SIGKILL) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def stop(proc: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """SIGTERM, then SIGKILL after ``grace`` seconds; always reaped."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def free_ports(count: int, start: int = 20000, end: int = 60000) -> int:
    """The first of ``count`` consecutive TCP ports free on 127.0.0.1, picked at random."""
    import random
    import socket

    for _ in range(200):
        base = random.randrange(start, end - count)
        sockets = []
        try:
            for port in range(base, base + count):
                sock = socket.socket()
                sockets.append(sock)
                sock.bind(("0.0.0.0", port))
            return base
        except OSError:
            continue
        finally:
            for sock in sockets:
                sock.close()
    raise RuntimeError("no free port range found")
