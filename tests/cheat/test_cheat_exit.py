"""How the launcher ends a lookup (dotdbg.cheat.leave): without tearing the interpreter down, yet
with the same output, stderr and exit status as the usual exit of `python -m dotdbg cheat`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cheat.cheat_helpers import DOTDBG, FIXTURE_SHEETS, write_sheet

BIG_SHEET = "".join(f"# entry {n}\necho {'x' * 140}\n\n" for n in range(2000))  # 300 KB

SHOWS_TEARDOWN = """
import atexit, sys
class Witness:
    def __del__(self):
        print("torn down", flush=True)
witness = Witness()
if sys.argv[1:] == ["hook"]:
    atexit.register(print, "hook ran")
from dotdbg.cheat import leave
sys.stdout.write("unflushed")
leave(3)
"""


def ended(command: list[str], cwd: Path) -> tuple[str, str, int]:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=os.environ)
    return done.stdout, done.stderr, done.returncode


@pytest.mark.parametrize(
    "args",
    [
        ["qqgit", "bisect"],
        ["qqgit"],
        ["--color", "always", "qqgit", "bisect"],
        ["zorblax"],  # nothing found: a note and a hint on stderr, exit 1
        ["qqgit", "zorblax"],
        ["qqbig", "entry"],  # more than a pipe holds
    ],
)
def test_a_lookup_ends_as_the_usual_exit_does(
    args: list[str], personal_dir: Path, work_dir: Path
) -> None:
    write_sheet(personal_dir, "qqgit", (FIXTURE_SHEETS / "git").read_text())
    write_sheet(personal_dir, "qqbig", BIG_SHEET)
    launcher = ended([DOTDBG, "cheat", *args], work_dir)
    usual = ended([sys.executable, "-m", "dotdbg", "cheat", *args], work_dir)
    assert launcher == usual
    assert launcher[0] or launcher[1]


def test_a_reader_that_leaves_early_gets_the_usual_exit(personal_dir: Path, work_dir: Path) -> None:
    """`dotdbg cheat … | head -c1`: 141 and no message, both ways."""
    write_sheet(personal_dir, "qqbig", BIG_SHEET)
    statuses = []
    for command in ([DOTDBG], [sys.executable, "-m", "dotdbg"]):
        piped = f"{' '.join(command)} cheat qqbig entry | head -c1 >/dev/null"
        script = f'{piped}; echo "${{PIPESTATUS[0]}}"'
        done = subprocess.run(["bash", "-c", script], cwd=work_dir, capture_output=True, text=True)
        statuses.append((done.stdout.strip(), done.stderr))
    assert statuses[0] == statuses[1] == ("141", "")


def test_leave_skips_the_teardown_and_flushes(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SHOWS_TEARDOWN], capture_output=True, text=True)
    assert (done.stdout, done.returncode) == ("unflushed", 3)


def test_leave_exits_the_usual_way_when_a_hook_waits(tmp_path: Path) -> None:
    """An atexit hook (or a thread) is something the teardown runs: then it is not skipped."""
    done = subprocess.run(
        [sys.executable, "-c", SHOWS_TEARDOWN, "hook"], capture_output=True, text=True
    )
    assert done.returncode == 3
    assert done.stdout.startswith("unflushedhook ran")
    assert "torn down" in done.stdout
