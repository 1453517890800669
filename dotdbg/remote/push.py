"""``dotdbg push``: the local install pipeline run against remote homes, one host per thread.

Each host gets one ssh connection (dotdbg.remote.sshfs) through which plan and apply read and
write its home, exactly as ``dotdbg install`` does locally: managed blocks, backups on that
host, atomic writes, the journal that finishes a run a dropped connection cut short. The config
is read here, once. A host that fails is one row of the result; the others still finish.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from dotdbg.config import Config, load_config
from dotdbg.errors import DotdbgError
from dotdbg.fanout.ssh import chosen_options
from dotdbg.home.render import Rendered
from dotdbg.paths import Paths
from dotdbg.remote.sshfs import SshFS
from dotdbg.visible import json_safe, one_line

INSTALL, UNINSTALL, STATUS = "install", "uninstall", "status"
MAX_HOSTS_AT_ONCE = 16
ANY_HOME = "/nonexistent/remote-home"  # renders the text any remote home gets
HELPERS = "the Python helpers (watch-python, pyspy, memlimit, the fillers) and `dotdbg cheat`"
INSTALL_THERE = "./install.sh in a clone of dotdbg there (README: Set up)"


@dataclass(frozen=True)
class HostResult:
    host: str
    ok: bool
    result: str  # one word or two: installed, current, failed ...
    detail: str = ""
    notes: tuple[str, ...] = ()
    diff: str = ""
    files: tuple[str, ...] = ()  # --status: the files that drifted, as the home shows them


def push(
    hosts: Sequence[str], action: str, *, dry_run: bool = False, ssh_options: str | None = None
) -> list[HostResult]:
    config = load_config(Paths.from_env())
    options = shlex.split(chosen_options(ssh_options))
    renders = Renders(config)
    with ThreadPoolExecutor(min(MAX_HOSTS_AT_ONCE, len(hosts))) as pool:
        return list(
            pool.map(lambda host: on_host(host, action, config, dry_run, options, renders), hosts)
        )


class Renders:
    """The checked render for each set of shells, made once for all the hosts that have that
    set: the text names the home only as $HOME, and rendering holds the GIL the hosts' threads
    share."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self._made: dict[tuple[str, ...], Rendered] = {}
        self._lock = threading.Lock()

    def of(self, shells: tuple[str, ...]) -> Rendered:
        from dotdbg.home.install import checked_render

        with self._lock:
            if shells not in self._made:
                any_home = Paths.from_env(Path(ANY_HOME))
                self._made[shells] = checked_render(any_home, self.config, shells)
            return self._made[shells]


def on_host(
    host: str,
    action: str,
    config: Config,
    dry_run: bool,
    options: Sequence[str],
    renders: Renders,
) -> HostResult:
    from dotdbg.home.install import selected_shells

    try:
        fs = SshFS(host, options)
    except DotdbgError as error:
        return HostResult(host, False, "failed", error.message)
    try:
        paths = Paths.from_env(fs.home).on(fs)
        shells = selected_shells(paths, which=fs.has_program, login="")  # asks the host
        rendered = renders.of(shells)
        if action == STATUS:
            return _status(host, paths, config, shells, rendered)
        return _change(host, paths, config, action, dry_run, fs, shells, rendered)
    except DotdbgError as error:
        return HostResult(host, False, "failed", error.message)
    except OSError as error:
        return HostResult(host, False, "failed", f"{error.strerror or error}: {error.filename}")
    finally:
        fs.close()


def _change(
    host: str,
    paths: Paths,
    config: Config,
    action: str,
    dry_run: bool,
    fs: SshFS,
    shells: tuple[str, ...],
    rendered: Rendered,
) -> HostResult:
    from dotdbg.home import install as installer
    from dotdbg.home.launcher import launcher_dir
    from dotdbg.home.plan import unified_diff

    if action == UNINSTALL:
        done = installer.uninstall(paths, dry_run=dry_run)
    else:
        done = installer.install(
            paths, config, dry_run=dry_run, shells=shells, prerendered=rendered
        )
    changed = len(done.plan.pending)
    word = {INSTALL: "installed", UNINSTALL: "uninstalled"}[action]
    result = f"would be {word}" if dry_run and changed else word if changed else "unchanged"
    detail = f"{changed} file{'' if changed == 1 else 's'} {'to change' if dry_run else 'changed'}"
    if done.backup_dir is not None:
        detail += f"; backup there: {paths.display(done.backup_dir)}"
    notes = done.plan.notes
    if action == INSTALL and not fs.has_program("dotdbg") and launcher_dir(paths) is None:
        notes += (f"{HELPERS} need dotdbg installed there: {INSTALL_THERE}",)
    return HostResult(host, True, result, detail, notes, unified_diff(paths, done.plan))


def _status(
    host: str, paths: Paths, config: Config, shells: tuple[str, ...], rendered: Rendered
) -> HostResult:
    from dotdbg.home import install as installer
    from dotdbg.home.recover import interrupted
    from dotdbg.home.state import is_installed

    pending = interrupted(paths)
    if pending:
        return HostResult(host, False, "interrupted", pending)
    if not is_installed(paths):
        return HostResult(host, False, "not installed")
    done = installer.install(paths, config, dry_run=True, shells=shells, prerendered=rendered)
    if done.plan.pending:
        files = tuple(paths.display(change.path) for change in done.plan.pending)
        return HostResult(host, False, "drifted", ", ".join(files), done.plan.notes, files=files)
    return HostResult(host, True, "current", notes=done.plan.notes)  # a note is advice


def table(results: Sequence[HostResult]) -> list[str]:
    """One aligned row per host, then its notes indented; remote words through one_line."""
    width = max(len("HOST"), *(len(one_line(result.host)) for result in results))
    kind = max(len("RESULT"), *(len(result.result) for result in results))
    lines = [f"{'HOST':<{width}}  {'RESULT':<{kind}}  DETAIL"]
    for result in results:
        row = (
            f"{one_line(result.host):<{width}}  {result.result:<{kind}}  {one_line(result.detail)}"
        )
        lines.append(row.rstrip())
        lines += [f"{'':<{width}}  note: {one_line(note)}" for note in result.notes]
    return lines


JSON_VERSION = 1  # docs/remote.md, "push --json"; tests/remote/test_push_json.py checks it


def as_json(action: str, results: Sequence[HostResult], *, dry_run: bool = False) -> str:
    """The results as docs/remote.md's schema says: one object per host, in the order given."""
    import json

    hosts = [
        {
            "host": result.host,
            "ok": result.ok,
            "result": result.result,
            "detail": result.detail,
            "files": list(result.files),
            "notes": list(result.notes),
        }
        for result in results
    ]
    document = {"version": JSON_VERSION, "action": action, "dry_run": dry_run, "hosts": hosts}
    return json_safe(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"
