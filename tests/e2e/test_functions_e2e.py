"""dotdbg's functions (l, df, wrap, git-replace…) run in a real interactive bash in tmux."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.install import install
from dotdbg.paths import Paths
from tests.e2e.conftest import TmuxShell

pytestmark = pytest.mark.e2e

# What a user's ~/.bashrc may hold before the dotdbg block.
USER_ALIASES = "alias ls='ls -F'\nalias grep='grep --color=always'\n"
USER_CONFIG = """
[aliases]
hello = "echo hello-from-an-alias"
[functions]
greet = 'hello; echo greeted'
"""


@pytest.fixture
def aliased_shell(tmp_path: Path) -> Iterator[TmuxShell]:
    """A shell whose ~/.bashrc defines aliases of its own before dotdbg's block."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text(USER_ALIASES)
    paths = Paths.from_env(home)
    install(paths, load_config(paths, user_text=USER_CONFIG))
    session = TmuxShell(home)
    yield session
    session.close()


def test_the_users_aliases_stay_out_of_dotdbgs_functions(aliased_shell: TmuxShell) -> None:
    shown = aliased_shell.run("type l df")
    assert "ls -lNhF --color=always" in shown
    assert "ls -F" not in shown
    assert 'grep -v "^/dev/loop"' in shown
    assert "--color=always -v" not in shown


def test_aliases_work_at_the_prompt_after_the_functions(aliased_shell: TmuxShell) -> None:
    assert aliased_shell.run("hello") == "hello-from-an-alias"
    assert "ls is aliased to `ls -F'" in aliased_shell.run("type ls")


def test_functions_from_the_config_can_use_aliases(aliased_shell: TmuxShell) -> None:
    assert aliased_shell.run("greet") == "hello-from-an-alias\ngreeted"


@pytest.mark.parametrize("state", ["on", "off"])
def test_alias_expansion_is_left_as_it_was(installed_home: Path, state: str) -> None:
    generated = installed_home / ".local/share/dotdbg/dotdbg.bash"
    flag = "-s" if state == "on" else "-u"
    result = subprocess.run(
        [
            "bash",
            "--norc",
            "--noprofile",
            "-i",
            "-c",
            f'shopt {flag} expand_aliases; . "{generated}"; shopt expand_aliases; '
            'echo "left:${__dotdbg_expand_aliases-unset}"',
        ],
        env={"HOME": str(installed_home), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert result.stdout.split() == ["expand_aliases", state, "left:unset"]
