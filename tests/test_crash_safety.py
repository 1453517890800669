"""Issue 16: nothing lost. Each test injects the fault that did harm, for real: strace fault
injection, kill -9, a full tmpfs, a symlinked lock file, another user's ~/.bashrc."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.errors import DotdbgError
from dotdbg.home import blocks
from dotdbg.home.backup import backup_dirs
from dotdbg.home.install import install, restore, uninstall
from dotdbg.paths import Paths
from tests.faults.faultrun import (
    DEBIAN,
    STRACE,
    Point,
    environment,
    run_faulted,
    snapshot,
    write_points,
)
from tests.pathblock import without_path_block

needs_strace = pytest.mark.skipif(STRACE is None, reason="strace is not installed")


Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def dotdbg(capsys: pytest.CaptureFixture[str]) -> Run:
    """`dotdbg ARGS --home HOME` in this process (the same code, messages and exit code as
    the command, without a Python start-up each time)."""
    from dotdbg.cli.entry import main

    def run(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()
        code = main([*args, "--home", str(home)])
        out = capsys.readouterr()
        return subprocess.CompletedProcess(list(args), code, out.out, out.err)

    return run


def argv_of(*args: str, home: Path) -> list[str]:
    return [sys.executable, "-m", "dotdbg", *args, "--home", str(home)]


def traced(root: Path, args: tuple[str, ...], setup: Callable[[Path], None]) -> list[Point]:
    """The write-side calls of ``dotdbg ARGS`` in a home made by ``setup``: their numbering
    is the same in any home made so, wherever it is."""
    home = root / "home"
    home.mkdir(parents=True)
    setup(home)
    return write_points(argv_of(*args, home=home), home, root / "trace")


def faulted(
    home: Path,
    args: tuple[str, ...],
    points: list[Point],
    wanted: Callable[[Point], bool],
    fault: str,
) -> subprocess.CompletedProcess[str]:
    """Run ``dotdbg ARGS`` with ``fault`` at the first of ``points`` that ``wanted`` picks."""
    point = next(point for point in points if wanted(point))
    return run_faulted(argv_of(*args, home=home), home, point, fault)


def debian_home(home: Path) -> None:
    (home / ".bashrc").write_bytes(DEBIAN)


def installed_home(home: Path) -> None:
    debian_home(home)
    install(Paths.from_env(home), load_config(Paths.from_env(home)))


def copying_into_the_backup(point: Point) -> bool:
    return point.syscall == "write" and "/backups/" in point.line


def renaming_the_manifest(point: Point) -> bool:
    return point.syscall == "rename" and "manifest" in point.line


@pytest.fixture(scope="module")
def install_points(tmp_path_factory: pytest.TempPathFactory) -> list[Point]:
    if STRACE is None:
        pytest.skip("strace is not installed")
    return traced(tmp_path_factory.mktemp("trace"), ("install",), debian_home)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_bytes(DEBIAN)
    return home


# -- 16.1 a full disk while backing up ---------------------------------------------------------


@needs_strace
def test_a_full_disk_while_backing_up_changes_nothing_and_leaves_no_copy(
    home: Path, dotdbg: Run, install_points: list[Point]
) -> None:
    result = faulted(home, ("install",), install_points, copying_into_the_backup, "ENOSPC")
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "dotdbg: error: cannot back up ~/.bashrc into ~/.local/state/dotdbg/backups "
        "(No space left on device), so dotdbg changed nothing"
    )
    assert (home / ".bashrc").read_bytes() == DEBIAN
    assert not list((home / ".local/state/dotdbg/backups").iterdir())
    restored = dotdbg("restore", home=home)
    assert (restored.returncode, restored.stderr.splitlines()[0]) == (
        2,
        "dotdbg: error: there are no backups to restore",
    )
    assert (home / ".bashrc").read_bytes() == DEBIAN


def test_a_copy_that_is_not_what_was_saved_is_never_written_back(home: Path) -> None:
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    folder = backup_dirs(paths)[-1]
    (folder / ".bashrc").write_bytes(b"")  # what the old dotdbg left after ENOSPC
    before = snapshot(home)
    with pytest.raises(DotdbgError, match="is not the file that was saved"):
        restore(paths)
    assert snapshot(home) == before


# -- 16.2 the lock file and the state directory ------------------------------------------------


@pytest.mark.parametrize("link", ["symlink", "hard link"])
def test_the_lock_file_is_never_followed_nor_truncated(home: Path, link: str, dotdbg: Run) -> None:
    state = home / ".local/state/dotdbg"
    state.mkdir(parents=True)
    if link == "symlink":
        (state / "lock").symlink_to(home / ".bashrc")
    else:
        os.link(home / ".bashrc", state / "lock")
    result = dotdbg("install", home=home)
    assert without_path_block((home / ".bashrc").read_bytes()).startswith(DEBIAN)
    if link == "symlink":
        assert result.returncode == 2
        assert result.stderr.splitlines()[0] == (
            "dotdbg: error: cannot open the lock file ~/.local/state/dotdbg/lock: it is a symlink"
        )
        assert (home / ".bashrc").read_bytes() == DEBIAN
    else:  # opened without truncating: locking it changes nothing
        assert result.returncode == 0, result.stderr
        assert (state / "lock").read_bytes() == DEBIAN


def test_a_state_directory_others_can_write_is_refused(home: Path, dotdbg: Run) -> None:
    state = home / ".local/state/dotdbg"
    state.mkdir(parents=True)
    state.chmod(0o777)
    result = dotdbg("install", home=home)
    assert result.returncode == 2
    assert "can be written by other users (mode 0777)" in result.stderr
    assert "hint: chmod go-w ~/.local/state/dotdbg" in result.stderr
    assert (home / ".bashrc").read_bytes() == DEBIAN


def test_a_symlinked_manifest_is_not_followed(home: Path, dotdbg: Run) -> None:
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    paths.manifest_file.unlink()
    paths.manifest_file.symlink_to(home / ".bashrc")
    installed = (home / ".bashrc").read_bytes()
    result = dotdbg("uninstall", home=home)
    assert result.returncode == 2
    assert "manifest.json: it is a symlink" in result.stderr
    assert (home / ".bashrc").read_bytes() == installed


# -- 16.5 killed before the manifest; a manifest that cannot be read ---------------------------


@needs_strace
def test_killed_before_the_manifest_status_says_so_and_the_next_run_finishes(
    home: Path, dotdbg: Run, install_points: list[Point]
) -> None:
    killed = faulted(home, ("install",), install_points, renaming_the_manifest, "SIGKILL")
    assert killed.returncode == -9
    status = dotdbg("status", home=home)
    assert status.returncode == 1
    assert status.stdout.startswith("a `dotdbg install` started at ")
    assert "was interrupted: the next dotdbg command that changes files" in status.stdout
    assert "saves its records (every file was written)" in status.stdout
    doctor = dotdbg("doctor", home=home)
    assert "!!  interrupted run: a `dotdbg install` started at " in doctor.stdout
    dry = dotdbg("uninstall", "--dry-run", home=home)
    assert "dotdbg: warning: a `dotdbg install` started at " in dry.stderr
    finished = dotdbg("uninstall", home=home)
    assert finished.stderr.startswith("dotdbg: finished the `dotdbg install` interrupted at ")
    assert (home / ".bashrc").read_bytes() == DEBIAN  # no extra newline
    assert not (home / ".inputrc").exists() and not (home / ".pdbrc").exists()


@needs_strace
def test_an_unreadable_manifest_stops_uninstall(tmp_path: Path, home: Path) -> None:
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    installed = snapshot(home)
    points = traced(tmp_path / "traced", ("uninstall",), installed_home)
    result = faulted(
        home, ("uninstall",), points, lambda p: p.syscall == "read" and "manifest.json" in p.line,
        "EIO",
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "dotdbg: error: cannot read ~/.local/state/dotdbg/manifest.json: Input/output error"
    )
    assert snapshot(home) == installed


# -- 16.6 what a killed run leaves is cleaned, and said ----------------------------------------


@needs_strace
def test_temp_files_and_half_backups_of_a_killed_run_are_removed_and_said(
    home: Path, dotdbg: Run, install_points: list[Point]
) -> None:
    killed = faulted(
        home, ("install",), install_points,
        lambda p: p.syscall == "rename" and p.line.endswith('/.bashrc") = 0'), "SIGKILL",
    )  # fmt: skip
    assert killed.returncode == -9
    assert [p.name for p in home.iterdir() if p.name.endswith(".dotdbg-tmp")]
    half = home / ".local/state/dotdbg/backups/.partial-20200101T000000Z-1"
    half.mkdir()
    (half / ".bashrc").write_bytes(b"")
    result = dotdbg("install", home=home)
    assert result.returncode == 0, result.stderr
    said = result.stderr.splitlines()
    assert said[0].startswith("dotdbg: undid the `dotdbg install` interrupted at ")
    assert said[1].startswith("dotdbg: removed 1 temp file(s) that a killed dotdbg run left: ~/.")
    assert said[2] == (
        "dotdbg: removed 1 unfinished backup folder(s) that a killed dotdbg run left "
        "(never used): .partial-20200101T000000Z-1"
    )
    assert not list(home.rglob("*.dotdbg-tmp")) and not half.exists()
    bashrc = without_path_block((home / ".bashrc").read_bytes())
    assert bashrc.startswith(DEBIAN + b"\n" + blocks.START.encode())


# -- 16.7 every I/O error is one line, and the command changes nothing or completes -----------


@needs_strace
@pytest.mark.parametrize(
    ("what", "wanted"),
    [
        ("the manifest", lambda p: p.syscall == "write" and "manifest.json" in p.line),
        ("the data dir", lambda p: p.syscall == "mkdir" and p.line.endswith('dotdbg", 0755) = 0')),
        ("the lock", lambda p: p.syscall == "flock"),
    ],
)
def test_an_io_error_anywhere_is_one_line_and_changes_nothing(
    tmp_path: Path,
    home: Path,
    what: str,
    wanted: Callable[[Point], bool],
    install_points: list[Point],
) -> None:
    result = faulted(home, ("install",), install_points, wanted, "EIO")
    assert result.returncode in (1, 2), what
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("dotdbg: error: ")
    assert "Input/output error" in result.stderr.splitlines()[0]
    assert snapshot(home) == {".bashrc": DEBIAN}


@pytest.fixture
def full_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A real 192 KiB tmpfs, mounted for the test (root only): room for an installed home (its
    PATH blocks too), and then filled up."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=192k,mode=0755", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(directory: Path, leave: int) -> None:
    """Take the free space of ``directory``'s file system down to about ``leave`` bytes."""
    free = os.statvfs(directory)
    size = free.f_bavail * free.f_frsize - leave
    if size > 0:
        with open(directory / "filler", "wb") as filler:
            filler.write(b"\0" * size)


