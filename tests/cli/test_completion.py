"""TAB completion of every command, answered by ``dotdbg --complete`` from the registry, in
real bash and fish with the generated files: each command's options, the words of a choice,
directories or files after an option that takes a path. zsh's is driven in tmux
(tests/shells/test_shells_e2e.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dotdbg.cheat.options import OPTIONS as CHEAT_OPTIONS
from dotdbg.cli.parser import Group
from dotdbg.cli.registry import COMMANDS, HELPERS, command
from tests.clirun import run_cli

BIN = str(Path(sys.executable).parent)


def expected() -> dict[str, list[str]]:
    """What TAB offers after `--` for each command, straight from its definition."""
    found: dict[str, list[str]] = {}
    for name in COMMANDS:
        definition = command(name)
        commands = definition.commands if isinstance(definition, Group) else {"": definition}
        for sub, each in commands.items():
            longs = [n for o in each.options if not o.hidden for n in o.names if n[:2] == "--"]
            found[f"{name} {sub}".strip()] = [*longs, "--help"]
    cheat = [name for names, _, _ in CHEAT_OPTIONS for name in names if name[:2] == "--"]
    found["cheat"] = [*cheat, "--help"]
    return found


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated files of an install for bash and fish, in out/; a work/ beside it."""
    home = tmp_path_factory.mktemp("completion-home")
    shells = "bash,fish" if shutil.which("fish") else "bash"
    done = run_cli("dotdbg", "install", "--home", str(home), "--shell", shells)
    assert done.returncode == 0, done.stderr
    out = home / "out"
    out.mkdir()
    shutil.copy(home / ".local/share/dotdbg/dotdbg.bash", out)
    if shutil.which("fish"):
        shutil.copy(home / ".config/fish/conf.d/dotdbg.fish", out)
    work = home / "work"
    (work / "a-dir").mkdir(parents=True)
    (work / "a-file").write_text("x")
    return out


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "HOME": str(home), "PATH": f"{BIN}:{os.environ['PATH']}"}


BASH_PROBE = r"""
source "$1"
shift
for line; do
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *' ' ]] && COMP_WORDS+=('')
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    spec=$(complete -p "${COMP_WORDS[0]}") || { echo 'not completed'; continue; }
    spec=${spec##*-F }
    "${spec%% *}"
    ((${#COMPREPLY[@]})) && printf '%s\t' "${COMPREPLY[@]}"
    echo
done
"""


def bash_completes(script: Path, lines: list[str]) -> dict[str, list[str]]:
    """Each line as typed (a trailing space: a new word), what TAB offers for its last word."""
    interactive = script.with_name("interactive.bash")
    interactive.write_text(script.read_text().replace("[[ $- == *i* ]]", "true"))
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_PROBE, "probe", str(interactive), *lines],
        cwd=script.parent.parent / "work", env=environment(script.parent.parent),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = done.stdout.splitlines()
    return {line: row.split("\t")[:-1] for line, row in zip(lines, rows, strict=True)}


def test_bash_offers_every_commands_options(rendered: Path) -> None:
    wanted = expected()
    lines = [f"dotdbg {name} --" for name in wanted] + [f"{helper} --" for helper in HELPERS]
    found = bash_completes(rendered / "dotdbg.bash", lines)
    for name, options in wanted.items():
        assert found[f"dotdbg {name} --"] == options, name
    for helper in HELPERS:
        assert found[f"{helper} --"] == wanted[helper], helper


def test_bash_completes_paths_and_choices_after_the_options_that_take_them(rendered: Path) -> None:
    found = bash_completes(
        rendered / "dotdbg.bash",
        ["dotdbg render -o a", "dotdbg install --home ", "dotdbg gdb --core a",
         "dotdbg gdb --via p", "watch-python -s c", "dotdbg mem-fill --hold ", "dotdbg fn ",
         "dotdbg uninst", "dotdbg cheat --co", "dotdbg memlimit 1G -- a", "dotdbg "],
    )  # fmt: skip
    assert found["dotdbg render -o a"] == ["a-dir"]  # directories only
    assert found["dotdbg install --home "] == ["a-dir"]
    assert found["dotdbg gdb --core a"] == ["a-dir", "a-file"]
    assert found["dotdbg gdb --via p"] == ["pystack"]
    assert found["watch-python -s c"] == ["cpu"]
    assert found["dotdbg mem-fill --hold "] == []  # SECONDS: nothing to offer
    assert found["dotdbg fn "] == ["add", "on", "rm"]
    assert found["dotdbg uninst"] == ["uninstall"]
    assert found["dotdbg cheat --co"] == ["--commands", "--copy", "--color", "--comment"]
    assert found["dotdbg memlimit 1G -- a"] == ["a-dir", "a-file"]
    assert found["dotdbg "] == sorted(COMMANDS)


FISH_PROBE = """
source $argv[1]
for line in $argv[2..-1]
    echo (complete -C $line | string replace -r '\\t.*' '' | string join ' ')
end
"""


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_fish_offers_every_commands_options_and_paths(rendered: Path) -> None:
    script = rendered / "interactive.fish"
    text = (rendered / "dotdbg.fish").read_text()
    script.write_text(text.replace("status is-interactive; or exit 0", "", 1))
    wanted = expected()
    lines = [f"dotdbg {name} --" for name in wanted]
    lines += ["dotdbg render -o a", "dotdbg gdb --core a", "dotdbg gdb --via p", "memlimit --b"]
    done = subprocess.run(
        ["fish", "--no-config", "-c", FISH_PROBE, str(script), *lines],
        cwd=rendered.parent / "work", env=environment(rendered.parent),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = (row.split() for row in done.stdout.splitlines())
    found = dict(zip(lines, rows, strict=True))
    for name, options in wanted.items():
        assert sorted(found[f"dotdbg {name} --"]) == sorted(options), name
    assert found["dotdbg render -o a"] == ["a-dir/"]
    assert found["dotdbg gdb --core a"] == ["a-dir/", "a-file"]
    assert found["dotdbg gdb --via p"] == ["pystack"]
    assert found["memlimit --b"] == ["--backend"]


def test_the_cheat_alias_offers_cheats_options(rendered: Path) -> None:
    """`ch --<TAB>`: the widget's own list (it works in a dotdbg ssh session too), the same."""
    found = bash_completes(rendered / "dotdbg.bash", ["ch --"])
    assert found["ch --"] == expected()["cheat"]


def test_complete_answers_without_importing_the_domain() -> None:
    """A TAB starts a Python: it imports the definitions, never what the commands do."""
    probe = (
        "import sys; from dotdbg.cli.completion import complete;"
        "[complete(['dotdbg', name, '--']) for name in sys.argv[1:]];"
        "print(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *COMMANDS], capture_output=True, text=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert "dotdbg.cli.commands.home" in loaded
    heavy = {"jinja2", "rich", "tomlkit", "psutil", "argparse", "dotdbg.config", "dotdbg.install"}
    assert not loaded & heavy
