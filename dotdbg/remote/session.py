"""``dotdbg ssh HOST [SSH ARGS…]`` and ``dotdbg shell -- CMD…``: a shell with the user's set-up,
for one session.

The payload (dotdbg.remote.payload) is built once and cached with the stamps of everything that
went into it, so a session starts with a stat of each input rather than a render (120 ms);
this module imports little for the same reason (no pathlib, dataclasses or subprocess, and no
json: its decoder imports re and enum; the cache is marshal's, which is built in).
ssh (or CMD) runs as dotdbg's child on a terminal of dotdbg's own (dotdbg.remote.relay), which
writes the payload on the shell's input: when ssh itself fails (exit 255: unreachable host,
refused key) the reason it wrote to its log (-E) becomes one line naming the host.
"""

from __future__ import annotations

import marshal
import os
import sys

from dotdbg.errors import DotdbgError
from dotdbg.remote import bootstrap, relay, sshargs, stream

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

SSH_FAILED = 255
CACHE_NAME = "ssh-session.marshal"
CACHE_FORMAT = 3  # 3: bash's files as sh (dotdbg.remote.stream) and the archive; 1: base64 only


def _cache_file() -> str:
    from dotdbg.cheat.fast import cache_dir  # dotdbg's cache dir, as the cheat lookup finds it

    return os.path.join(cache_dir(os.environ), CACHE_NAME)


def run_session(argv: Sequence[str]) -> int:
    host, ssh_options = sshargs.split(argv)
    cache = _cache_file()
    files, archive, shells = session_payload(cache)
    terminal = os.isatty(0)
    payload, fetch = streams(files, archive, host, terminal=terminal)
    nonce = os.urandom(12).hex()
    command = bootstrap.remote_command(host, len(payload), nonce, shells)
    log = f"{cache}.{os.getpid()}.log"
    try:
        code = _relayed(
            sshargs.ssh_argv(host, ssh_options, command, log, terminal=terminal),
            bootstrap.marker(nonce),
            bootstrap.framed(nonce, payload),
            bootstrap.done_marker(nonce),
            fetch,
        )
        if code == SSH_FAILED:
            raise DotdbgError(_ssh_reason(log), hint=sshargs.HINT, location=host)
    finally:
        _remove(log)
    return code


def run_through(command: Sequence[str]) -> int:
    """``dotdbg shell -- CMD…``: the script typed into the shell CMD gives."""
    cache = _cache_file()
    files, archive, shells = session_payload(cache)
    payload, fetch = streams(files, archive, command[0], terminal=True)
    nonce = os.urandom(12).hex()
    try:
        return relay.relay(
            command,
            bootstrap.marker(nonce),
            bootstrap.framed(nonce, payload),
            bootstrap.done_marker(nonce),
            fetch=fetch,
            typed=bootstrap.typed_line(len(payload), nonce, shells),
            shown=False,
        )
    except relay.Ended as ended:
        relay.show_held(ended.said)
        raise DotdbgError(
            f"{command[0]} ended (exit {ended.code}) before its shell started the session",
            hint="check that the command alone gives a shell: a POSIX shell with base64, gzip "
            "and tar, and nothing it asks first (a password prompt)",
        ) from None


def streams(
    files: str, archive: str, host: str, *, terminal: bool
) -> tuple[str, relay.Exchange | None]:
    """What travels first, and what the session asks for later, if anything. On a terminal,
    the archive comes when the session first needs it (its first ``dotdbg``: ``ch``, Ctrl-G;
    zsh and fish before they start), asked for with a key of this session's own that the
    stream carries; through a pipe (no terminal here, none there), nothing can ask: it comes
    first, after bash's files."""
    if not terminal:
        return files + stream.stream({}, archive), None
    key = os.urandom(12).hex()
    script = stream.fetch_script(key, len(archive), bootstrap.safe_host(host))
    fetch = stream.stream({stream.FETCH: script}, None)
    sent = f"{key}\n{archive}".encode()  # the key's line: FETCH skips what was typed before
    return files + fetch, (stream.send_marker(key), sent, stream.got_marker(key))


def _relayed(
    argv: list[str], marker: bytes, framed: bytes, done: bytes, fetch: relay.Exchange | None
) -> int:
    try:
        return relay.relay(argv, marker, framed, done, fetch=fetch)
    except relay.Ended as ended:  # all it printed is shown already, but a marker's start or
        relay.show_held(ended.said)  # what came after the payload's echo
        return ended.code


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
def session_payload(cache: str) -> tuple[str, str, tuple[str, ...]]:
    """bash's files as a stream, the archive and the shells besides bash it carries, built
    again only when an input changed."""
    cached = _read_cache(cache)
    if cached is not None and all(_stamp(str(stamp[0])) == stamp for stamp in cached["stamps"]):
        names = tuple(cached["shells"])
        if names == bootstrap.others_here():  # zsh or fish installed here since
            return str(cached["payload"]), str(cached["archive"]), names
    from dotdbg.paths import Paths
    from dotdbg.remote.payload import build_payload

    payload, archive, names, inputs = build_payload(Paths.from_env())
    stamps = [_stamp(str(path)) for path in inputs]
    content = {
        "format": CACHE_FORMAT,
        "stamps": stamps,
        "payload": payload,
        "archive": archive,
        "shells": names,
    }
    _write_cache(cache, content)
    return payload, archive, names


def _stamp(path: str) -> list[object]:
    """[path, mtime_ns, size], or [path] for a path that does not exist."""
    try:
        status = os.stat(path)
    except OSError:
        return [path]
    return [path, status.st_mtime_ns, status.st_size]


def _read_cache(cache: str) -> dict[str, Any] | None:
    try:
        with open(cache, "rb") as data:
            loaded = marshal.load(data)
    except (OSError, ValueError, EOFError, TypeError):  # another Python's, or cut short
        return None
    if isinstance(loaded, dict) and {"stamps", "payload", "archive", "shells"} <= loaded.keys():
        return loaded if loaded.get("format") == CACHE_FORMAT else None
    return None


def _write_cache(cache: str, content: dict[str, object]) -> None:
    """Best effort, atomic (a concurrent session reads the old file or the new one), private
    (it holds the user's aliases and functions)."""
    temporary = f"{cache}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with open(fd, "wb") as out:
            marshal.dump(content, out)
        os.replace(temporary, cache)
    except OSError as error:
        _remove(temporary)
        print(f"dotdbg: warning: cannot cache the session files: {error}", file=sys.stderr)
