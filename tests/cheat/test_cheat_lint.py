"""`dotdbg cheat --lint`: each problem as file:line:col, exit 1 on errors; shipped sheets clean."""

from __future__ import annotations

import glob
import shutil
from pathlib import Path

import pytest

from dotdbg.cheat.commands import entry_tags, split
from dotdbg.cheat.gdblint import EXTENSION_GLOBS
from dotdbg.cheat.lint import placeholder_faults, program_of, programs_of
from tests.cheat.cheat_helpers import RunCheat, write_sheet

BAD = """\
---
syntax: bash
---
# a quote never closed
echo 'oops

qqorphan --no-comment-above

# two commands in one entry
git status
git diff

# a placeholder never closed
srun --jobid=<jobid --pty bash

# an empty placeholder
ls <>

# python with a syntax error [python]
def f(:
    pass

# a pdb command that is none [pdb]
whre 3 )

# a program that is not here
qqnosuchprogram --flag
"""


def test_lint_reports_each_problem_where_it_is(personal_dir: Path, run_cheat: RunCheat) -> None:
    sheet = write_sheet(personal_dir, "qqbad", BAD)
    done = run_cheat("--lint", "qqbad")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    expected = [
        (5, "error: bash: unexpected EOF while looking for matching `''"),
        (7, "error: no comment: say in a # line what it does"),
        (11, "error: 2 commands in one entry"),
        (14, "error: a placeholder that is never closed"),
        (17, "error: an empty placeholder <>"),
        (20, "error: Python: "),
        (24, "error: pdb: 'whre' is no pdb command and not Python"),
        (27, "warning: 'qqnosuchprogram' is not on PATH on this machine"),
    ]
    for line, message in expected:
        assert any(text.startswith(f"{sheet}:{line}:") and message in text for text in lines), (
            line,
            message,
            done.stdout,
        )
    assert done.stderr == "dotdbg: 1 sheet file: 8 errors, 2 warnings\n"


def test_lint_reports_a_bash_error_that_names_a_byte_not_utf8(
    personal_dir: Path, run_cheat: RunCheat
) -> None:
    """Past an unterminated `[[ '` bash's message holds byte 0xff: one error line, no traceback."""
    sheet = write_sheet(personal_dir, "qqbyte", "---\nsyntax: bash\n---\n# test it\n[[ '\n")
    done = run_cheat("--lint", "qqbyte")
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert any(
        line.startswith(f"{sheet}:5:") and "error: bash: " in line
        for line in done.stdout.splitlines()
    ), done.stdout


def test_lint_reports_malformed_front_matter(personal_dir: Path, run_cheat: RunCheat) -> None:
    sheet = write_sheet(personal_dir, "qqfm", "---\ntags [a]\n---\n# x\necho x\n")
    done = run_cheat("--lint", "qqfm")
    assert done.returncode == 1
    assert done.stdout.startswith(f"{sheet}:2:1: error: front matter: expected 'key: value'")


def test_lint_of_an_unknown_sheet_is_a_usage_error(run_cheat: RunCheat) -> None:
    done = run_cheat("--lint", "qqnosuch")
    assert done.returncode == 2
    assert "no sheet named 'qqnosuch'" in done.stderr


