"""Switching entries and packs back on, explaining what is off, and the pack and name checks
of `alias add` / `fn add` (issue 10.3, 10.4)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.config.names import FUNCTION
from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.clirun import run_cli


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / ".bashrc").write_text("")
    paths = Paths.from_env(tmp_path)
    install(paths, load_config(paths))
    return tmp_path


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("dotdbg", *args, "--home", str(home))


def config_text(home: Path) -> str:
    return (home / ".config/dotdbg/config.toml").read_text()


def test_aliases_describes_the_cheat_alias(home: Path) -> None:
    done = run(home, "aliases", "ch")
    assert done.returncode == 0, done.stdout
    assert done.stdout.splitlines() == [
        "ch is an alias (pack cheat): look up a cheatsheet ([cheat] alias)",
        "  ch → dotdbg cheat",
    ]


def test_a_removed_default_is_explained_and_switched_back_on(home: Path) -> None:
    assert run(home, "alias", "rm", "gs").returncode == 0
    explained = run(home, "aliases", "gs")
    assert explained.returncode == 1
    assert explained.stdout.splitlines() == [
        "gs is an alias (pack git) that is switched off: `gs = false` in your config",
        "  gs → git status",
        "  switch it back on: `dotdbg alias on gs`",
    ]
    done = run(home, "alias", "on", "gs")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"source {home}/.local/share/dotdbg/dotdbg.bash\n"
    assert "gs" not in config_text(home)
    assert "alias gs='git status'" in (home / ".local/share/dotdbg/dotdbg.bash").read_text()
    assert run(home, "aliases", "gs").returncode == 0


def test_a_removed_default_function_is_switched_back_on(home: Path) -> None:
    assert run(home, "fn", "rm", "l").returncode == 0
    assert "switch it back on: `dotdbg fn on l`" in run(home, "aliases", "l").stdout
    assert run(home, "fn", "on", "l").returncode == 0
    assert "\nl() {" in (home / ".local/share/dotdbg/dotdbg.bash").read_text()


def test_a_pack_is_switched_off_and_on(home: Path) -> None:
    assert run(home, "pack", "off", "git").returncode == 0
    assert config_text(home) == "[packs]\ngit = false\n"
    explained = run(home, "aliases", "gs")
    assert explained.returncode == 1
    assert "switch it back on: `dotdbg pack on git`" in explained.stdout
    refused = run(home, "alias", "on", "gs")
    assert (refused.returncode, refused.stderr.splitlines()) == (
        2,
        [
            "dotdbg: error: gs is in pack git, which is switched off",
            "hint: `dotdbg pack on git` switches the pack on",
        ],
    )
    assert run(home, "pack", "on", "git").returncode == 0
    assert "[packs]" in config_text(home) and "git" not in config_text(home)
    assert "alias gs=" in (home / ".local/share/dotdbg/dotdbg.bash").read_text()


def test_switching_on_what_is_on_or_unknown_is_one_clear_error(home: Path) -> None:
    on = run(home, "alias", "on", "gs")
    assert (on.returncode, on.stderr.splitlines()[0]) == (
        2,
        "dotdbg: error: alias gs is on already",
    )
    unknown = run(home, "pack", "on", "gitt")
    assert unknown.returncode == 2
    assert unknown.stderr.splitlines()[0] == (
        "dotdbg: error: there is no pack 'gitt': did you mean 'git'?"
    )


def test_fn_add_with_a_bad_name_gets_the_function_hint(home: Path) -> None:
    done = run(home, "fn", "add", "1bad", "echo x")
    assert (done.returncode, done.stderr.splitlines()) == (
        2,
        ["dotdbg: error: '1bad' is not a valid function name", f"hint: {FUNCTION.hint}"],
    )


def test_a_pack_close_to_a_known_one_is_a_typo_a_new_one_is_fine(home: Path) -> None:
    typo = run(home, "alias", "add", "x", "ls", "--pack", "gti")
    assert (typo.returncode, typo.stderr.splitlines()) == (
        2,
        [
            "dotdbg: error: there is no pack 'gti': did you mean 'git'?",
            "hint: add --new-pack to start a new pack named gti",
        ],
    )
    assert not (home / ".config/dotdbg/config.toml").exists()
    assert run(home, "alias", "add", "x", "ls", "--pack", "mytools").returncode == 0
    assert run(home, "alias", "add", "y", "ls", "--pack", "gti", "--new-pack").returncode == 0
    assert 'pack = "gti"' in config_text(home)
