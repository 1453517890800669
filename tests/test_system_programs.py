"""No code runs or looks up a program that only a PATH with sbin folders finds, by bare name.

A normal user's PATH (/usr/local/bin:/usr/bin:/bin) has no sbin: `mkfs.ext4` by name then fails
on a fresh machine although it is installed (tests.sysprogs finds such programs by path).
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.sysprogs import SBIN_DIRS, system_program

REPO = Path(__file__).resolve().parent.parent
USER_PATH = "/usr/local/bin:/usr/bin:/bin"
STARTERS = {"run", "Popen", "check_output", "check_call", "call", "spawn", "which", "execvp"}


def python_files() -> Iterator[Path]:
    for folder in ("dotdbg", "tests", "benchmarks", "scripts"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and (
                path.suffix == ".py" or path.parent.name in {"benchmarks", "scripts"}
            ):
                yield path


def program_names(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """The literal program names started or looked up: run(["x", …]), which("x"), spawn("x")."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        called = node.func.id if isinstance(node.func, ast.Name) else called
        first = node.args[0]
        if isinstance(first, (ast.List, ast.Tuple)) and first.elts:
            first = first.elts[0]
        searched = any(keyword.arg == "path" for keyword in node.keywords)  # which(x, path=…)
        if (
            called in STARTERS
            and not searched
            and isinstance(first, ast.Constant)
            and isinstance(first.value, str)
        ):
            yield first.value, node.lineno


def sbin_only(name: str) -> bool:
    on_user_path = shutil.which(name, path=USER_PATH)
    return on_user_path is None and shutil.which(name, path=":".join(SBIN_DIRS)) is not None


def test_no_sbin_program_is_started_by_bare_name() -> None:
    found = [
        f"{path.relative_to(REPO)}:{line}: {name}"
        for path in python_files()
        for name, line in program_names(ast.parse(path.read_text(encoding="utf-8")))
        if sbin_only(name)
    ]
    assert found == [], "use tests.sysprogs.system_program (an absolute path) for: " + ", ".join(
        found
    )


def test_sbin_programs_are_found_with_a_users_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", USER_PATH)
    assert system_program("mkfs.ext4") in ("/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4")
