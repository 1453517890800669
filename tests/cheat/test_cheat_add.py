"""`dotdbg cheat --add SHEET`: the last command of the history becomes a personal entry."""

from __future__ import annotations

import os
from pathlib import Path

import pexpect
import pytest

from dotdbg.cheat.add import appended, is_add_command, last_command
from tests.cheat.cheat_helpers import DOTDBG, RunCheat, write_sheet


def write_history(home: Path, *commands: str) -> None:
    (home / ".bash_history").write_text("".join(f"{command}\n" for command in commands))


def test_add_appends_the_last_command_with_its_comment(
    fake_home: Path, personal_dir: Path, run_cheat: RunCheat
) -> None:
    write_history(fake_home, "ls", "python -X importtime -c 'import torch' 2>&1 | tail -3")
    done = run_cheat("--add", "qqmine", "--comment", "  which  imports are slow ")
    assert done.returncode == 0, done.stderr
    sheet = personal_dir / "qqmine"
    assert sheet.read_text() == (
        "---\nsyntax: bash\ntags: []\n---\n"
        "# which imports are slow\n"
        "python -X importtime -c 'import torch' 2>&1 | tail -3\n"
    )
    write_history(fake_home, "git bisect log > bisect.log", "dotdbg cheat --add qqmine")
    assert run_cheat("--add", "qqmine", "--comment", "save the bisect").returncode == 0
    assert run_cheat("-c", "qqmine").stdout.splitlines() == [
        "python -X importtime -c 'import torch' 2>&1 | tail -3",
        "git bisect log > bisect.log",
    ]
    again = run_cheat("--add", "qqmine", "--comment", "the same again")
    assert again.returncode == 2
    assert "already has this command" in again.stderr


def test_add_keeps_a_sheet_s_mode_and_other_entries(
    fake_home: Path, personal_dir: Path, run_cheat: RunCheat
) -> None:
    sheet = write_sheet(personal_dir, "qqold", "# old one\necho old")  # no final newline
    sheet.chmod(0o600)
    write_history(fake_home, "echo new")
    assert run_cheat("--add", "qqold", "--comment", "new one").returncode == 0
    assert sheet.read_text() == "# old one\necho old\n\n# new one\necho new\n"
    assert sheet.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in personal_dir.iterdir()] == ["qqold"]  # no temp file left


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--add", "bad name", "--comment", "x"], "cannot be a sheet name"),
        (["--add", "qqx", "--comment", "   "], "needs a comment"),
    ],
)
def test_add_refuses_bad_input_and_writes_nothing(
    fake_home: Path, personal_dir: Path, run_cheat: RunCheat, args: list[str], problem: str
) -> None:
    write_history(fake_home, "echo new")
    done = run_cheat(*args)
    assert done.returncode == 2
    assert problem in done.stderr
    assert list(personal_dir.iterdir()) == []


def test_add_asks_for_the_comment_on_the_terminal(fake_home: Path, personal_dir: Path) -> None:
    write_history(fake_home, "strace -f -e trace=openat -o trace.log")
    child = pexpect.spawn(
        DOTDBG, ["cheat", "--add", "qqasked"], env={**os.environ}, encoding="utf-8", timeout=10
    )
    child.expect_exact("strace -f -e trace=openat -o trace.log")
    child.expect_exact("comment (what it does): ")
    child.sendline("every file the run opens")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    added = (personal_dir / "qqasked").read_text()
    assert added.endswith("# every file the run opens\nstrace -f -e trace=openat -o trace.log\n")


def test_last_command_skips_the_add_itself() -> None:
    history = ["git config --add x y", "ch --add mine", "dotdbg cheat --add mine"]
    assert last_command(history, "~/.bash_history") == "git config --add x y"
    assert is_add_command("dotdbg cheat -t x --add mine")
    assert not is_add_command("git config --add x y")
    assert appended("", "# c\nx\n").startswith("---\nsyntax: bash\n")
