"""Ctrl-G in the shell `dotdbg install` set up: a built-in sheet's command lands on the prompt.

tests/cheat/test_cheat_widget.py drives the widget template on its own; these go through the
whole generated dotdbg.bash and ~/.inputrc, with the sheets dotdbg ships.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from dotdbg.cheat.fast import builtin_dir
from tests.e2e.conftest import install_home
from tests.infra.tmux import Tmux

pytestmark = pytest.mark.e2e
# `dotdbg cheat --pick` (or --menu) starts, reads the sheets and answers in 0.2-0.35 s (n=5, load
# 5 on 2 cores); fzf and the shell around it: generous for a machine at load 15.
PICKER_TIMEOUT = 30


@pytest.fixture(scope="module")
def installed_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One installed home for the module, each test with a shell of its own: none of them
    changes what the others read (the --add test writes a sheet named qqmine and history)."""
    return install_home(tmp_path_factory.mktemp("installed"))


def picked() -> str:
    """The built-in py-spy sheet's job-wide dump, read from the sheet (its text is improved now
    and then): a command with <jobid> placeholders, longer than the terminal is wide."""
    sheet = Path(str(builtin_dir())) / "py-spy"
    lines = sheet.read_text(encoding="utf-8").splitlines()
    found = [line for line in lines if line.startswith("srun --overlap --jobid=<jobid> ")]
    assert len(found) == 1, f"{sheet}: expected one job-wide srun dump, found {found}"
    return found[0]


def ending_with(text: str) -> Callable[[str], bool]:
    """A wait_for condition: the screen's last text is ``text``."""
    return lambda screen: screen.rstrip().endswith(text)


def assert_on_the_prompt_not_run(shell: Tmux, command: str) -> None:
    shell.wait_for(lambda s: f"$ true {command}" in s, "the pick on the prompt", PICKER_TIMEOUT)
    shell.type("42")  # typed where the cursor is: on the placeholder
    shell.wait_for(lambda s: "--jobid=42<jobid> " in s, "typing at the placeholder")
    assert "srun: command not found" not in shell.screen()
    shell.keys("C-u")


def test_numbered_list_puts_a_builtin_command_on_the_prompt(shell: Tmux) -> None:
    command = picked()
    shell.run("export DOTDBG_CHEAT_PICKER=list")
    shell.keys("C-u")
    shell.type("true ")
    shell.keys("C-g")
    shell.wait_for(lambda s: "cheat: search words" in s, "the search question", PICKER_TIMEOUT)
    shell.type("py-spy every node running")
    shell.keys("Enter")
    screen = shell.wait_for(lambda s: "cheat: number" in s, "the numbered list", PICKER_TIMEOUT)
    numbered = [line.split(None, 1) for line in screen.splitlines() if line[:4].strip().isdigit()]
    number = next(n for n, text in numbered if command[:60] in text)
    shell.type(number)
    shell.keys("Enter")
    assert_on_the_prompt_not_run(shell, command)


def test_fzf_puts_a_builtin_command_on_the_prompt(shell: Tmux) -> None:
    if shutil.which("fzf") is None:
        pytest.skip("fzf is not installed (apt-get install fzf)")
    command = picked()
    shell.keys("C-u")
    shell.type("true ")
    shell.keys("C-g")
    shell.wait_for(lambda s: "cheat>" in s, "fzf", PICKER_TIMEOUT)
    shell.type("'--jobid=<jobid> '--ntasks-per-node=1 !--nodes")  # exact terms: one entry
    shell.wait_for(lambda s: " 1/" in s, "one entry left", PICKER_TIMEOUT)
    shell.keys("Enter")
    assert_on_the_prompt_not_run(shell, command)


def test_tab_in_a_cloned_repo_treats_sheet_names_as_data(shell: Tmux, tmp_path: Path) -> None:
    """A repo's `.cheat/$(touch${IFS}PWNED)` is completed as a quoted name; nothing runs."""
    repo = tmp_path / "clone"
    work = repo / "src" / "pkg"
    work.mkdir(parents=True)
    (repo / ".cheat").mkdir()
    (repo / ".cheat" / "$(touch${IFS}PWNED)").write_text("# qqpwn entry\necho qqpwn-shown\n")
    shell.run(f"cd {work}")
    for typed in ("ch ", "dotdbg cheat ", "dotdbg cheat --edit "):
        shell.keys("C-u", "C-l")  # a clear screen: the listing seen next is this one's
        shell.wait_for(lambda s: s.strip() == "$", "a clear screen")
        shell.type(typed)
        shell.keys("Tab", "Tab")  # every name listed, quoted as it would be inserted
        shell.wait_for(lambda s: "PWNED\\)  " in s and "python" in s, "the listing")
        assert not (work / "PWNED").exists()
        assert "\\$\\(touch\\$\\{IFS\\}PWNED\\)  " in shell.screen()
        shell.type("$")
        shell.keys("Tab")
        quoted = f"$ {typed}\\$\\(touch\\$\\{{IFS\\}}PWNED\\)"
        shell.wait_for(ending_with(quoted), "the quoted name")
    shell.keys("C-u")
    shell.type("ch $")
    shell.keys("Tab")
    shell.keys("Enter")  # the completed, quoted name looks the sheet up
    shell.wait_for(lambda s: "\necho qqpwn-shown\n" in s, "the sheet")
    assert not list(tmp_path.rglob("PWNED"))
    assert not (Path.home() / "PWNED").exists()


def test_add_saves_the_command_just_run(shell: Tmux, installed_home: Path) -> None:
    """The generated bash writes each command to the history as it runs: --add finds it."""
    shell.keys("C-u")
    shell.type("echo qqadded-$((40 + 2))")
    shell.keys("Enter")
    shell.wait_for(lambda s: "\nqqadded-42\n" in s, "its output")
    shell.run("ch --add qqmine --comment 'print the answer'")
    assert shell.run("ch -c qqmine") == "echo qqadded-$((40 + 2))"
    sheet = installed_home / ".config" / "dotdbg" / "cheatsheets" / "qqmine"
    assert sheet.read_text().endswith("# print the answer\necho qqadded-$((40 + 2))\n")
