from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from dotdbg import blocks
from tests.e2e.conftest import TmuxShell

pytestmark = pytest.mark.e2e


def test_type_shows_the_alias(shell: TmuxShell) -> None:
    assert "pyt is aliased to `pytest --disable-warnings -rA'" in shell.run("type pyt")


def test_l_lists_a_directory(shell: TmuxShell, tmp_path: Path) -> None:
    listed = tmp_path / "listed"
    listed.mkdir()
    (listed / "alpha.txt").write_text("a")
    (listed / "beta").mkdir()
    output = shell.run(f"l {listed}")
    assert "alpha.txt" in output
    assert "beta/" in output  # -F marks directories


def test_up_arrow_searches_history_by_prefix(shell: TmuxShell) -> None:
    for command, shown in (("echo hi", "\nhi\n"), ("true; : done", "\n$ true; : done\n")):
        shell.type(command)
        shell.send("Enter")
        shell.wait_for(lambda s, shown=shown: shown in s)
    shell.send("C-u")
    shell.type("ec")
    shell.send("Up")
    shell.wait_for(lambda s: s.rstrip().endswith("$ echo hi"))


def test_each_command_reaches_the_history_file_at_once(
    shell: TmuxShell, installed_home: Path
) -> None:
    shell.run("echo flushed-now")
    history = installed_home / ".bash_history"
    assert "echo flushed-now" in history.read_text()


def test_non_interactive_shells_get_nothing(installed_home: Path) -> None:
    result = subprocess.run(
        [
            "env",
            "-i",
            f"HOME={installed_home}",
            "PATH=/usr/bin:/bin",
            "bash",
            "-c",
            ". ~/.bashrc; alias; type l",
        ],
        capture_output=True,
        text=True,
    )
    assert result.stdout == ""
    assert "not found" in result.stderr


def test_tab_completes_dotdbg_subcommands(shell: TmuxShell) -> None:
    shell.send("C-u")
    shell.type("dotdbg unins")
    shell.send("Tab")
    shell.wait_for(lambda s: s.rstrip().endswith("$ dotdbg uninstall"))


def test_tab_completes_sheet_names_after_dotdbg_cheat(shell: TmuxShell) -> None:
    shell.send("C-u")
    shell.type("dotdbg cheat nvidia-s")
    shell.send("Tab")
    shell.wait_for(lambda s: s.rstrip().endswith("$ dotdbg cheat nvidia-smi"))


def test_starting_a_shell_runs_no_program(installed_home: Path) -> None:
    """No Python (or anything else) at start-up: bash is the only program strace sees."""
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed")
    (installed_home / ".bashrc").write_text(  # only dotdbg's block, not skel's lesspipe/dircolors
        blocks.block_text((installed_home / ".bashrc").read_text()) or ""
    )
    result = subprocess.run(
        [
            strace,
            "-f",
            "-qq",
            "-e",
            "trace=execve",
            "-e",
            "signal=none",
            "bash",
            "-i",
            "-c",
            "exit",
        ],
        env={"HOME": str(installed_home), "PATH": "/usr/bin:/bin", "TERM": "xterm"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    execs = [line for line in result.stderr.splitlines() if "execve(" in line]
    assert len(execs) == 1 and '"bash"' in execs[0], result.stderr
    sourced = subprocess.run(
        ["bash", "-i", "-c", "type -t pyt"],
        env={"HOME": str(installed_home), "PATH": "/usr/bin:/bin", "TERM": "xterm"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert sourced.stdout == "alias\n"  # the block did load everything


def test_the_block_does_nothing_when_the_generated_file_is_gone(installed_home: Path) -> None:
    (installed_home / ".local/share/dotdbg/dotdbg.bash").unlink()
    result = subprocess.run(
        ["bash", "-i", "-c", "echo started"],
        env={"HOME": str(installed_home), "PATH": "/usr/bin:/bin", "TERM": "dumb"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0 and result.stdout == "started\n"
    assert "dotdbg" not in result.stderr
