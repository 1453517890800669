"""The shipped sheets in cheatsheets/: well-formed, cheat-compatible, and their bash is bash."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dotdbg.cheat.commands import entry_syntax
from dotdbg.cheat.index import read_record, sheet_files
from dotdbg.cheat.lint import ERROR, bash_error, lint_file, without_placeholders
from dotdbg.paths import resource_dir

BUILTIN = resource_dir("cheatsheets")
SHEETS = sheet_files(str(BUILTIN))
MIN_SHEETS = 18
MIN_ENTRIES = 450


def parsed(path: str) -> tuple[str, list[str], list[tuple[str, str, int]], list[tuple[str, str]]]:
    record = read_record(path)
    assert isinstance(record, tuple), f"{path}: {record}"
    return record


def test_corpus_is_big_enough() -> None:
    entries = sum(len(parsed(path)[2]) for _, path in SHEETS)
    assert (len(SHEETS), entries) >= (MIN_SHEETS, 0), f"only {len(SHEETS)} sheets in {BUILTIN}"
    assert entries >= MIN_ENTRIES, f"only {entries} entries in {BUILTIN}"


def test_file_names_have_no_dot() -> None:
    """cheat skips such files, and so does dotdbg: a dotted name is a sheet nobody sees."""
    dotted = [
        str(Path(root, name).relative_to(BUILTIN))
        for root, _, names in os.walk(BUILTIN)
        for name in names
        if "." in name
    ]
    assert dotted == []


@pytest.mark.parametrize(("name", "path"), SHEETS, ids=[name for name, _ in SHEETS])
def test_sheet_parses_and_declares_its_syntax(name: str, path: str) -> None:
    syntax, _, entries, _ = parsed(path)
    assert syntax, f"{name}: front matter must declare syntax: (e.g. syntax: bash)"
    assert entries, f"{name}: no entries"


@pytest.mark.parametrize(("name", "path"), SHEETS, ids=[name for name, _ in SHEETS])
def test_bash_commands_pass_bash_n(name: str, path: str) -> None:
    syntax, _, entries, _ = parsed(path)
    blocks = [
        (line, without_placeholders(command))
        for comment, command, line in entries
        if entry_syntax(comment, syntax) == "bash"
    ]
    if not blocks:
        pytest.skip(f"syntax: {syntax}, no shell entries")
    # One bash for the whole sheet; only when it fails, one per entry to say which.
    if not bash_error("\n".join(block for _, block in blocks) + "\n"):
        return
    failures = [
        f"{name}:{line}: {error}\n    {block}"
        for line, block in blocks
        if (error := bash_error(block + "\n"))
    ]
    assert failures, f"{name}: the entries together fail `bash -n` (an unclosed quote?)"
    pytest.fail("\n".join(failures))


@pytest.mark.parametrize(("name", "path"), SHEETS, ids=[name for name, _ in SHEETS])
def test_python_commands_compile(name: str, path: str) -> None:
    syntax, _, entries, _ = parsed(path)
    python = [
        (c, command, line) for c, command, line in entries if entry_syntax(c, syntax) == "python"
    ]
    if not python:
        pytest.skip(f"syntax: {syntax}, no Python entries")
    failures = []
    for _, command, line in python:
        try:
            compile(command + "\n", f"{name}:{line}", "exec")
        except SyntaxError as error:
            failures.append(f"{name}:{line}: {error.msg}\n    {command}")
    assert not failures, "\n".join(failures)


def test_unterminated_here_document_fails_the_bash_check() -> None:
    assert "here-document" in bash_error("cat > x <<'EOF'\nline\n")
    assert bash_error("cat > x <<'EOF'\nline\nEOF\n") == ""


@pytest.mark.parametrize(("name", "path"), SHEETS, ids=[name for name, _ in SHEETS])
def test_debugger_commands_parse(name: str, path: str) -> None:
    """[pdb]/[pdbrc] entries through pdb's command set and Python's compiler, [gdb] entries
    through gdb itself (lint's checks), as the shell entries go through bash -n."""
    syntax, _, entries, _ = parsed(path)
    where = {entry_syntax(comment, syntax) for comment, _, _ in entries}
    if not where & {"pdb", "pdbrc", "gdb"}:
        pytest.skip(f"{name}: no debugger entries")
    if "gdb" in where and shutil.which("gdb") is None:
        pytest.skip("gdb is not installed here")
    problems = [str(p) for p in lint_file(path, check_programs=False) if p.level == ERROR]
    assert problems == []
