"""The shells dotdbg renders for: one ``ShellTarget`` each, in one registry.

A target says which template makes its file, where that file goes, which file of the home loads
it (a managed block in its rc file, or none when the shell loads the file itself, as fish does
from conf.d), how its template quotes a value, and how its text is checked before it replaces
the old one. ``render`` renders every selected target from one config, ``checks`` checks each
text once, ``plan`` writes the files and blocks; none of them names a shell. Adding a shell is
a module beside ``bash.py`` and one line in ``_BUILTIN``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dotdbg.config.model import Config
    from dotdbg.paths import Paths


def _data_dir(paths: Paths) -> Path:
    return paths.data_dir


@dataclass(frozen=True)
class ShellTarget:
    name: str  # "bash"
    template: str  # in templates/: "dotdbg.bash.j2"
    generated: str  # the generated file's name: "dotdbg.bash"
    # The home file that gets a managed block loading the generated file (~/.bashrc); None:
    # the shell reads the generated file by itself (``directory`` is a folder it loads).
    rc_file: Callable[[Paths], Path] | None
    # The block's body: (generated file, home) -> lines that load it.
    load_block: Callable[[Path, Path], str]
    quote_filter: str  # the template filter that quotes a value for this shell: "shquote"
    filters: Mapping[str, Callable[..., Any]]  # the template's own filters, quote_filter included
    # Raises DotdbgError (one line, blaming the entry of the config at fault) unless the text
    # passes the shell's checkers (bash -n and shellcheck for bash). Nothing runs the text.
    check: Callable[[str, Config], None]
    # Which checkers ``check`` runs, and their versions: part of the check cache's key, so that a
    # new shellcheck checks again.
    checker_key: Callable[[], str]
    directory: Callable[[Paths], Path] = field(default=_data_dir)  # where the file goes
    # Optional finer cache: the parts of a text whose check depends on that part alone, by
    # name (bash: {"shellcheck": what shellcheck reads}, the same after an alias edit), and a
    # check told the names of the parts that passed before. Without them, ``check`` runs on
    # every text not checked before.
    parts: Callable[[str], Mapping[str, str]] | None = None
    check_known: Callable[[str, Config, frozenset[str]], None] | None = None
    # The file every shell of this kind reads, also non-interactive ones (`ssh HOST cmd`), that
    # gets the PATH block putting dotdbg's folder on PATH (``launcher``); None: no such block.
    path_file: Callable[[Paths], Path] | None = None
    # The PATH block's body in this shell's language: (folder, home) -> lines appending it.
    path_lines: Callable[[Path, Path], str] | None = None
    # The file whose presence says the user uses this shell (its rc file, fish's folder): the
    # first install sets up those shells and the login shell, no other.
    used_if: Callable[[Paths], Path] | None = None

    def generated_path(self, paths: Paths) -> Path:
        return self.directory(paths) / self.generated


_registry: dict[str, ShellTarget] = {}


def register(target: ShellTarget) -> None:
    """Add (or replace) a shell target; the order of registration is the order of rendering."""
    _registry[target.name] = target


def registered() -> tuple[ShellTarget, ...]:
    """Every shell dotdbg knows: their blocks and files are removed by uninstall."""
    if not _registry:
        _load_builtin()
    return tuple(_registry.values())


def _load_builtin() -> None:
    # Imported here, not at the top: the targets import render and the checkers.
    from dotdbg.shells import bash, fish, zsh

    for target in (bash.BASH, zsh.ZSH, fish.FISH):
        register(target)


def selected(config: Config) -> tuple[ShellTarget, ...]:
    """The shells ``config`` installs for (every registered one today)."""
    return registered()


def login_shell(env: Mapping[str, str] | None = None) -> str:
    """The name of the user's login shell, from ``$SHELL`` ("" when it is not set)."""
    import os

    return os.path.basename((os.environ if env is None else env).get("SHELL", ""))


def target_named(name: str) -> ShellTarget:
    return next(target for target in registered() if target.name == name)


def generated_path(paths: Paths, name: str) -> Path:
    """Where the generated file ``name`` goes: a shell's own place, else dotdbg's data dir."""
    for target in registered():
        if target.generated == name:
            return target.generated_path(paths)
    return paths.data_dir / name
