"""``dotdbg ssh HOST [SSH ARGS…]``: a shell on HOST with the user's set-up, for one session.

The payload (dotdbg.remote.payload) is built once and cached with the stamps of everything that
went into it, so a session starts with a stat of each input rather than a render (120 ms);
this module imports little for the same reason (no pathlib, dataclasses or subprocess).
ssh runs as dotdbg's child, so that when ssh itself fails (exit 255: unreachable host, refused
key) the reason it wrote to its log (-E) becomes one line naming the host.
"""

from __future__ import annotations

import json
import os
import signal
import sys

from dotdbg.cheat.cheatpaths import cache_dir
from dotdbg.errors import DotdbgError
from dotdbg.remote import bootstrap, sshargs

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

SSH_FAILED = 255
CACHE_NAME = "ssh-session.json"


def run_session(argv: Sequence[str]) -> int:
    host, ssh_options = sshargs.split(argv)
    cache = os.path.join(cache_dir(os.environ), CACHE_NAME)
    files, archive, packed = session_payload(cache)
    command = bootstrap.remote_command(host, files, archive, packed)
    log = f"{cache}.{os.getpid()}.log"
    try:
        code = _run_ssh(sshargs.ssh_argv(host, ssh_options, command, log))
        if code == SSH_FAILED:
            raise DotdbgError(_ssh_reason(log), hint=sshargs.HINT, location=host)
    finally:
        _remove(log)
    return code


def _run_ssh(argv: list[str]) -> int:
    """ssh in the foreground; dotdbg ignores Ctrl-C meanwhile (ssh gets it and decides)."""
    pid = os.fork()
    if pid == 0:  # the child: ssh, or exit 127 as a shell would when it is not installed
        try:
            os.execvp(argv[0], argv)
        except OSError as error:
            print(f"dotdbg: error: cannot run ssh: {error.strerror}", file=sys.stderr)
        finally:
            os._exit(127)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _, status = os.waitpid(pid, 0)
    finally:
        signal.signal(signal.SIGINT, previous)
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code  # killed by a signal: the shell's way to say it


def _ssh_reason(log: str) -> str:
    try:
        with open(log, encoding="utf-8", errors="replace") as text:
            said = [line.strip() for line in text if line.strip()]
    except OSError:
        said = []
    return f"ssh failed: {said[-1]}" if said else "ssh failed (exit 255) and said nothing"


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


# -- the payload, cached ---------------------------------------------------------------------
def session_payload(cache: str) -> tuple[dict[str, str], str, bootstrap.Packed]:
    """The shells' files and the cheat archive, built again only when an input changed."""
    cached = _read_cache(cache)
    if cached is not None and all(_stamp(str(stamp[0])) == stamp for stamp in cached["stamps"]):
        names, packed = cached["packed"]
        if tuple(names) == bootstrap.others_here():  # zsh or fish installed here since
            return dict(cached["files"]), str(cached["archive"]), (tuple(names), str(packed))
    from dotdbg.paths import Paths
    from dotdbg.remote.payload import build_payload

    files, archive, packed, inputs = build_payload(Paths.from_env())
    stamps = [_stamp(str(path)) for path in inputs]
    _write_cache(cache, {"stamps": stamps, "files": files, "archive": archive, "packed": packed})
    return files, archive, packed


def _stamp(path: str) -> list[object]:
    """[path, mtime_ns, size], or [path] for a path that does not exist."""
    try:
        status = os.stat(path)
    except OSError:
        return [path]
    return [path, status.st_mtime_ns, status.st_size]


def _read_cache(cache: str) -> dict[str, Any] | None:
    try:
        with open(cache, encoding="utf-8") as text:
            loaded = json.load(text)
    except (OSError, ValueError):
        return None
    if isinstance(loaded, dict) and {"stamps", "files", "archive", "packed"} <= loaded.keys():
        return loaded
    return None


def _write_cache(cache: str, content: dict[str, object]) -> None:
    """Best effort, atomic (a concurrent session reads the old file or the new one)."""
    temporary = f"{cache}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as out:
            json.dump(content, out)
        os.replace(temporary, cache)
    except OSError as error:
        _remove(temporary)
        print(f"dotdbg: warning: cannot cache the session files: {error}", file=sys.stderr)
