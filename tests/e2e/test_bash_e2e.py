from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.config import load_config
from dotdbg.home import blocks
from dotdbg.home.install import install
from dotdbg.paths import Paths
from tests.homeshell import run_in_home
from tests.infra.tmux import Tmux

pytestmark = pytest.mark.e2e


def showing(text: str) -> Callable[[str], bool]:
    """A wait_for condition: the screen holds ``text``."""
    return lambda screen: text in screen


def test_type_shows_the_alias(shell: Tmux) -> None:
    assert "pyt is aliased to `pytest --disable-warnings -rA'" in shell.run("type pyt")


def test_l_lists_a_directory(shell: Tmux, tmp_path: Path) -> None:
    listed = tmp_path / "listed"
    listed.mkdir()
    (listed / "alpha.txt").write_text("a")
    (listed / "beta").mkdir()
    output = shell.run(f"l {listed}")
    assert "alpha.txt" in output
    assert "beta/" in output  # -F marks directories


def test_up_arrow_searches_history_by_prefix(shell: Tmux) -> None:
    for command, shown in (("echo hi", "\nhi\n"), ("true; : done", "\n$ true; : done\n")):
        shell.type(command)
        shell.keys("Enter")
        shell.wait_for(showing(shown), repr(shown))
    shell.keys("C-u")
    shell.type("ec")
    shell.keys("Up")
    shell.wait_for(lambda s: s.rstrip().endswith("$ echo hi"), "the recalled line")


def test_each_command_reaches_the_history_file_at_once(shell: Tmux, installed_home: Path) -> None:
    shell.run("echo flushed-now")
    history = installed_home / ".bash_history"
    assert "echo flushed-now" in history.read_text()


def test_history_drops_repeats_in_a_row_and_lines_with_a_leading_space(
    shell: Tmux, installed_home: Path
) -> None:
    # README: a command repeated right after itself is kept once; a repeat later on is kept,
    # so the history stays the order things ran in (ignoredups, the methodology's setting).
    typed = ["echo one", "echo one", " echo secret", "echo two", "echo one", "echo end"]
    for command in typed:
        shell.type(command)
        shell.keys("Enter")
    shell.wait_for(lambda screen: "\nend\n$" in screen, "the prompt")  # history -a has run
    history = installed_home / ".bash_history"
    kept = history.read_text().splitlines()
    assert kept[-4:] == ["echo one", "echo two", "echo one", "echo end"]
    assert kept.count("echo one") == 2
    assert "secret" not in history.read_text()


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


def test_tab_completes_dotdbg_subcommands(shell: Tmux) -> None:
    shell.keys("C-u")
    shell.type("dotdbg unins")
    shell.keys("Tab")
    shell.wait_for(lambda s: s.rstrip().endswith("$ dotdbg uninstall"), "the completion")


def test_tab_completes_sheet_names_after_dotdbg_cheat(shell: Tmux) -> None:
    shell.keys("C-u")
    shell.type("dotdbg cheat nvidia-s")
    shell.keys("Tab")
    shell.wait_for(lambda s: s.rstrip().endswith("$ dotdbg cheat nvidia-smi"), "the name")


def test_starting_a_shell_runs_no_program(installed_home: Path) -> None:
    """No Python (or anything else) at start-up: bash is the only program strace sees."""
    strace = shutil.which("strace")
    if strace is None:
        pytest.skip("strace is not installed")
    (installed_home / ".bashrc").write_text(  # only dotdbg's block, not skel's lesspipe/dircolors
        blocks.block_text((installed_home / ".bashrc").read_text()) or ""
    )
    trace = [strace, "-f", "-qq", "-e", "trace=execve", "-e", "signal=none"]
    result = run_in_home([*trace, "bash", "-i", "-c", "exit"], installed_home, term="xterm")
    execs = [line for line in result.stderr.splitlines() if "execve(" in line]
    assert len(execs) == 1 and '"bash"' in execs[0], result.stderr
    sourced = run_in_home(["bash", "-i", "-c", "type -t pyt"], installed_home, term="xterm")
    assert sourced.stdout == "alias\n"  # the block did load everything


def test_the_block_does_nothing_when_the_generated_file_is_gone(installed_home: Path) -> None:
    (installed_home / ".local/share/dotdbg/dotdbg.bash").unlink()
    result = run_in_home(["bash", "-i", "-c", "echo started"], installed_home)
    assert result.returncode == 0 and result.stdout == "started\n"
    assert "dotdbg" not in result.stderr


