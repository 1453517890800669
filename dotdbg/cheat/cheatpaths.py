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
    return _sheets_beside(__file__) or _sheets_beside(os.path.realpath(__file__))


def _sheets_beside(module: str) -> str | None:
    """``cheatsheets`` in the package of ``module`` or the folder above it; the path as
    imported is tried first, then with its links resolved (realpath costs a stat a folder)."""
    package_dir = os.path.dirname(os.path.dirname(module))
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
PATH_KEYS = ("name", "path", "readonly")
PATH_EXAMPLE = '[[cheat.paths]]\nname = "community"\npath = "~/src/cheatsheets"'
PATH_EXAMPLES = {"name": '"community"', "path": '"~/src/cheatsheets"'}
# The labels dotdbg gives its own places: a configured path named so could not be told apart.
RESERVED_LABELS = (PERSONAL, PROJECT, BUILTIN)


class PathsError(ValueError):
    """A bad ``[[cheat.paths]]`` value: what, the key path to it in the config, how to fix it."""

    def __init__(self, message: str, key_path: tuple[str, ...], hint: str) -> None:
        super().__init__(message)
        self.key_path = key_path
        self.hint = hint


def check_paths(cheat: object) -> list[tuple[str, str, bool]]:
    """(name, path, readonly) of each ``[[cheat.paths]]`` table of the ``[cheat]`` value.

    The one check of these tables: ``dotdbg install`` (config loading) and the cheat fast path
    both call it, so a value one of them takes the other takes too."""
    if not isinstance(cheat, dict):
        raise PathsError("[cheat] must be a table", ("cheat",), "write a [cheat] line")
    tables = cheat.get("paths", [])
    if not isinstance(tables, list):
        raise PathsError("cheat.paths must be an array of tables", ("cheat", "paths"), PATH_EXAMPLE)
    checked = [_check_table(table, index) for index, table in enumerate(tables)]
    seen: set[str] = set()
    for index, (name, _, _) in enumerate(checked):
        if name in seen:
            raise PathsError(
                f"two [[cheat.paths]] are named {name!r}",
                ("cheat", "paths", str(index), "name"),
                "give each a name of its own: it labels its sheets",
            )
        seen.add(name)
    return checked


def _check_table(table: object, index: int) -> tuple[str, str, bool]:
    at = ("cheat", "paths", str(index))
    if not isinstance(table, dict):
        raise PathsError(f"[[cheat.paths]] number {index + 1} must be a table", at, PATH_EXAMPLE)
    for key in table:
        if key not in PATH_KEYS:
            raise PathsError(
                f"unknown key {key!r} in [[cheat.paths]] number {index + 1}",
                (*at, key),
                f"the keys are {', '.join(PATH_KEYS)}",
            )
    name = _non_empty(table, "name", at, index)
    if name in RESERVED_LABELS:
        raise PathsError(
            f"[[cheat.paths]] cannot be named {name!r}: dotdbg labels its own sheets so",
            (*at, "name"),
            "choose another name, e.g. community",
        )
    path = _non_empty(table, "path", at, index)
    readonly = table.get("readonly", False)
    if not isinstance(readonly, bool):
        raise PathsError(
            f"readonly of [[cheat.paths]] {name!r} must be true or false",
            (*at, "readonly"),
            "readonly = true",
        )
    return name, path, readonly


def _non_empty(table: dict[str, object], key: str, at: tuple[str, ...], index: int) -> str:
    value = table.get(key)
    if key not in table:
        where, message = at, f"[[cheat.paths]] number {index + 1} has no {key}"
    elif not isinstance(value, str) or not value.strip():
        where, message = (*at, key), f"{key} of [[cheat.paths]] number {index + 1} must be a"
        message += " non-empty string"
    else:
        return value
    raise PathsError(message, where, f"for example: {key} = {PATH_EXAMPLES[key]}")


def configured_paths(config: Mapping[str, object], config_dir: str) -> list[Cheatpath]:
    """``[[cheat.paths]]`` of a parsed config; raises PathsError for the first bad value."""
    return [
        Cheatpath(name, os.path.normpath(os.path.join(config_dir, os.path.expanduser(path))), ro)
        for name, path, ro in check_paths(config.get("cheat", {}))
    ]


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
