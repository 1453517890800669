"""`dotdbg doctor`: checks of the machine and the set-up, each with a fix when it fails."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

from dotdbg.common.record import Record
from dotdbg.home.plan import login_file, profile_notes
from dotdbg.home.state import is_installed, read_state
from dotdbg.paths import Paths, own_program
from dotdbg.shells import login_shell, registered


class Check(Record):
    name: str
    ok: bool
    detail: str
    fix: str = ""
    optional: bool = False  # not being available is fine: shown, but not a failure


def run_checks(paths: Paths) -> list[Check]:
    checks: list[Callable[[Paths], Check]] = [
        check_installed,
        check_interrupted,
        check_login_shell,
        check_shells,
        check_zdotdir,
        check_path,
        check_ssh_path,
        check_tools,
        check_generated_checks,
    ]
    return [guarded(check, paths) for check in checks] + key_checks(paths) + memlimit_checks()


def guarded(check: Callable[[Paths], Check], paths: Paths) -> Check:
    """One check's result; a file it cannot read fails that check alone, so the others (and a
    `--fix` already done) are still reported."""
    from dotdbg.errors import DotdbgError

    name = check.__name__.removeprefix("check_").replace("_", " ")
    try:
        return check(paths)
    except DotdbgError as error:
        return Check(name, False, error.message, error.hint)
    except OSError as error:
        return Check(
            name, False, unreadable(paths, error), "fix the file or the disk, then run it again"
        )


def unreadable(paths: Paths, error: OSError) -> str:
    where = paths.display(Path(error.filename)) if error.filename else "a file it reads"
    return f"cannot read {where}: {error.strerror or error}"


def key_checks(paths: Paths) -> list[Check]:
    """Who has each key dotdbg binds that atuin, navi, fzf or a binding of the user's also
    binds, and what Up does."""
    from dotdbg.config import load_config
    from dotdbg.errors import DotdbgError
    from dotdbg.home.state import read_manifest
    from dotdbg.shells.peers import dotdbg_keys, key_clashes

    try:
        config = load_config(paths)
        shells = read_manifest(paths).get("shells") or []
        clashes = key_clashes(paths, config, shells, read_state(paths).texts)
    except DotdbgError:
        return []
    except OSError as error:
        return [Check("keys", False, unreadable(paths, error), "fix the file or the disk")]
    checks = [
        Check(f"key {clash.key}", not clash.they_win, clash.describe(), clash.fix())
        for clash in clashes
    ]
    if "up" in dotdbg_keys(config) and not any(clash.key == "up" for clash in clashes):
        checks.append(Check("key up", True, "Up: dotdbg's prefix history search"))
    return checks


def memlimit_checks() -> list[Check]:
    """Which memlimit backends work here (one working backend is enough), and the commands
    that memlimit runs killed -9 left running under their limit."""
    from dotdbg.memlimit import find_leftovers, probe_backends

    probes = probe_backends()
    checks = [
        Check(f"memlimit {probe.name}", probe.works, probe.why, optional=True) for probe in probes
    ]
    if not any(probe.works for probe in probes):
        checks.append(Check("memlimit", False, "no backend can limit memory here"))
    checks += [
        Check("memlimit leftovers", False, leftover.message(), leftover.fix)
        for leftover in find_leftovers()
    ]
    return checks


def check_installed(paths: Paths) -> Check:
    if is_installed(paths):
        return Check("install", True, "installed (`dotdbg status` checks it is current)")
    return Check("install", False, "not installed", "dotdbg install")


def check_interrupted(paths: Paths) -> Check:
    from dotdbg.home.recover import interrupted

    pending = interrupted(paths)
    if pending:
        return Check(
            "interrupted run", False, pending, "dotdbg install (or any command that changes files)"
        )
    return Check("interrupted run", True, "none: every dotdbg run finished")


def check_login_shell(paths: Paths) -> Check:
    state = read_state(paths)
    path = login_file(paths, state)
    if path is None:
        return Check(
            "login shells",
            False,
            "no ~/.bash_profile, ~/.bash_login or ~/.profile: login shells skip ~/.bashrc",
            "dotdbg doctor --fix",
            optional=True,
        )
    if profile_notes(paths, state):
        shown = paths.display(path)
        return Check(
            "login shells", False, f"{shown} does not load ~/.bashrc", "dotdbg doctor --fix"
        )
    return Check("login shells", True, f"login shells load ~/.bashrc ({paths.display(path)})")


def check_shells(paths: Paths) -> Check:
    """Which shells dotdbg is set up for, and whether the login shell ($SHELL) is one."""
    from dotdbg.home.state import read_manifest

    shells = read_manifest(paths).get("shells") or []
    login = login_shell()
    if not shells:
        return Check("shells", False, "set up for no shell", "dotdbg install")
    detail = f"set up for {', '.join(shells)}"
    if not login:
        return Check("shells", True, f"{detail}; $SHELL is not set", optional=True)
    if login in shells:
        return Check("shells", True, f"{detail}; your login shell ({login}) is one of them")
    return Check(
        "shells",
        False,
        f"{detail}, but your login shell is {login}",
        f"dotdbg install --shell {','.join([*shells, login])}"
        if login in {target.name for target in registered()}
        else f"use one of them (chsh -s $(command -v {shells[0]}))",
    )


def check_zdotdir(paths: Paths) -> Check:
    """Where zsh's files are, as read from ~/.zshenv's text (dotdbg never runs it)."""
    line = paths.zdotdir_read.unread
    if line is None or paths.zdotdir_env:
        return Check("zsh files", True, f"zsh reads {paths.display(paths.zshrc)}", optional=True)
    return Check(
        "zsh files",
        False,
        f"~/.zshenv:{line} sets ZDOTDIR in a way dotdbg reads without running it only in simple "
        f"forms; dotdbg uses {paths.display(paths.zshrc)}",
        'run dotdbg with ZDOTDIR set as your zsh sets it (ZDOTDIR="$ZDOTDIR" dotdbg install)',
    )


def check_path(paths: Paths) -> Check:
    local_bin = str(paths.home / ".local" / "bin")
    found = shutil.which("dotdbg")
    if found:
        return Check("PATH", True, f"dotdbg is {found}")
    if local_bin not in os.environ.get("PATH", "").split(os.pathsep):
        return Check(
            "PATH",
            False,
            f"{local_bin} is not on PATH",
            f'export PATH="{local_bin}:$PATH" in ~/.bashrc',
        )
    return Check("PATH", False, "dotdbg is not on PATH", "./install.sh")


SSH_PATH = "ssh HOST dotdbg"


def check_ssh_path(paths: Paths) -> Check:
    """Whether a non-interactive shell of the login shell (what `ssh HOST dotdbg` runs) finds
    dotdbg: its folder is on the standard PATH, or the PATH block dotdbg writes adds it."""
    from dotdbg.home.launcher import STANDARD_PATH, launcher_dir

    folder = launcher_dir(paths)
    if folder is None:
        return Check(SSH_PATH, False, "no dotdbg launcher found to put on PATH", "./install.sh")
    shown = paths.display(folder)
    if folder in STANDARD_PATH:
        return Check(SSH_PATH, True, f"finds it: {shown} is on every PATH")
    shell = login_shell() or "bash"
    return _path_block_check(paths, shell, folder)


def _path_block_check(paths: Paths, shell: str, folder: Path) -> Check:
    from dotdbg.errors import DotdbgError
    from dotdbg.home import blocks

    target = next((t for t in registered() if t.name == shell), None)
    if target is None or target.path_file is None or target.path_lines is None:
        return Check(SSH_PATH, False, f"dotdbg puts nothing on PATH for {shell}", optional=True)
    path_file = target.path_file(paths)
    wanted = blocks.make_block(target.path_lines(folder, paths.home), blocks.PATH)
    try:
        found = blocks.block_text(read_state(paths).text(path_file) or "", "", blocks.PATH)
    except DotdbgError:
        found = None
    where = paths.display(path_file)
    if found == wanted:
        return Check(SSH_PATH, True, f"finds it: {where} puts {paths.display(folder)} on PATH")
    return Check(
        SSH_PATH, False, f"{where} does not put {paths.display(folder)} on PATH", "dotdbg install"
    )


def _find(tool: str) -> str | None:
    return shutil.which(tool) or own_program(tool)


def check_generated_checks(paths: Paths) -> Check:
    """Which checks the generated bash goes through before it replaces the old file: shellcheck
    is optional (no wheel for every platform), so say whether it runs."""
    from dotdbg.shells.bashcheck import shellcheck_program

    ran = "bash -n and the function-body probes"
    if shellcheck_program() is None:
        return Check(
            "generated bash",
            True,
            f"checked with {ran}; shellcheck is not installed, so its checks do not run",
            "pip install 'dotdbg[check]', or your system's shellcheck package",
            optional=True,
        )
    return Check("generated bash", True, f"checked with {ran} and shellcheck")


def check_tools(paths: Paths) -> Check:
    optional = {
        "shellcheck": "lints generated bash",
        "fzf": "fuzzy cheatsheet picker",
        "py-spy": "dotdbg pyspy",
    }
    missing = [f"{tool} ({why})" for tool, why in optional.items() if _find(tool) is None]
    if missing:
        return Check("optional tools", True, "missing: " + ", ".join(missing))
    return Check("optional tools", True, "shellcheck, fzf and py-spy found")
