"""The shell target registry: render, check, plan, uninstall, the reload line and the functions
a shell goes without name no shell, so a target registered here (a toy fourth shell, in this
one file) is rendered, checked once per text, installed and removed byte-exactly like bash."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg import shells
from dotdbg.config import load_config
from dotdbg.config.model import Config, Function
from dotdbg.home.edit import reload_line
from dotdbg.home.install import install, purge, render_for, uninstall
from dotdbg.paths import Paths
from dotdbg.shells import session
from dotdbg.shells.bash import BASH
from dotdbg.shells.posix import shquote
from dotdbg.shells.target import ShellTarget
from dotdbg.shells.zshfish import left_out
from tests.test_install import snapshot

checked: list[str] = []


def _toy_check(text: str, config: Config) -> None:
    checked.append(text)


def _toy_refuses(function: Function) -> str:
    return "toysh reserves names that start with l" if function.name.startswith("l") else ""


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
    source_command=".",
    forget_alias="unalias -t",
    forget_function="unfunc",
    runs_bash_bodies=False,
    refuses=_toy_refuses,
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
    (tmp_path / ".bashrc").write_bytes(b"# bash's own\r\nexport A=1")
    before = snapshot(tmp_path)
    install(paths, shells=("bash", "toysh"))
    toy_file = paths.data_dir / "dotdbg.toy"
    assert toy_file.is_file()
    assert f"source {toy_file}" in (tmp_path / ".toyrc").read_text()
    assert len(checked) == 1  # before the lock, not again under it

    assert install(paths, dry_run=True).plan.pending == ()
    assert len(checked) == 1  # status: that text passed before

    uninstall(paths)
    purge(paths)
    assert (tmp_path / ".toyrc").read_text() == "# mine\n"
    assert not toy_file.exists()
    backups = str(paths.backups_dir.relative_to(tmp_path))
    left = {name: kept for name, kept in snapshot(tmp_path).items() if backups not in name}
    assert left == before


def test_a_registered_shell_brings_its_reload_line_and_the_functions_it_goes_without(
    tmp_path: Path, with_toy: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = Paths.from_env(tmp_path)
    install(paths, shells=("bash", "toysh"))
    monkeypatch.setenv("SHELL", "/usr/local/bin/toysh")
    assert reload_line(paths, "aliases", "gs", removed=True) == "unalias -t gs"
    assert reload_line(paths, "functions", "mkcd", removed=True) == "unfunc mkcd"
    assert reload_line(paths, "aliases", "gs", removed=False) == (
        f". {paths.data_dir / 'dotdbg.toy'}"
    )
    config = load_config(paths)
    why = {item.name: item.why for item in left_out(config, TOY)}
    assert set(why) == {function.name for function in config.functions}  # no bash bodies
    assert {why[name] for name in why if name.startswith("l")} == {
        "toysh reserves names that start with l"
    }
    assert why["wrap"] == "it has no body for toysh (add toysh = '…' under [functions.wrap])"
    assert left_out(config, BASH) == []


def test_each_shell_a_session_starts_is_its_targets() -> None:
    sessions = [target.session for target in shells.registered() if target.session is not None]
    assert sessions == list(session.SHELLS)
    assert [s.name for s in sessions] == [t.name for t in shells.registered()]
    assert [s.rendered for s in sessions] == [t.generated for t in shells.registered()]


def test_a_session_starts_without_the_targets_imports() -> None:
    # dotdbg ssh imports the session's shells at every start: no typing, dataclasses, pathlib
    heavy = "{'typing', 'dataclasses', 'pathlib', 'dotdbg.shells.target'}"
    code = f"import sys, dotdbg.remote.bootstrap\nprint(sorted({heavy} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stderr