def readline_dump(home: Path) -> str:
    """`bind -v` and `bind -p` of a real interactive bash started in ``home``."""
    return run_in_home(["bash", "-i", "-c", "bind -v; bind -p"], home, "xterm-256color").stdout


def test_readline_reads_the_settings_and_keeps_the_system_bindings(installed_home: Path) -> None:
    dump = readline_dump(installed_home)
    assert "set enable-bracketed-paste off\n" in dump
    assert '"\\M-[A": history-search-backward\n' in dump
    assert '"\\M-[B": history-search-forward\n' in dump
    system = Path("/etc/inputrc")
    if system.exists() and '"\\e[5C": forward-word' in system.read_text():
        # Debian's, no bash default: there because ~/.inputrc includes the system file
        assert '"\\M-[5C": forward-word\n' in dump


def test_esc_p_n_and_own_bindings_switch_on(tmp_path: Path) -> None:
    home = tmp_path / "home"
    paths = Paths.from_env(home)
    config = (
        "[readline]\nesc_p_n = true\nbracketed_paste = true\n"
        'bindings = { "\\\\C-xk" = "kill-whole-line" }\n'
    )
    install(paths, load_config(paths, user_text=config))
    dump = readline_dump(home)
    assert '"\\M-p": history-search-backward\n' in dump  # bind -p spells Esc-p \M-p
    assert '"\\M-n": history-search-forward\n' in dump
    assert '"\\C-xk": kill-whole-line\n' in dump
    assert "set enable-bracketed-paste on\n" in dump


def test_esc_p_recalls_by_prefix_in_a_real_terminal(tmp_path: Path) -> None:
    home = tmp_path / "home"
    paths = Paths.from_env(home)
    install(paths, load_config(paths, user_text="[readline]\nesc_p_n = true\n"))
    shell = Tmux.bash(home)
    try:
        for command, shown in (("echo hi", "\nhi\n"), ("true; : done", "\n$ true; : done\n")):
            shell.type(command)
            shell.keys("Enter")
            shell.wait_for(showing(shown), repr(shown))
        shell.keys("C-u")
        shell.type("ec")
        shell.keys("Escape", "p")
        shell.wait_for(lambda s: s.rstrip().endswith("$ echo hi"), "the recalled line")
    finally:
        shell.close()


def test_a_start_reads_the_completion_and_picker_functions_when_first_used(
    installed_home: Path,
) -> None:
    """Issue 27: they are the generated file's tail, read on the first TAB or key, with alias
    expansion off as the rest was (an alias of the user's, here of mapfile, stays out of
    them), and the shell's own alias setting is left as it was."""
    script = (
        'type -t __dotdbg_complete_words || echo "not read yet"; '
        "alias mapfile=false; COMP_WORDS=(dotdbg statu); COMP_CWORD=1; _dotdbg_complete; "
        'echo "offered: ${COMPREPLY[*]}"; type -t __dotdbg_complete_words; '
        'shopt expand_aliases; echo "left:${__dotdbg_expand_aliases-unset}"'
    )
    result = run_in_home(["bash", "-i", "-c", script], installed_home)
    assert result.stdout.split("\n") == [
        "not read yet",
        "offered: status",
        "function",
        "expand_aliases \ton",
        "left:unset",
        "",
    ], result.stderr


def test_a_one_shot_bash_binds_no_key_a_prompt_does(shell: Tmux, installed_home: Path) -> None:
    """`bash -i -c CMD` edits no line: the bind would only load readline (issue 27)."""
    one_shot = run_in_home(["bash", "-i", "-c", "bind -X"], installed_home)
    assert "__dotdbg_cheat_widget" not in one_shot.stdout
    assert '"\\C-g": "__dotdbg_cheat_widget"' in shell.run("bind -X")


def test_helpers_of_a_file_removed_since_the_start_say_so_once(installed_home: Path) -> None:
    script = (
        'rm "$HOME/.local/share/dotdbg/dotdbg.bash"; COMP_WORDS=(dotdbg); COMP_CWORD=1; '
        "_dotdbg_complete; _dotdbg_complete; __dotdbg_present; echo rc=$?"
    )
    result = run_in_home(["bash", "-i", "-c", script], installed_home)
    assert result.stdout == "rc=1\n"
    said = [line for line in result.stderr.splitlines() if "dotdbg" in line]
    assert said == [f"dotdbg: {installed_home}/.local/share/dotdbg/dotdbg.bash is gone"]
