"""The shell target registry: render, check, plan and uninstall name no shell, so a target
registered here is rendered, checked once per text, installed and removed like bash."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg import shells
from dotdbg.config import load_config
from dotdbg.config.model import Config
from dotdbg.home.install import install, render_for, uninstall
from dotdbg.paths import Paths
from dotdbg.shells.bash import BASH
from dotdbg.shells.posix import shquote
from dotdbg.shells.target import ShellTarget

checked: list[str] = []


def _toy_check(text: str, config: Config) -> None:
    checked.append(text)


TOY = ShellTarget(
    name="toysh",
    template="dotdbg.bash.j2",
    generated="dotdbg.toy",
    rc_file=lambda paths: paths.home / ".toyrc",
    load_block=lambda generated, home: f"source {generated}\n",
    quote_filter="shquote",
    filters={"shquote": shquote},
    check=_toy_check,
    checker_key=lambda: "toy 1.0",
)


@pytest.fixture
def with_toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(shells, "_registry", {"bash": BASH})
    shells.register(TOY)
    checked.clear()
    yield


def test_bash_zsh_and_fish_are_the_registered_shells() -> None:
    assert [target.name for target in shells.registered()] == ["bash", "zsh", "fish"]
    assert BASH.generated_path(Paths.from_env(Path("/h"))) == Path(
        "/h/.local/share/dotdbg/dotdbg.bash"
    )


def test_render_makes_a_file_for_each_shell(tmp_path: Path, with_toy: None) -> None:
    paths = Paths.from_env(tmp_path)
    rendered = render_for(paths, load_config(paths), ("bash", "toysh"))
    assert list(rendered.files) == ["dotdbg.bash", "dotdbg.toy", "inputrc", "pdbrc"]
    assert rendered.shells == ("bash", "toysh")


def test_a_registered_shell_is_installed_checked_once_and_removed(
    tmp_path: Path, with_toy: None
) -> None:
    paths = Paths.from_env(tmp_path)
    (tmp_path / ".toyrc").write_text("# mine\n")
    install(paths, shells=("bash", "toysh"))
    toy_file = paths.data_dir / "dotdbg.toy"
    assert toy_file.is_file()
    assert f"source {toy_file}" in (tmp_path / ".toyrc").read_text()
    assert len(checked) == 1  # before the lock, not again under it

    assert install(paths, dry_run=True).plan.pending == ()
    assert len(checked) == 1  # status: that text passed before

    uninstall(paths)
    assert (tmp_path / ".toyrc").read_text() == "# mine\n"
    assert not toy_file.exists()