# With 16 KiB left an older dotdbg wrote the new config, then died on the installed files with
# a traceback; with 36 KiB left the config and its backups fit and dotdbg.bash does not.
@pytest.mark.parametrize("leave", [16384, 36864])
def test_alias_add_on_a_full_disk_leaves_the_config_as_it_was(
    full_tmpfs: Path, leave: int, dotdbg: Run
) -> None:
    home = full_tmpfs
    (home / ".bashrc").write_bytes(DEBIAN)
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    (paths.config_file.parent).mkdir(parents=True)
    paths.config_file.write_text('# mine\n[aliases]\ngs2 = "git status"\n')
    fill(home, leave)
    before = snapshot(home)
    result = dotdbg("alias", "add", "gst", "git status --short", home=home)
    assert result.returncode == 2, result.stderr
    assert "No space left on device" in result.stderr.splitlines()[0]
    assert "Traceback" not in result.stderr
    (home / "filler").unlink()
    assert snapshot(home) == {k: v for k, v in before.items() if k != "filler"}
    assert not list(home.rglob("*.dotdbg-tmp"))
    assert not (paths.journal_file).exists()


# -- 16.8 concurrent runs --------------------------------------------------------------------


def test_install_reads_the_config_under_the_lock(home: Path) -> None:
    """An install that waits for the lock installs the config as it is when it gets it."""
    import fcntl

    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    with open(paths.lock_file, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        waiting = subprocess.Popen(
            argv_of("install", home=home), stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        # It reads the config before it waits too (to fail fast): let it get there.
        wait_for(lambda: _waits_on_lock(waiting.pid), "install to wait for the lock")
        paths.config_file.parent.mkdir(parents=True)
        paths.config_file.write_text('[aliases]\nlate = "echo added while it waited"\n')
    assert waiting.wait(timeout=60) == 0
    assert "alias late=" in (paths.data_dir / "dotdbg.bash").read_text()


@pytest.mark.faults
@pytest.mark.timeout(600)
def test_forty_concurrent_edits_and_installs_lose_nothing(home: Path) -> None:
    """The audit's race, as it ran it: 20 `alias add` and 20 `install` at once."""
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    runs = []
    for n in range(20):
        for args in (("alias", "add", f"zz{n}", f"echo {n}"), ("install",)):
            runs.append(
                subprocess.Popen(
                    argv_of(*args, home=home),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=environment(home),
                )
            )
    errors = [run.communicate(timeout=600)[1] for run in runs]
    assert [run.returncode for run in runs] == [0] * 40, errors
    assert not [err for err in errors if "Traceback" in err]
    generated = (paths.data_dir / "dotdbg.bash").read_text()
    assert sorted(n for n in range(20) if f"alias zz{n}='echo {n}'" in generated) == list(range(20))
    assert paths.config_file.read_text().count("zz") == 20


def _waits_on_lock(pid: int) -> bool:
    try:
        return "flock" in Path(f"/proc/{pid}/wchan").read_text() or _in_flock_syscall(pid)
    except OSError:
        return False


def _in_flock_syscall(pid: int) -> bool:
    syscall = Path(f"/proc/{pid}/syscall").read_text().split()
    return bool(syscall) and syscall[0] == "73"  # flock on x86_64


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 30) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


# -- 16.9 blocks dotdbg cannot prove it wrote --------------------------------------------------

HAND_WRITTEN = f"export A=1\n{blocks.START}\nmy_setting=1\n{blocks.END}\nexport B=2\n"
IN_A_HEREDOC = f"cat > notes.txt <<'EOF'\n{blocks.START}\nkeep me\n{blocks.END}\nEOF\n"


@pytest.mark.parametrize(("text", "first", "last"), [(HAND_WRITTEN, 2, 4), (IN_A_HEREDOC, 2, 4)])
def test_a_block_dotdbg_did_not_write_is_an_error_and_kept(
    home: Path, text: str, first: int, last: int
) -> None:
    (home / ".bashrc").write_text(text)
    paths = Paths.from_env(home)
    with pytest.raises(DotdbgError) as caught:
        install(paths, load_config(paths))
    assert caught.value.location == f"{home / '.bashrc'}:{first}"
    assert caught.value.message.startswith(f"lines {first}-{last} are a '# >>> dotdbg >>>' block")
    assert "change the two marker lines" in caught.value.hint
    with pytest.raises(DotdbgError, match="records do not know"):
        uninstall(paths)
    assert (home / ".bashrc").read_text() == text


def test_uninstall_without_records_removes_only_a_block_dotdbg_writes(home: Path) -> None:
    paths = Paths.from_env(home)
    install(paths, load_config(paths))
    paths.manifest_file.unlink()  # the records are gone; the block is exactly dotdbg's
    uninstall(paths)
    assert (home / ".bashrc").read_bytes().startswith(DEBIAN)
    assert blocks.START not in (home / ".bashrc").read_text()


# -- 16.11 another user's ~/.bashrc; umask 000 -------------------------------------------------


def as_nobody(argv: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(home),
    )


@pytest.fixture
def nobodys_home() -> Iterator[Path]:
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to act as another user")
    import tempfile

    home = Path(tempfile.mkdtemp(prefix="dotdbg-nobody-"))  # in /tmp: nobody can reach it
    try:
        os.chown(home, 65534, 65534)
        if as_nobody([sys.executable, "-c", "import dotdbg"], home).returncode != 0:
            pytest.skip("user nobody cannot run this checkout's Python")
        yield home
    finally:
        shutil.rmtree(home)


def test_a_root_owned_bashrc_in_a_users_home_is_not_replaced(nobodys_home: Path) -> None:
    bashrc = nobodys_home / ".bashrc"
    bashrc.write_bytes(DEBIAN)  # root's, mode 0644: nobody can read it, not write it
    result = as_nobody(argv_of("install", home=nobodys_home), nobodys_home)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0] == (
        "dotdbg: error: ~/.bashrc belongs to root, not to you, so dotdbg changed nothing"
    )
    assert bashrc.stat().st_uid == 0 and bashrc.read_bytes() == DEBIAN


