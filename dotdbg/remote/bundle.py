"""What travels with ``dotdbg ssh``: one gzip'd tar of the session's files, built locally.

It holds the files rendered for the remote shell, the session's rc and ``dotdbg`` shim
(dotdbg.remote.bootstrap), and what ``ch`` and the Ctrl-G picker need there: the cheat
lookup's own modules (the standard library only, Python >= 3.8), the built-in sheets and the
user's own. The archive goes base64-encoded on the session shell's input (dotdbg.remote.relay):
no size limit. A file whose bytes another one already has (your copy of a built-in sheet that
``dotdbg cheat --edit`` made and you did not change) travels as a hard link to it.
"""

from __future__ import annotations

import ast
import gzip
import io
import os
import tarfile
from collections.abc import Iterator, Mapping
from pathlib import Path

# The modules `dotdbg cheat` imports for a lookup, --pick, --menu and --copy (not --edit,
# --add or --lint: they need the rest of dotdbg); tests/remote/test_session_files.py runs them.
CHEAT_MODULES = (
    "__init__.py",
    "errors.py",
    "cli/__init__.py",
    "cli/layout.py",
    "cli/runner.py",
    "common/__init__.py",
    "common/output.py",
    "visible.py",
    "config/position.py",
    "cheat/__init__.py",
    "cheat/cheatpaths.py",
    "cheat/clipboard.py",
    "cheat/commands.py",
    "cheat/fast.py",
    "cheat/formats.py",
    "cheat/index.py",
    "cheat/menu.py",
    "cheat/modes.py",
    "cheat/options.py",
    "cheat/output.py",
    "cheat/search.py",
    "cheat/sheets.py",
    "cheat/shellfit.py",
)
# Packages whose __init__ imports what the lookup does not need: they travel empty.
EMPTY_MODULES = ("config/__init__.py",)
CODE_DIR = "py"  # in the session dir: the package as py/dotdbg, the built-in sheets inside it
PERSONAL_SHEETS = "config/dotdbg/cheatsheets"  # under the session's XDG_CONFIG_HOME
DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
EXECUTABLE = 0o700
PRIVATE = 0o600


def without_docstrings(source: str) -> str:
    """The module's code with docstrings and comments gone: the cheat code travels in 30%
    fewer compressed bytes (24 KB instead of 35 KB, measured), on every ``dotdbg ssh``.
    A module that was only its docstring (a package's ``__init__``) is empty, not ``pass``:
    two such packages are then not one file linked to the other (``archive``)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, DOCUMENTED) and node.body and _is_docstring(node.body[0]):
            node.body = node.body[1:] or _nothing(node)
    code = ast.unparse(tree)
    return code + "\n" if code else ""


def _nothing(node: ast.AST) -> list[ast.stmt]:
    """The least body ``node`` may have: none for a module, ``pass`` for a def or a class."""
    return [] if isinstance(node, ast.Module) else [ast.Pass()]


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def cheat_code(package_dir: Path) -> Iterator[tuple[str, bytes]]:
    """(path in the session dir, bytes) of every module the remote lookup imports."""
    for module in CHEAT_MODULES:
        source = (package_dir / module).read_text(encoding="utf-8")
        yield f"{CODE_DIR}/dotdbg/{module}", without_docstrings(source).encode()
    for module in EMPTY_MODULES:
        yield f"{CODE_DIR}/dotdbg/{module}", b""


def sheet_files(directory: Path | None, under: str) -> Iterator[tuple[str, bytes]]:
    """Every sheet file below ``directory`` (hidden ones skipped), placed ``under`` its dir."""
    if directory is None or not directory.is_dir():
        return
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(name for name in dirs if not name.startswith("."))
        for name in sorted(files):
            if not name.startswith("."):
                path = Path(root, name)
                yield f"{under}/{path.relative_to(directory).as_posix()}", path.read_bytes()


def archive(files: Mapping[str, bytes], executables: frozenset[str]) -> bytes:
    """A gzip'd tar of ``files``; no owner names or times, so the same files give the same bytes.
    A file with the same bytes as one before it is a hard link to that one."""
    buffer = io.BytesIO()
    first: dict[bytes, str] = {}  # contents -> the name that carries them
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in sorted(files.items()):
            info = tarfile.TarInfo(name)
            info.mode = EXECUTABLE if name in executables else PRIVATE
            if data and name not in executables and data in first:
                info.type, info.linkname = tarfile.LNKTYPE, first[data]
                tar.addfile(info)
                continue
            if name not in executables:
                first.setdefault(data, name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(buffer.getvalue(), compresslevel=9, mtime=0)
