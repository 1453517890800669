"""In a real interactive bash where dotdbg is installed: edits reach the running shell through
the printed line, and `dotdbg expand` agrees with the aliases that shell really has."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.aliases.expand import expand
from dotdbg.config import load_config
from dotdbg.paths import Paths
from tests.alias.realbash import bash_parses
from tests.infra.tmux import Tmux

pytestmark = pytest.mark.e2e


def test_added_alias_works_in_the_running_shell_after_the_printed_line(shell: Tmux) -> None:
    shell.run("eval \"$(dotdbg alias add hi 'echo hello-from-hi')\"")
    assert shell.run("hi there") == "hello-from-hi there"
    shell.run('eval "$(dotdbg alias rm hi)"')
    assert "not found" in shell.run("type hi")


def test_added_function_works_and_rm_unsets_it(shell: Tmux) -> None:
    shell.run("""eval "$(dotdbg fn add greet 'echo "hi $1"')" """)
    assert shell.run("greet bob") == "hi bob"
    shell.run('eval "$(dotdbg fn rm greet)"')
    assert "not found" in shell.run("type greet")


def test_a_default_alias_switched_off_leaves_the_shell(shell: Tmux) -> None:
    assert "aliased" in shell.run("type gs")
    shell.run('eval "$(dotdbg alias rm gs)"')
    assert "not found" in shell.run("type gs")


def test_a_function_can_take_the_name_of_an_alias_the_shell_still_has(shell: Tmux) -> None:
    # The user removed alias gd but did not run the `unalias gd` it printed.
    shell.run("dotdbg alias rm gd >/dev/null 2>&1")
    assert "aliased" in shell.run("type gd")
    shell.run("eval \"$(dotdbg fn add gd 'echo fn-gd')\"")
    assert shell.run("gd") == "fn-gd"


def test_expand_agrees_with_the_installed_aliases_of_a_real_bash(installed_home: Path) -> None:
    home = installed_home
    config = load_config(Paths.from_env(home))
    aliases = {alias.name: alias.command for alias in config.aliases}
    installed = home / ".local/share/dotdbg/dotdbg.bash"
    for name in aliases:
        line = f"{name} arg --flag"
        expanded = subprocess.run(
            [Path(sys.executable).parent / "dotdbg", "expand", line, "--home", str(home)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "HOME": str(home)},
        ).stdout
        assert expanded == expand(line, aliases).text + "\n"
        real = bash_parses(line, {}, setup=f"source {installed}\n", home=home)
        assert real and bash_parses(expanded, {}) == real, name
