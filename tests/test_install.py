from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home import blocks
from dotdbg.home.backup import backup_dirs
from dotdbg.home.homefs import LocalFS
from dotdbg.home.install import fix_profile, install, restore, uninstall
from dotdbg.home.state import is_installed, read_state
from dotdbg.paths import Paths, resource_dir
from tests.homeshell import run_in_home
from tests.infra.procs import wait_for
from tests.pathblock import without_path_block

SKEL_BASHRC = Path("/etc/skel/.bashrc")
REALISTIC_BASHRCS = {
    "debian-skel": SKEL_BASHRC.read_bytes() if SKEL_BASHRC.exists() else b"# skel\nHISTSIZE=1000\n",
    "crlf": b"export A=1\r\nalias ll='ls -l'\r\n",
    "no-trailing-newline": b"export EDITOR=vim",
    "empty": b"",
    "invalid-utf8": b"# caf\xe9 latin-1 comment\nexport X=1\n",
}


def snapshot(home: Path) -> dict[str, tuple[bytes, int]]:
    """Every file under home (symlinks as their target text), with its mode."""
    found = {}
    for path in sorted(home.rglob("*")):
        if path.is_file() and not path.is_symlink():
            found[str(path.relative_to(home))] = (
                path.read_bytes(),
                stat.S_IMODE(path.stat().st_mode),
            )
        elif path.is_symlink():
            found[str(path.relative_to(home))] = (os.readlink(path).encode(), 0)
    return found


def do_install(home: Path, user_toml: str | None = None) -> Paths:
    paths = Paths.from_env(home)
    install(paths, load_config(paths, user_text=user_toml))
    return paths


def test_missing_bashrc_is_created_and_deleted_again(tmp_path: Path) -> None:
    paths = do_install(tmp_path)
    assert without_path_block((tmp_path / ".bashrc").read_bytes()).startswith(blocks.START.encode())
    uninstall(paths)
    assert not (tmp_path / ".bashrc").exists()


def test_reinstall_is_byte_identical_and_makes_no_backup(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    paths = do_install(tmp_path)
    before = snapshot(tmp_path)
    again = install(paths, load_config(paths))
    assert again.backup_dir is None
    assert not again.plan.pending
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if "state" not in k} == {
        k: v for k, v in before.items() if "state" not in k
    }


def test_existing_inputrc_and_pdbrc_keep_their_content(tmp_path: Path) -> None:
    (tmp_path / ".inputrc").write_text('set bell-style none\n"\\C-p": previous-history\n')
    (tmp_path / ".pdbrc").write_text("alias pl pp locals()\n")
    paths = do_install(tmp_path)
    inputrc = (tmp_path / ".inputrc").read_text()
    assert inputrc.startswith('set bell-style none\n"\\C-p": previous-history\n\n# >>> dotdbg >>>')
    assert (
        "$include /etc/inputrc" not in inputrc
    )  # the user's own file decides about the system one
    assert "$include ~/.local/share/dotdbg/inputrc" in inputrc
    assert "alias nl n;;l" in (tmp_path / ".pdbrc").read_text()
    uninstall(paths)
    assert (tmp_path / ".inputrc").read_text() == 'set bell-style none\n"\\C-p": previous-history\n'
    assert (tmp_path / ".pdbrc").read_text() == "alias pl pp locals()\n"


def test_created_inputrc_keeps_the_system_bindings(tmp_path: Path) -> None:
    do_install(tmp_path)
    inputrc = (tmp_path / ".inputrc").read_text()
    if Path("/etc/inputrc").exists():
        assert "$include /etc/inputrc\n$include ~/.local/share/dotdbg/inputrc" in inputrc


def test_symlinked_bashrc_is_edited_at_its_target(tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "bashrc").write_text("export FROM_STOW=1\n")
    (tmp_path / ".bashrc").symlink_to(dotfiles / "bashrc")
    paths = do_install(tmp_path)
    assert (tmp_path / ".bashrc").is_symlink()
    assert blocks.START in (dotfiles / "bashrc").read_text()
    uninstall(paths)
    assert (tmp_path / ".bashrc").is_symlink()
    assert (dotfiles / "bashrc").read_text() == "export FROM_STOW=1\n"


