"""The ``[[cheat.paths]]`` tables of the config file: their one check, and reading them.

``dotdbg install`` (config loading) and ``dotdbg cheat`` (when the config changed) both check
them here. Where sheets come from and in what order is dotdbg.cheat.fast's (the warm path).
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping

    PathRecord = tuple[str, str, bool]  # label, directory, readonly: a Cheatpath's fields

PATH_KEYS = ("name", "path", "readonly")
PATH_EXAMPLE = '[[cheat.paths]]\nname = "community"\npath = "~/src/cheatsheets"'
PATH_EXAMPLES = {"name": '"community"', "path": '"~/src/cheatsheets"'}
# The labels dotdbg gives its own places (dotdbg.cheat.fast's PERSONAL, PROJECT and BUILTIN: not
# imported, config loading needs no lookup; a test holds them equal): a configured path named
# so could not be told apart.
RESERVED_LABELS = ("personal", "project", "builtin")


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


def configured_paths(config: Mapping[str, object], config_dir: str) -> list[PathRecord]:
    """(label, directory, readonly) of each ``[[cheat.paths]]`` of a parsed config (the
    fields of a dotdbg.cheat.fast.Cheatpath); raises PathsError for the first bad value."""
    return [
        (name, os.path.normpath(os.path.join(config_dir, os.path.expanduser(path))), ro)
        for name, path, ro in check_paths(config.get("cheat", {}))
    ]


def read_configured_paths(path: str) -> list[PathRecord]:
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
