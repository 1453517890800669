"""Where sheets come from: the user's own dir, a project's ``.cheat/``, configured dirs, built-ins.

The list is in merge order: a sheet found in several places shows the user's entries first,
then the project's, then the configured paths' in config order, then the built-in ones.

These locations mirror ``dotdbg.paths.Paths`` with ``os.path`` only: importing ``paths`` pulls
in dataclasses and pathlib, which cost more than the whole ``dotdbg cheat`` lookup.
tests/cheat/test_cheat_paths.py checks the two agree.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping

APP = "dotdbg"
PERSONAL = "personal"
PROJECT = "project"
BUILTIN = "builtin"
PROJECT_DIR_NAME = ".cheat"


class Cheatpath:
    __slots__ = ("directory", "label", "readonly")

    def __init__(self, label: str, directory: str, readonly: bool) -> None:
        self.label = label
        self.directory = directory
        self.readonly = readonly

    def __repr__(self) -> str:
        return f"Cheatpath({self.label!r}, {self.directory!r}, readonly={self.readonly})"


# -- dotdbg's own locations (kept equal to dotdbg.paths.Paths) --------------------------------
def _home(env: Mapping[str, str]) -> str:
    return env.get("HOME") or os.path.expanduser("~")


def _xdg(env: Mapping[str, str], var: str, default: str) -> str:
    value = env.get(var, "")
    # The XDG spec says relative values are invalid and must be ignored.
    return value if value and os.path.isabs(value) else os.path.join(_home(env), default)


def config_file(env: Mapping[str, str]) -> str:
    return os.path.join(_xdg(env, "XDG_CONFIG_HOME", ".config"), APP, "config.toml")


def user_cheat_dir(env: Mapping[str, str]) -> str:
    return os.path.join(_xdg(env, "XDG_CONFIG_HOME", ".config"), APP, "cheatsheets")


def cache_dir(env: Mapping[str, str]) -> str:
    return os.path.join(_xdg(env, "XDG_CACHE_HOME", ".cache"), APP)


def builtin_dir() -> str | None:
    """The shipped sheets: inside the installed package, else at the root of a checkout."""
    package_dir = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for candidate in (package_dir, os.path.dirname(package_dir)):
        folder = os.path.join(candidate, "cheatsheets")
        if os.path.isdir(folder):
            return folder
    return None


def find_project_dir(cwd: str) -> str | None:
    """The nearest ``.cheat/`` directory in ``cwd`` or one of its parents."""
    directory = cwd
    while True:
        candidate = os.path.join(directory, PROJECT_DIR_NAME)
        if os.path.isdir(candidate):
            return candidate
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


# -- the [cheat] paths of the config file ------------------------------------------------------
def configured_paths(config: Mapping[str, object], config_dir: str) -> list[Cheatpath]:
    """``[[cheat.paths]]`` of a parsed config; raises ValueError naming the first bad value."""
    cheat = config.get("cheat", {})
    if not isinstance(cheat, dict):
        raise ValueError("[cheat] must be a table")
    tables = cheat.get("paths", [])
    if not isinstance(tables, list):
        raise ValueError("cheat.paths must be an array of tables ([[cheat.paths]])")
    return [_configured_path(table, number, config_dir) for number, table in enumerate(tables, 1)]


def _configured_path(table: object, number: int, config_dir: str) -> Cheatpath:
    where = f"[[cheat.paths]] number {number}"
    if not isinstance(table, dict):
        raise ValueError(f"{where} must be a table")
    name, path, readonly = table.get("name"), table.get("path"), table.get("readonly", False)
    if not isinstance(name, str) or not name:
        raise ValueError(f"{where} needs a name (a non-empty string)")
    if not isinstance(path, str) or not path:
        raise ValueError(f"{where} ({name}) needs a path (a non-empty string)")
    if not isinstance(readonly, bool):
        raise ValueError(f"{where} ({name}): readonly must be true or false")
    directory = os.path.join(config_dir, os.path.expanduser(path))
    return Cheatpath(name, os.path.normpath(directory), readonly)


def read_configured_paths(path: str) -> list[Cheatpath]:
    """Parse the config file; raises OSError or ValueError (TOML errors are ValueErrors)."""
    if not os.path.exists(path):
        return []
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

    with open(path, "rb") as file:
        config = tomllib.load(file)
    return configured_paths(config, os.path.dirname(path))


def all_cheatpaths(
    env: Mapping[str, str], cwd: str, configured: list[Cheatpath]
) -> list[Cheatpath]:
    """Every cheatpath in merge order (the user's own dir even before it exists)."""
    paths = [Cheatpath(PERSONAL, user_cheat_dir(env), readonly=False)]
    project = find_project_dir(cwd)
    if project is not None:
        paths.append(Cheatpath(PROJECT, project, readonly=False))
    paths.extend(configured)
    builtin = builtin_dir()
    if builtin is not None:
        paths.append(Cheatpath(BUILTIN, builtin, readonly=True))
    return paths
