"""Building the session payload (a cache miss of ``dotdbg ssh`` and ``dotdbg shell``):
render, pack, encode.

The files the archive holds are described in dotdbg.remote.bundle; the session's rc of each
shell, the shim and its Python entry live beside this module as plain files.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Iterable
from pathlib import Path

from dotdbg.home.render import INPUTRC_FILE
from dotdbg.paths import Paths, resource_dir
from dotdbg.remote import bootstrap, bundle, stream

HERE = Path(__file__).parent
PACKAGE_DIR = HERE.parent
SHIM = HERE / "shim.sh"  # the session's `dotdbg` command (bin/dotdbg; bootstrap.SHIM first)
SESSION_CHEAT = HERE / "session_cheat.py"  # the shim's Python entry
PERMANENT = "dotdbg install on that host sets them up for good"


# What every session says at its start, in double quotes in each shell's rc file (bash, zsh
# and fish alike expand $__dotdbg_host there and nothing else in these words).
SAID = (
    "$__dotdbg_host: your aliases, functions, history search and ch, for this session only",
    f"not this session: pdb aliases (pdb reads only ~/.pdbrc and ./.pdbrc); {PERMANENT}",
    "not this session: saving history to your history file (this session's is dropped at exit)",
)


def rc_text(shell: bootstrap.SessionShell, source: str) -> str:
    """The session rc file ``source`` of ``shell``, naming the files it sources as render
    names them."""
    text = (HERE / source).read_text(encoding="utf-8")
    said = " ".join(f'"{line}"' for line in SAID)
    return (
        text.replace("@INPUTRC@", INPUTRC_FILE)
        .replace("@RENDERED@", shell.rendered)
        .replace("@SAID@", said)
    )


def build_payload(paths: Paths) -> tuple[str, str, tuple[str, ...], list[Path]]:
    """The payload: the files a bash session starts with as printf commands (a stream of
    dotdbg.remote.stream), one archive of the rest in base64 lines (the shim, the cheat code
    and the sheets, the other shells' files); the shells other than bash it carries, and every
    file and directory it was made from (the cache's stamps). No size limit: it travels on the
    shell's input."""
    from dotdbg.config import load_config
    from dotdbg.home.install import checked_render

    config = load_config(paths)
    shells = bootstrap.carried(bootstrap.others_here())  # those installed here
    rendered = checked_render(paths, config, [shell.name for shell in shells])
    files = session_files(paths)
    first = {INPUTRC_FILE: rendered.files[INPUTRC_FILE].encode(), bootstrap.SHIM: SHIM.read_bytes()}
    for shell in shells:
        written = first if shell is bootstrap.BASH else files
        written[shell.rendered] = rendered.files[shell.rendered].encode()
        written.update((name, rc_text(shell, source).encode()) for name, source in shell.rc_files)
    names = tuple(shell.name for shell in shells if shell is not bootstrap.BASH)
    archive = bootstrap.wrapped(_base64(bundle.archive(files, frozenset())))
    inputs = [*config.sources, paths.config_file, *_tree(HERE), *_tree(resource_dir("templates"))]
    inputs += [PACKAGE_DIR / module for module in bundle.CHEAT_MODULES]
    inputs += [*_tree(_builtin_sheets()), *_tree(paths.user_cheat_dir)]
    return stream.stream(first, None), archive, names, inputs


def _base64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def session_files(paths: Paths) -> dict[str, bytes]:
    """The cheat code and the sheets (path in the session dir to bytes)."""
    files = {f"{bundle.CODE_DIR}/session_cheat.py": SESSION_CHEAT.read_bytes()}
    files.update(bundle.cheat_code(PACKAGE_DIR))
    files.update(bundle.sheet_files(_builtin_sheets(), f"{bundle.CODE_DIR}/dotdbg/cheatsheets"))
    files.update(bundle.sheet_files(paths.user_cheat_dir, bundle.PERSONAL_SHEETS))
    return files


def _builtin_sheets() -> Path | None:
    from dotdbg.cheat.fast import builtin_dir

    found = builtin_dir()
    return None if found is None else Path(found)


def _tree(directory: Path | None) -> Iterable[Path]:
    """``directory``, its subdirectories and files: a file added or removed changes a stamp."""
    if directory is None:
        return []
    found = [directory]
    for root, dirs, files in os.walk(directory):
        dirs[:] = [name for name in dirs if name != "__pycache__"]
        found += [Path(root, name) for name in (*dirs, *files)]
    return found