def test_every_shipped_sheet_lints_clean_on_a_plain_path(run_cheat: RunCheat) -> None:
    """Stock Debian's PATH: no `python`, py-spy, nvidia-smi or conda; the built-in sheets name
    them on purpose, and the user cannot fix a read-only sheet: nothing to report (issue 28.4)."""
    done = run_cheat("--lint", env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    assert done.stdout == ""
    assert done.stderr.endswith(": 0 errors, 0 warnings\n"), done.stderr
    assert done.returncode == 0


MISSING = "---\nsyntax: bash\n---\n# run it\nqqnosuchprogram --flag\n"
NOT_ON_PATH = "5:1: warning: 'qqnosuchprogram' is not on PATH on this machine\n"


def test_a_missing_program_is_a_warning_only_in_a_sheet_the_user_edits(
    personal_dir: Path, community_dir: Path, run_cheat: RunCheat
) -> None:
    mine = write_sheet(personal_dir, "qqmine", MISSING)
    write_sheet(community_dir, "qqtheirs", MISSING)
    done = run_cheat("--lint", "qqmine", "qqtheirs")
    assert done.stdout == f"{mine}:{NOT_ON_PATH}"
    assert done.stderr == "dotdbg: 2 sheet files: 0 errors, 1 warning\n"


def test_each_command_of_a_list_is_looked_up(personal_dir: Path, run_cheat: RunCheat) -> None:
    """`clear; python3 x` starts clear and python3, not a program named `clear;`."""
    text = "---\nsyntax: bash\n---\n# clear, then run\nclear; qqnosuchprogram x | wc -l\n"
    sheet = write_sheet(personal_dir, "qqlist", text)
    done = run_cheat("--lint", "qqlist")
    assert done.stdout == f"{sheet}:{NOT_ON_PATH}"


@pytest.mark.parametrize(
    ("text", "faults"),
    [
        ("srun --jobid=<jobid> x", []),
        ("sort <file.txt", []),  # a redirection, not a placeholder
        ("x --a=<b c", [(7, "a placeholder that is never closed: write <name>")]),
        ("cat <> f", [(5, "an empty placeholder <>: name the value to fill in")]),
    ],
)
def test_placeholder_faults(text: str, faults: list[tuple[int, str]]) -> None:
    assert placeholder_faults(text) == faults


@pytest.mark.parametrize(
    ("command", "program"),
    [
        ("CUDA_VISIBLE_DEVICES=0 python x.py", "python"),
        ("sudo -E py-spy dump --pid 1", "py-spy"),
        ("timeout 5 strace -f ls", "strace"),
        ('for f in *; do gzip "$f"; done', "gzip"),
        ("cd /tmp && ls", "ls"),
    ],
)
def test_program_of(command: str, program: str) -> None:
    assert program_of(command) == program


@pytest.mark.parametrize(
    ("command", "programs"),
    [
        ("clear; python3 train.py", ["clear", "python3"]),
        ("ls | wc -l", ["ls", "wc"]),
        ("python train.py > out.txt 2>&1", ["python"]),
        ("sort <file.txt", ["sort"]),
        ("lsz() { ls -lhS | head; }", ["ls", "head"]),
        ("if true; then nvidia-smi; fi", ["nvidia-smi"]),
        ("echo 'a; b' # c; d", []),
        ("(cd build && make -j)", ["make"]),
    ],
)
def test_programs_of(command: str, programs: list[str]) -> None:
    assert programs_of(command) == programs


def test_entry_tags_only_when_every_word_is_one() -> None:
    assert entry_tags("dump it [pdb net]\nmore") == ["pdb", "net"]
    assert entry_tags("range [start, end]") == []
    assert entry_tags("needs 3.12 [py3.12]") == ["py3.12"]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("git log a\ngit log b", 2),
        ("git log -S x \\\n  -- path", 1),
        ("cat >> ~/.pdbrc <<'EOF'\nalias nl n;;l\nEOF", 1),
        ("for i in $(seq 3); do\n  echo $i\ndone", 1),
        ("python -c 'a\nb'", 1),
        ("case $x in\n  a) echo a ;;\nesac\necho next", 2),
        ("ls |\n  wc -l", 1),
        ("if true; then\n echo done\nfi", 1),
        ("echo 'it''s' # a comment (\necho two", 2),
        ("python -c \"$(echo -e 'x')\" && {\n echo\n}", 1),
    ],
)
def test_split_shell_counts_commands(text: str, count: int) -> None:
    assert len(split(text, "bash")) == count


def test_split_python_and_prompts() -> None:
    assert split("import x\nprint(1)\nwith a:\n    b", "python") == [
        "import x",
        "print(1)",
        "with a:\n    b",
    ]
    assert split("a = 1; b = 2", "python") == ["a = 1; b = 2"]
    assert split("commands 1\nsilent\np x\nc\nb 3", "pdb") == ["commands 1\nsilent\np x\nc", "b 3"]
    assert split("define hook\nbt\nend\ninfo threads", "gdb") == [
        "define hook\nbt\nend",
        "info threads",
    ]


GDB_SHEET = """\
---
syntax: bash
---
# a command gdb does not have [gdb]
info sharedlibs

# fine, though there is no process here [gdb]
bt full

# an expression that does not parse [gdb]
p 1 +

# a set command with a trailing shell comment: gdb reads it as the value [gdb]
set pagination off   # no --More--

# a python block with a Python error [gdb]
python
print(1
end

# cuda-gdb's own command: plain gdb cannot judge it [gdb gpu]
info cuda kernels

# CPython's extension, loaded where python3-dbg is [gdb]
py-bt

# pdb: an expression that does not parse [pdb]
p x.

# pdb: an alias whose body does not parse [pdbrc]
alias pd print(%1
"""


EXTENSION = next(iter(glob.glob(EXTENSION_GLOBS[0])), "/no/python-gdb.py")


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb checks [gdb] entries")
def test_gdb_and_pdb_entries_are_parsed(personal_dir: Path, run_cheat: RunCheat) -> None:
    sheet = write_sheet(personal_dir, "qqdbg", GDB_SHEET)
    done = run_cheat("--lint", "qqdbg")
    lines = [line.removeprefix(f"{sheet}:") for line in done.stdout.splitlines()]
    assert lines[:4] == [
        '5:1: error: gdb: Undefined info command: "sharedlibs".  Try "help info".',
        "11:1: error: gdb: A syntax error in expression, near `'.",
        '14:1: error: gdb: "on" or "off" expected.',
        "17:1: error: Python: A syntax error: '(' was never closed",
    ]
    assert lines[4].startswith("28:1: error: pdb: Python in 'p': "), lines
    assert lines[5].startswith("31:1: error: pdb: 'print(placeholder' is no pdb command"), lines
    assert len(lines) == 6 + (not Path(EXTENSION).exists()), lines
