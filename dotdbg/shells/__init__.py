"""The shells dotdbg renders for: one ``ShellTarget`` each, in one registry.

A target says which template makes its file, where that file goes, which file of the home loads
it (a managed block in its rc file, or none when the shell loads the file itself, as fish does
from conf.d), how its template quotes a value, and how its text is checked before it replaces
the old one. ``render`` renders every selected target from one config, ``checks`` checks each
text once, ``plan`` writes the files and blocks; none of them names a shell. Adding a shell is
a module beside ``bash.py`` defining a ``target.ShellTarget`` and one line in
``_load_builtin``.
"""

from __future__ import annotations

# Imports nothing at run time: ``dotdbg ssh`` imports ``shells.session`` at every session's
# start, and with it this package (the typing module costs milliseconds; mypy knows this).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from dotdbg.config.model import Config
    from dotdbg.paths import Paths
    from dotdbg.shells.target import ShellTarget


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