def test_read_only_file_is_a_clear_error_and_nothing_changes(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    (tmp_path / ".pdbrc").write_text("alias x p 1\n")
    (tmp_path / ".pdbrc").chmod(0o444)
    before = snapshot(tmp_path)
    paths = Paths.from_env(tmp_path)
    with pytest.raises(DotdbgError) as caught:
        install(paths, load_config(paths))
    assert "~/.pdbrc is read-only" in caught.value.message
    assert "chmod u+w ~/.pdbrc" in caught.value.hint
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if k != ".local/state/dotdbg/lock"} == before


def test_backups_hold_the_old_files_privately(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export SECRET=1\n")
    paths = Paths.from_env(tmp_path)
    report = install(paths, load_config(paths))
    assert report.backup_dir is not None
    assert report.backup_dir.parent == tmp_path / ".local/state/dotdbg/backups"
    backup = report.backup_dir / ".bashrc"
    assert backup.read_text() == "export SECRET=1\n"
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert stat.S_IMODE(report.backup_dir.stat().st_mode) == 0o700


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("x\n")
    paths = Paths.from_env(tmp_path)
    report = install(paths, load_config(paths), dry_run=True)
    assert {c.action for c in report.plan.changes} == {"create", "update"}
    assert set(snapshot(tmp_path)) <= {".bashrc", ".local/state/dotdbg/lock"}


def test_switching_a_pack_off_removes_its_block(tmp_path: Path) -> None:
    paths = do_install(tmp_path)
    assert (tmp_path / ".inputrc").exists()
    install(paths, load_config(paths, user_text="[packs]\nreadline = false\npdb = false\n"))
    assert not (tmp_path / ".inputrc").exists()
    assert not (tmp_path / ".pdbrc").exists()
    assert "history-search" not in (tmp_path / ".local/share/dotdbg/inputrc").read_text()


def test_a_hand_edited_generated_file_is_reported_as_drift(tmp_path: Path) -> None:
    paths = do_install(tmp_path)
    generated = tmp_path / ".local/share/dotdbg/dotdbg.bash"
    generated.write_text(generated.read_text() + "alias mine=ls\n")
    report = install(paths, load_config(paths), dry_run=True)
    assert report.plan.notes == (
        "~/.local/share/dotdbg/dotdbg.bash was edited by hand since dotdbg wrote it",
    )


def test_uninstall_without_manifest_still_removes_blocks(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("a\n")
    paths = do_install(tmp_path)
    paths.manifest_file.unlink()
    uninstall(paths)
    assert blocks.START not in (tmp_path / ".bashrc").read_text()
    assert (tmp_path / ".bashrc").read_text().startswith("a\n")


def test_two_blocks_stop_the_install(tmp_path: Path) -> None:
    block = blocks.make_block("x\n")
    (tmp_path / ".bashrc").write_text(block + block)
    paths = Paths.from_env(tmp_path)
    with pytest.raises(DotdbgError) as caught:
        install(paths, load_config(paths))
    assert caught.value.location == f"{tmp_path / '.bashrc'}:5"
    assert "found 2 '# >>> dotdbg >>>'" in caught.value.message
    assert "keep exactly one dotdbg block" in caught.value.hint


def test_concurrent_installs_are_serialized(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    argv = ["install", "--home", str(tmp_path)]
    code = f"from dotdbg.cli.entry import main; raise SystemExit(main({argv!r}))"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        for _ in range(4)
    ]
    assert all(run.wait(timeout=60) == 0 for run in runs)
    assert (tmp_path / ".bashrc").read_text().count(blocks.START) == 1
    state = read_state(Paths.from_env(tmp_path))
    assert state.manifest["blocks"][str(tmp_path / ".bashrc")]["separator"] == "\n"


def test_restore_puts_a_backup_back_and_backs_up_first(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("original\n")
    paths = do_install(tmp_path)
    first_backup = backup_dirs(paths)[-1]
    restored = restore(paths, first_backup.name)
    assert (tmp_path / ".bashrc").read_text() == "original\n"
    assert restored.backup_dir is not None
    assert blocks.START in (restored.backup_dir / ".bashrc").read_text()
    with pytest.raises(DotdbgError, match="no backup named"):
        restore(paths, "19990101T000000Z")


def home_files(home: Path) -> dict[str, tuple[bytes, int]]:
    """The files of ``snapshot`` but dotdbg's own state (manifest, backups, lock)."""
    return {name: v for name, v in snapshot(home).items() if not name.startswith(".local/state")}


def is_current(paths: Paths) -> bool:
    """What `dotdbg status` checks: installed, nothing pending, nothing edited by hand."""
    plan = install(paths, load_config(paths), dry_run=True).plan
    return is_installed(paths) and not plan.pending and not plan.notes


@pytest.mark.parametrize("name", sorted(REALISTIC_BASHRCS))
def test_install_then_uninstall_restores_every_byte_and_a_restore_the_records_too(
    tmp_path: Path, name: str
) -> None:
    """Uninstall gives each ~/.bashrc back byte for byte, its mode too; a restore after it
    brings the install back with dotdbg's records, so a second uninstall can undo it again.
    (Two tests before, each installing the same bashrcs: the first one's checks are the steps
    up to the first uninstall.)"""
    bashrc = tmp_path / ".bashrc"
    bashrc.write_bytes(REALISTIC_BASHRCS[name])
    bashrc.chmod(0o640)
    before = home_files(tmp_path)
    paths = do_install(tmp_path)
    text = without_path_block(bashrc.read_bytes())
    assert text.startswith(REALISTIC_BASHRCS[name])
    assert text.count(blocks.START.encode()) == 1
    assert stat.S_IMODE(bashrc.stat().st_mode) == 0o640
    installed, manifest = home_files(tmp_path), read_state(paths).manifest
    uninstall(paths)
    assert bashrc.read_bytes() == REALISTIC_BASHRCS[name]
    assert stat.S_IMODE(bashrc.stat().st_mode) == 0o640
    for created in (".inputrc", ".pdbrc", ".local/share/dotdbg"):
        assert not (tmp_path / created).exists()
    restore(paths)
    assert home_files(tmp_path) == installed
    assert read_state(paths).manifest == manifest
    assert is_current(paths)
    uninstall(paths)  # knows again which files it created and which newline it added
    assert home_files(tmp_path) == before
    assert not paths.data_dir.exists()


def test_restoring_the_first_install_gives_the_home_before_it(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    before = home_files(tmp_path)
    paths = do_install(tmp_path)
    installed = home_files(tmp_path)
    undo = restore(paths)  # the files install created are deleted, and the manifest with them
    assert home_files(tmp_path) == before
    assert not paths.manifest_file.exists() and not paths.data_dir.exists()
    assert undo.backup_dir is not None
    restore(paths, undo.backup_dir.name)  # a restore is a command like any other: undone so
    assert home_files(tmp_path) == installed
    assert is_current(paths)


def test_restore_keeps_the_records_of_files_the_backup_does_not_hold(tmp_path: Path) -> None:
    paths = do_install(tmp_path)
    fix_profile(paths)  # a backup of ~/.bash_profile only: it did not exist
    install(paths, load_config(paths, user_text='[aliases]\nzz = "echo zz"\n'))
    restore(paths, backup_dirs(paths)[1].name)
    assert not paths.bash_profile.exists()
    assert str(paths.bash_profile) not in read_state(paths).manifest["blocks"]
    assert not is_current(paths)  # dotdbg.bash has zz, which the config has not
    assert not install(paths, load_config(paths), dry_run=True).plan.notes


@pytest.mark.parametrize("index", [None, '{"version": 1, "absent": []}', "{not json"])
def test_a_backup_without_a_complete_index_is_never_restored(
    tmp_path: Path, index: str | None
) -> None:
    paths = do_install(tmp_path)
    old = paths.backups_dir / "20200101T000000Z"  # a dead run's, or an older dotdbg's
    old.mkdir()
    (old / ".bashrc").write_text("")
    if index is not None:
        (old / "dotdbg-backup.json").write_text(index)
    before = snapshot(tmp_path)
    with pytest.raises(DotdbgError, match="is not a complete backup") as caught:
        restore(paths, old.name)
    assert "will not restore from it" in caught.value.message
    assert snapshot(tmp_path) == before


def test_backups_are_ordered_by_time_then_by_number(tmp_path: Path) -> None:
    paths = Paths.from_env(tmp_path)
    names = ["20200101T000000Z-10", "20200101T000001Z", "20200101T000000Z-2", "20200101T000000Z"]
    for name in names:
        (paths.backups_dir / name).mkdir(parents=True)
    assert [folder.name for folder in backup_dirs(paths)] == [
        "20200101T000000Z",
        "20200101T000000Z-2",
        "20200101T000000Z-10",
        "20200101T000001Z",
    ]


def login_shell_sees(home: Path, shell: str = "bash") -> str:
    """What `type -t gs` says in a real login shell (bash reads the first login file only)."""
    argv = [shell, "-l", "-i", "-c", "type -t gs"] if shell == "bash" else [shell, "-l", "-c", ":"]
    return run_in_home(argv, home).stdout.strip()


@pytest.mark.parametrize("login_name", [".bash_profile", ".bash_login", ".profile"])
def test_profile_fix_goes_into_the_login_file_bash_reads(tmp_path: Path, login_name: str) -> None:
    from dotdbg.home.install import fix_profile
    from dotdbg.home.plan import profile_notes

    original = b"export FROM_LOGIN=1\n# . ~/.bashrc  (a comment does not count)\n"
    (tmp_path / login_name).write_bytes(original)
    paths = do_install(tmp_path)
    assert profile_notes(paths, read_state(paths)) == [
        f"~/{login_name} does not load ~/.bashrc, so login shells (ssh, some terminals) "
        "miss dotdbg: run `dotdbg doctor --fix`"
    ]
    assert login_shell_sees(tmp_path) == ""
    fix_profile(paths)
    assert login_shell_sees(tmp_path) == "alias"
    assert not profile_notes(paths, read_state(paths))
    if login_name == ".profile":  # sh reads ~/.profile too and must not source a bash file
        result = subprocess.run(
            ["sh", "-l", "-c", "echo ok"],
            env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
        )
        assert (result.stdout, result.stderr) == ("ok\n", "")
    install(paths, load_config(paths))  # a re-install keeps the block, once
    assert (tmp_path / login_name).read_text().count(blocks.START) == 1
    uninstall(paths)
    assert (tmp_path / login_name).read_bytes() == original


def test_profile_fix_does_nothing_when_the_login_file_loads_bashrc(tmp_path: Path) -> None:
    from dotdbg.home.install import fix_profile

    (tmp_path / ".bash_profile").write_text("[ -r ~/.bashrc ] && . ~/.bashrc\n")
    paths = Paths.from_env(tmp_path)
    report = fix_profile(paths)
    assert not report.plan.pending and report.backup_dir is None
    assert (tmp_path / ".bash_profile").read_text() == "[ -r ~/.bashrc ] && . ~/.bashrc\n"
    assert not paths.manifest_file.exists()


def test_profile_fix_without_login_files_creates_bash_profile_only(tmp_path: Path) -> None:
    from dotdbg.home.install import fix_profile
    from dotdbg.home.state import is_installed

    paths = Paths.from_env(tmp_path)
    fix_profile(paths)
    assert blocks.START in (tmp_path / ".bash_profile").read_text()
    assert not (tmp_path / ".profile").exists()
    assert not is_installed(paths)  # the fix alone is not an install
    uninstall(paths)
    assert not (tmp_path / ".bash_profile").exists()


@pytest.mark.parametrize("name", [".bashrc", ".pdbrc", "symlinked .bashrc"])
def test_read_only_files_stop_the_install_before_any_write(tmp_path: Path, name: str) -> None:
    (tmp_path / ".pdbrc").write_text("alias x p 1\n")
    if name == "symlinked .bashrc":  # the link is writable, its target is not
        (tmp_path / "dotfiles").mkdir()
        target = tmp_path / "dotfiles/bashrc"
        target.write_text("export A=1\n")
        (tmp_path / ".bashrc").symlink_to(target)
    else:
        (tmp_path / ".bashrc").write_text("export A=1\n")
        target = tmp_path / name
    target.chmod(0o444)
    before = snapshot(tmp_path)
    paths = Paths.from_env(tmp_path)
    with pytest.raises(DotdbgError) as caught:
        install(paths, load_config(paths))
    shown = "~/.bashrc" if "bashrc" in name else "~/.pdbrc"
    assert caught.value.message == f"{shown} is read-only, so dotdbg changed nothing"
    assert f"chmod u+w {shown}" in caught.value.hint
    assert {k: v for k, v in snapshot(tmp_path).items() if not k.endswith("/lock")} == before


def test_writes_replace_the_file_by_rename_and_keep_its_mode(tmp_path: Path) -> None:
    bashrc = tmp_path / ".bashrc"
    bashrc.write_text("export A=1\n")
    bashrc.chmod(0o600)
    inode = bashrc.stat().st_ino
    do_install(tmp_path)
    assert bashrc.stat().st_ino != inode  # a new file renamed over the old, not rewritten in place
    assert stat.S_IMODE(bashrc.stat().st_mode) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".dotdbg-tmp")]


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_write_leaves_the_old_file_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    from dotdbg.home import fileops

    bashrc = tmp_path / ".bashrc"
    bashrc.write_text("export A=1\n")

    def broken(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, broken)  # the os module fileops uses
    with pytest.raises(OSError):
        fileops.atomic_write(bashrc, b"half")
    assert bashrc.read_text() == "export A=1\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".bashrc"]


def test_a_temp_file_is_private_beside_its_target_and_known_to_recovery(tmp_path: Path) -> None:
    from dotdbg.home import fileops

    target = tmp_path / ".bashrc"
    fd, name = fileops._new_temp_file(target)
    os.close(fd)
    temp = Path(name)
    assert temp.parent == tmp_path and temp.name.startswith(f".{target.name}.{os.getpid()}.")
    assert stat.S_IMODE(temp.stat().st_mode) == 0o600
    assert fileops.temp_file_pid(temp.name) == os.getpid()  # a killed run's is removed
    other, _ = fileops._new_temp_file(target)
    os.close(other)
    assert len(list(tmp_path.glob("*.dotdbg-tmp"))) == 2  # a new name each time


def waits_for_lock(run: subprocess.Popen[bytes], lock: Path) -> bool:
    """Whether ``run`` is blocked on a flock of ``lock`` (a waiter's line in /proc/locks);
    an exit before that fails the test at once."""
    assert run.poll() is None, "the second install did not wait for the lock"
    inode = f":{lock.stat().st_ino} "
    waiting = Path("/proc/locks").read_text().splitlines()
    return any(
        " -> FLOCK " in line and f" {run.pid} " in line and inode in line for line in waiting
    )


def test_a_second_run_waits_for_the_lock(tmp_path: Path) -> None:
    import fcntl

    (tmp_path / ".bashrc").write_text("export A=1\n")
    paths = Paths.from_env(tmp_path)
    paths.state_dir.mkdir(parents=True)
    with open(paths.lock_file, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        run = subprocess.Popen(
            [sys.executable, "-m", "dotdbg", "install", "--home", str(tmp_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        wait_for(
            lambda: waits_for_lock(run, paths.lock_file), 60, "the install to wait for the lock"
        )
        assert run.poll() is None
        assert (tmp_path / ".bashrc").read_text() == "export A=1\n"
    assert run.wait(timeout=60) == 0
    assert blocks.START in (tmp_path / ".bashrc").read_text()


def test_xdg_directories_are_used_outside_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("export A=1\n")
    xdg = {
        var: tmp_path / var.lower()
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
    }
    monkeypatch.setenv("HOME", str(home))
    for var, directory in xdg.items():
        monkeypatch.setenv(var, str(directory))
    (xdg["XDG_CONFIG_HOME"] / "dotdbg").mkdir(parents=True)
    (xdg["XDG_CONFIG_HOME"] / "dotdbg/config.toml").write_text('[aliases]\nxdgq = "echo xdg"\n')
    paths = Paths.from_env()
    report = install(paths, load_config(paths))
    assert (xdg["XDG_DATA_HOME"] / "dotdbg/dotdbg.bash").is_file()
    assert report.backup_dir is not None
    assert report.backup_dir.parent == xdg["XDG_STATE_HOME"] / "dotdbg/backups"
    assert not (home / ".local").exists() and not (home / ".config").exists()
    shown = run_in_home(["bash", "-i", "-c", "alias xdgq"], home).stdout
    assert shown == "alias xdgq='echo xdg'\n"


def test_new_files_follow_the_umask(tmp_path: Path) -> None:
    old_mask = os.umask(0o077)
    try:
        do_install(tmp_path)
    finally:
        os.umask(old_mask)
    for name in (".bashrc", ".inputrc", ".pdbrc", ".local/share/dotdbg/dotdbg.bash"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name


class FullAtPdbrc(LocalFS):
    """This machine, with a full disk when ~/.pdbrc is written (through the filesystem seam)."""

    def write_atomic(
        self, path: Path, data: bytes, mode: int | None = None, *, follow: bool = True
    ) -> None:
        if path.name == ".pdbrc":
            raise OSError(28, "No space left on device")
        super().write_atomic(path, data, mode, follow=follow)


def test_a_write_that_fails_midway_undoes_the_earlier_ones(tmp_path: Path) -> None:
    (tmp_path / ".bashrc").write_text("export A=1\n")
    (tmp_path / ".pdbrc").write_text("alias x p 1\n")
    before = snapshot(tmp_path)
    paths = Paths.from_env(tmp_path).on(FullAtPdbrc())
    with pytest.raises(DotdbgError) as caught:
        install(paths, load_config(paths))
    assert caught.value.message == (
        "cannot write ~/.pdbrc (No space left on device), so dotdbg changed nothing"
    )
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith(".local/state")} == before
    assert not paths.manifest_file.exists()


def test_an_immutable_bashrc_is_a_clear_error(tmp_path: Path) -> None:
    bashrc = tmp_path / ".bashrc"
    bashrc.write_text("export A=1\n")
    if subprocess.run(["chattr", "+i", str(bashrc)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not supported here")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "dotdbg", "install", "--home", str(tmp_path)],
            capture_output=True,
            text=True,
        )
    finally:
        subprocess.run(["chattr", "-i", str(bashrc)], check=True)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "dotdbg: error: cannot write ~/.bashrc (Operation not permitted), so dotdbg changed nothing"
    )
    assert not (tmp_path / ".local/share/dotdbg/dotdbg.bash").exists()
    assert bashrc.read_text() == "export A=1\n"


@pytest.mark.parametrize("in_the_way", [".local/share/dotdbg", ".local/state"])
def test_a_file_in_place_of_a_directory_is_a_clear_error(tmp_path: Path, in_the_way: str) -> None:
    blocker = tmp_path / in_the_way
    blocker.parent.mkdir(parents=True)
    blocker.write_text("")
    paths = Paths.from_env(tmp_path)
    with pytest.raises(DotdbgError) as caught:
        install(paths, load_config(paths))
    assert str(blocker) in caught.value.message + caught.value.hint
    assert not (tmp_path / ".bashrc").exists()


# -- a dry run of an untouched installed home renders nothing ----------------------------------

# whether it rendered: the templates' code (``home/templatecode.py``) or jinja2
NO_RENDER = """
import sys
from dotdbg.cli.entry import main
code = main(["status", "--home", sys.argv[1]])
print(code, "dotdbg.home.templatecode" in sys.modules or "jinja2" in sys.modules)
"""


def test_status_of_an_untouched_install_does_not_render(tmp_path: Path) -> None:
    do_install(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", NO_RENDER, str(tmp_path)], capture_output=True, text=True
    )
    assert done.stdout.splitlines()[-1] == "0 False", done.stderr
    generated = tmp_path / ".local/share/dotdbg/dotdbg.bash"
    generated.write_text(generated.read_text() + "# mine\n")
    done = subprocess.run(
        [sys.executable, "-c", NO_RENDER, str(tmp_path)], capture_output=True, text=True
    )
    assert done.stdout.splitlines()[-1] == "1 True"  # edited by hand: rendered, and told


def test_the_render_key_follows_every_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    from dotdbg.home import render
    from dotdbg.home.install import installed_render

    paths = do_install(tmp_path)
    config = load_config(paths)
    assert installed_render(paths, config, read_state(paths)) is not None
    other = load_config(paths, user_text='[aliases]\nzz = "echo zz"\n')
    assert installed_render(paths, other, read_state(paths)) is None
    templates = tmp_path / "templates"
    shutil.copytree(resource_dir("templates"), templates)
    (templates / "inputrc.j2").write_text((templates / "inputrc.j2").read_text() + "\n")
    monkeypatch.setattr(render, "resource_dir", lambda name: templates)
    assert installed_render(paths, config, read_state(paths)) is None
