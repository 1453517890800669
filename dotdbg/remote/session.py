"""``dotdbg ssh HOST [SSH ARGS…]``: a shell on HOST with the user's set-up, for one session.

The payload (dotdbg.remote.bundle) is built once and cached by the stamps of everything that
went into it, so a session starts with a stat of each input rather than a render (120 ms).
ssh then runs with the payload in its remote command; dotdbg waits for it, so that when ssh
itself fails (exit 255: unreachable host, refused key) the reason is one line naming the host.
"""

from __future__ import annotations

import base64
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths
from dotdbg.remote import bootstrap, bundle, sshargs
from dotdbg.render import INPUTRC_FILE

SSH_FAILED = 255
CACHE_NAME = "ssh-session.json"
PACKAGE_DIR = Path(__file__).resolve().parents[1]
Stamp = list[object]  # [path, mtime_ns, size], or [path] for a path that does not exist


def run_session(argv: Sequence[str]) -> int:
    host, ssh_options = sshargs.split(argv)
    payload = session_payload(Paths.from_env())
    command = bootstrap.remote_command(host, payload)
    with tempfile.TemporaryDirectory(prefix="dotdbg-ssh-") as log_dir:
        log = Path(log_dir, "ssh.log")
        code = _run_ssh(sshargs.ssh_argv(host, ssh_options, command, log))
        if code == SSH_FAILED:
            raise DotdbgError(_ssh_reason(log), hint=sshargs.HINT, location=host)
    return code


def _run_ssh(argv: list[str]) -> int:
    """ssh in the foreground; dotdbg ignores Ctrl-C meanwhile (ssh gets it and decides)."""
    try:
        process = subprocess.Popen(argv)
    except FileNotFoundError:
        raise DotdbgError("ssh is not installed here", hint="install openssh-client") from None
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code = process.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    return 128 - code if code < 0 else code  # killed by a signal: the shell's way to say it


def _ssh_reason(log: Path) -> str:
    try:
        lines = [line.strip() for line in log.read_text(errors="replace").splitlines()]
    except OSError:
        lines = []
    said = [line for line in lines if line]
    return f"ssh failed: {said[-1]}" if said else "ssh failed (exit 255) and said nothing"


# -- the payload, cached ---------------------------------------------------------------------
def session_payload(paths: Paths) -> str:
    """The base64 of the session archive, built again only when one of its inputs changed."""
    cache = paths.cache_dir / CACHE_NAME
    cached = _read_cache(cache)
    if cached is not None and all(_stamp(str(stamp[0])) == stamp for stamp in cached["stamps"]):
        return str(cached["payload"])
    payload, inputs = build_payload(paths)
    _write_cache(cache, {"stamps": [_stamp(str(path)) for path in inputs], "payload": payload})
    return payload


def build_payload(paths: Paths) -> tuple[str, list[Path]]:
    """The payload, and every file and directory it was made from (the cache's stamps)."""
    from dotdbg.config import load_config
    from dotdbg.install import checked_render

    config = load_config(paths)
    rendered = checked_render(paths, config)
    builtin = _builtin_sheets()
    files: dict[str, bytes] = {
        "inputrc": rendered.files[INPUTRC_FILE].encode(),
        "bin/dotdbg": bootstrap.SHIM.read_bytes(),
        f"{bundle.CODE_DIR}/session_cheat.py": bootstrap.SESSION_CHEAT.read_bytes(),
    }
    for shell in bootstrap.SHELLS:
        files[shell.rendered] = rendered.files[shell.rendered].encode()
        files[shell.rc_file] = bootstrap.rc_text(shell).encode()
    files.update(bundle.cheat_code(PACKAGE_DIR))
    files.update(bundle.sheet_files(builtin, f"{bundle.CODE_DIR}/dotdbg/cheatsheets"))
    files.update(bundle.sheet_files(paths.user_cheat_dir, bundle.PERSONAL_SHEETS))
    payload = base64.b64encode(bundle.archive(files, frozenset({"bin/dotdbg"}))).decode()
    if len(payload) > bundle.LIMIT:
        raise DotdbgError(
            f"the session files take {len(payload)} bytes, more than one ssh command carries "
            f"({bundle.LIMIT})",
            hint=f"move large sheets out of {paths.display(paths.user_cheat_dir)}",
        )
    inputs = [*config.sources, paths.config_file, *_tree(PACKAGE_DIR / "remote")]
    inputs += [PACKAGE_DIR / module for module in bundle.CHEAT_MODULES]
    inputs += [*_tree(_templates()), *_tree(builtin), *_tree(paths.user_cheat_dir)]
    return payload, inputs


def _builtin_sheets() -> Path | None:
    from dotdbg.cheat.cheatpaths import builtin_dir

    found = builtin_dir()
    return None if found is None else Path(found)


def _templates() -> Path:
    from dotdbg.paths import resource_dir

    return resource_dir("templates")


def _tree(directory: Path | None) -> Iterable[Path]:
    """``directory``, its subdirectories and files: a file added or removed changes a stamp."""
    if directory is None:
        return []
    found = [directory]
    for root, dirs, files in os.walk(directory):
        found += [Path(root, name) for name in (*dirs, *files)]
    return found


def _stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return [path]
    return [path, status.st_mtime_ns, status.st_size]


def _read_cache(cache: Path) -> dict[str, Any] | None:
    try:
        loaded = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) and isinstance(loaded.get("stamps"), list) else None


def _write_cache(cache: Path, content: dict[str, object]) -> None:
    """Best effort, atomic (a concurrent session reads the old file or the new one)."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        temporary = cache.with_name(f".{cache.name}.{os.getpid()}")
        temporary.write_text(json.dumps(content), encoding="utf-8")
        os.replace(temporary, cache)
    except OSError as error:
        print(f"dotdbg: warning: cannot cache the session files: {error}", file=sys.stderr)
