"""The home filesystem seam: plan and apply reach the home only through ``Paths.fs``.

``Rooted`` puts a home that does not exist on this machine (/dotdbg-test-home) inside a
temporary directory: a single read or write that went around the seam would hit the missing
path and fail, so each command run here proves it goes through the seam.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.home import edit
from dotdbg.home.homefs import FileInfo, LocalFS
from dotdbg.home.install import install, restore, uninstall
from dotdbg.home.state import read_state
from dotdbg.paths import Paths

VIRTUAL = Path("/dotdbg-test-home")


class Rooted(LocalFS):
    """This machine's filesystem with ``VIRTUAL`` moved under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.calls: list[str] = []

    def real(self, path: Path) -> Path:
        assert path.is_relative_to(VIRTUAL), f"{path} is outside the home"
        return self.root / path.relative_to(VIRTUAL)

    def virtual(self, path: Path) -> Path:
        return VIRTUAL / path.relative_to(self.root)

    def read_bytes(self, path: Path, *, follow: bool = True) -> bytes | None:
        self.calls.append("read")
        return super().read_bytes(self.real(path), follow=follow)

    def stat(self, path: Path) -> FileInfo | None:
        return super().stat(self.real(path)) if path.is_relative_to(VIRTUAL) else None

    def lstat(self, path: Path) -> FileInfo | None:
        return super().lstat(self.real(path)) if path.is_relative_to(VIRTUAL) else None

    def realpath(self, path: Path) -> Path:
        return self.virtual(super().realpath(self.real(path)))

    def listdir(self, path: Path) -> list[str]:
        return super().listdir(self.real(path))

    def write_atomic(
        self, path: Path, data: bytes, mode: int | None = None, *, follow: bool = True
    ) -> None:
        self.calls.append("write")
        super().write_atomic(self.real(path), data, mode, follow=follow)

    def write_new(self, path: Path, data: bytes) -> None:
        super().write_new(self.real(path), data)

    def rename(self, source: Path, target: Path) -> None:
        super().rename(self.real(source), self.real(target))

    def chmod(self, path: Path, mode: int) -> None:
        super().chmod(self.real(path), mode)

    def mkdir(self, path: Path, mode: int | None = None, *, exist_ok: bool = False) -> None:
        super().mkdir(self.real(path), mode, exist_ok=exist_ok)

    def remove(self, path: Path) -> None:
        super().remove(self.real(path))

    def rmdir(self, path: Path) -> None:
        super().rmdir(self.real(path))

    def remove_tree(self, path: Path) -> None:
        super().remove_tree(self.real(path))

    def lock(self, path: Path) -> AbstractContextManager[None]:
        self.calls.append("lock")
        return super().lock(self.real(path))

    def can_write(self, directory: Path) -> bool:
        return super().can_write(self.real(directory))


@pytest.fixture
def rooted(tmp_path: Path) -> Iterator[tuple[Paths, Rooted]]:
    assert not VIRTUAL.exists()
    fs = Rooted(tmp_path)
    (tmp_path / ".bashrc").write_text("export A=1\n")
    yield Paths.from_env(VIRTUAL).on(fs), fs
    assert not VIRTUAL.exists()


def test_install_alias_edit_uninstall_and_restore_go_through_the_seam(
    rooted: tuple[Paths, Rooted], tmp_path: Path
) -> None:
    paths, fs = rooted
    install(paths, load_config(paths, user_text=None))
    assert "dotdbg.bash" in (tmp_path / ".bashrc").read_text()
    assert (tmp_path / ".local/share/dotdbg/dotdbg.bash").is_file()
    assert install(paths, dry_run=True).plan.pending == ()  # status: current

    edit.add(paths, "aliases", "gs2", "git status")
    assert "gs2 = " in (tmp_path / ".config/dotdbg/config.toml").read_text()
    assert "alias gs2=" in (tmp_path / ".local/share/dotdbg/dotdbg.bash").read_text()

    uninstall(paths)
    assert (tmp_path / ".bashrc").read_text() == "export A=1\n"
    restore(paths)
    assert "dotdbg.bash" in (tmp_path / ".bashrc").read_text()
    assert {"read", "write", "lock"} <= set(fs.calls)


def test_the_disk_state_is_read_through_the_seam(rooted: tuple[Paths, Rooted]) -> None:
    paths, _ = rooted
    state = read_state(paths)
    assert state.text(paths.bashrc) == "export A=1\n"
    assert state.text(paths.inputrc) is None
    assert not state.system_inputrc  # that machine has no /etc/inputrc, whatever this one has


def test_local_paths_use_the_local_filesystem() -> None:
    assert isinstance(Paths.from_env(Path("/tmp")).fs, LocalFS)
    assert Paths.from_env(Path("/tmp")) == Paths.from_env(Path("/tmp")).on(LocalFS())