def test_root_installing_into_a_users_home_keeps_the_owner(nobodys_home: Path, dotdbg: Run) -> None:
    bashrc = nobodys_home / ".bashrc"
    bashrc.write_bytes(DEBIAN)
    os.chown(bashrc, 65534, 65534)
    assert dotdbg("install", home=nobodys_home).returncode == 0
    assert (bashrc.stat().st_uid, bashrc.stat().st_gid) == (65534, 65534)
    assert without_path_block(bashrc.read_bytes()).startswith(DEBIAN)


def test_with_umask_000_nothing_dotdbg_writes_is_writable_by_others(home: Path) -> None:
    old = os.umask(0)
    try:
        paths = Paths.from_env(home)
        install(paths, load_config(paths))
    finally:
        os.umask(old)
    for path in [*paths.data_dir.iterdir(), paths.data_dir, home / ".inputrc", home / ".local"]:
        assert not stat.S_IMODE(path.stat().st_mode) & 0o022, path


@needs_strace
def test_backup_copies_are_fsynced_before_the_first_change(
    home: Path, install_points: list[Point]
) -> None:
    lines = [point.line for point in install_points]
    copy_synced = next(
        n for n, line in enumerate(lines) if line.startswith("fsync(") and "/.partial-" in line
    )
    first_change = next(
        n for n, line in enumerate(lines) if line.startswith("rename(") and '/.bashrc"' in line
    )
    assert "/backups/.partial-" in lines[copy_synced] and lines[copy_synced].endswith(
        ".bashrc>) = 0"
    )
    assert copy_synced < first_change


@needs_strace
def test_recovery_leaves_a_file_changed_since_the_crash_and_says_so(
    home: Path, capsys: pytest.CaptureFixture[str], install_points: list[Point]
) -> None:
    from dotdbg.home.writer import session

    killed = faulted(home, ("install",), install_points, renaming_the_manifest, "SIGKILL")
    assert killed.returncode == -9
    mine = (home / ".bashrc").read_bytes() + b"alias mine=ls\n"  # edited after the crash
    (home / ".bashrc").write_bytes(mine)
    with session(Paths.from_env(home)):
        pass
    said = capsys.readouterr().err
    assert "dotdbg: undid the `dotdbg install` interrupted at " in said
    assert "except ~/.bashrc, changed since then and left as is" in said
    assert (home / ".bashrc").read_bytes() == mine
    assert not (home / ".inputrc").exists() and not (home / ".local/share/dotdbg").exists()
