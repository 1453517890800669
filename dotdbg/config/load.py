"""Load the built-in defaults and the user's TOML, merge them, validate once → frozen records.

Every error names ``file:line:col``, says what is wrong and how to fix it. Validation is pure:
``build_config`` takes parsed tables and their source texts and returns a ``Config`` or raises;
the one question it asks outside is which readline functions bash knows (``bindable``), when the
user binds keys.
Reading is in ``source``, the located checks in ``checker``, each section's merge and checks
in ``sections``, and the dataclasses in ``model``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path

from dotdbg.config import limits, parsed
from dotdbg.config.checker import Checker
from dotdbg.config.model import Alias, Config, Function, Off, PdbAlias
from dotdbg.config.names import ALIAS, FUNCTION, PDB_ALIAS
from dotdbg.config.sections import (
    cheat_section,
    fish_section,
    history_section,
    merge_items,
    merge_packs,
    readline_section,
)
from dotdbg.config.source import Source, read_user_file
from dotdbg.errors import DotdbgError
from dotdbg.paths import Paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULTS_FILE = Path(__file__).with_name("defaults.toml")


# -- reading ---------------------------------------------------------------------------------


def load_config(paths: Paths, user_text: str | None = None, cut_huge: bool = False) -> Config:
    """Defaults merged with the user's config file (or ``user_text`` in its place, to check an
    edit before it is written). ``cut_huge``: a value over ``limits.MAX_VALUE_BYTES`` is cut and
    said in ``Config.cut`` instead of refused (to show the config, never to write from it)."""
    parsed.recall(paths)
    defaults = _defaults()
    user_path = paths.config_file
    if user_text is None and user_path.exists():  # a directory there is an error, not "none"
        user_text = read_user_file(user_path)
    user = Source(user_path, user_text) if user_text is not None else None
    try:
        return build_config(defaults, user, cut_huge)
    except RecursionError:  # the reader and the checks follow the nesting level by level
        raise DotdbgError(
            "the TOML nests arrays or tables too deeply to read",
            hint="a dotdbg config needs two levels at most (e.g. [pdb.aliases]); flatten it",
            location=str(user_path),
        ) from None


def remember_tables(paths: Paths, config: Config) -> None:
    """Keep the tables of ``config``'s files for the next run (``parsed``: a look at the home
    then imports no TOML reader). Under the run lock, as the check cache."""
    parsed.remember(paths, [origin.text for origin in config.origins])


# defaults.toml is read and parsed once per process (install and an edit load the config twice).
# The parsed tables are shared: build_config copies what it changes.
@functools.cache
def _defaults() -> Source:
    return Source(DEFAULTS_FILE, DEFAULTS_FILE.read_text(encoding="utf-8"))


@functools.cache
def _parsed_defaults() -> dict[str, Any]:
    return _defaults().parse()


# -- merging and validation --------------------------------------------------------------------

TOP_LEVEL = ("packs", "aliases", "functions", "history", "readline", "pdb", "cheat", "fish")
SHELL_BODIES = ("zsh", "fish")  # a function's bodies for the shells that cannot use its bash one


def build_config(defaults: Source, user: Source | None, cut_huge: bool = False) -> Config:
    base = _parsed_defaults() if defaults is _defaults() else defaults.parse()
    over = user.parse() if user else {}
    checker = Checker(user or defaults)
    checker.no_nul(over, ())
    if not cut_huge:
        limits.refuse_huge(over, checker)
    cut = limits.cut_huge(over, checker)
    checker.known_keys(over, TOP_LEVEL, ())
    warnings: list[str] = []
    aliases = merge_items(base, over, "aliases", "command", ALIAS, checker, warnings)
    functions = merge_items(
        base, over, "functions", "body", FUNCTION, checker, warnings, other_values=SHELL_BODIES
    )
    pdb = merge_items(
        base.get("pdb", {}),
        checker.table(over, ("pdb",)),
        "aliases",
        "command",
        PDB_ALIAS,
        checker.nested("pdb"),
        warnings,
        default_pack="pdb",
    )
    checker.known_keys(checker.table(over, ("pdb",)), ("aliases",), ("pdb",))
    packs = merge_packs(base, over, [*aliases, *functions, *pdb], checker)
    enabled = dict(packs)
    _check_unique(aliases, functions, enabled, checker, over)
    cheat = cheat_section(base, over, checker)
    _check_cheat_alias(cheat.alias, [*aliases, *functions], enabled, checker, over)
    user_functions = checker.table(over, ("functions",))
    user_keys = {key: _names_setting(user_functions, key) for key in ("body", *SHELL_BODIES)}
    pdb_base = base.get("pdb", {}).get("aliases", {})
    merged = {
        "aliases": (base.get("aliases", {}), aliases, "command", "user"),
        "functions": (base.get("functions", {}), functions, "body", "user"),
        "pdb.aliases": (pdb_base, pdb, "command", "pdb"),
    }
    return Config(
        packs=tuple(sorted(packs.items())),
        aliases=tuple(Alias(**item) for item in aliases if enabled[item["pack"]]),
        functions=tuple(
            Function(
                **item,
                user_keys=frozenset(
                    key for key, names in user_keys.items() if item["name"] in names
                ),
            )
            for item in functions
            if enabled[item["pack"]]
        ),
        pdb_aliases=tuple(PdbAlias(**item) for item in pdb if enabled[item["pack"]]),
        history=history_section(base, over, checker) if enabled.get("history", True) else None,
        readline=readline_section(base, over, checker) if enabled.get("readline", True) else None,
        cheat=cheat,
        sources=(defaults.path, *([user.path] if user else [])),
        fish=fish_section(base, over, checker),
        switched_off=tuple(
            off
            for section, parts in merged.items()
            for off in _switched_off(section, *parts, enabled)
        ),
        default_names=tuple((section, frozenset(parts[0])) for section, parts in merged.items()),
        warnings=tuple(warnings),
        cut=cut,
        origins=(defaults, *([user] if user else [])),
    )


def _switched_off(
    section: str,
    defaults: Mapping[str, Any],
    items: Sequence[Mapping[str, str]],
    value_key: str,
    default_pack: str,
    enabled: Mapping[str, bool],
) -> list[Off]:
    """The entries of ``section`` kept out: defaults the user removed, entries of off packs."""
    kept = {item["name"] for item in items}
    removed = [
        Off(section, name, spec.get("pack", default_pack), spec[value_key], removed=True)
        for name, spec in defaults.items()
        if name not in kept
    ]
    packed_off = [
        Off(section, item["name"], item["pack"], item[value_key], removed=False)
        for item in items
        if not enabled[item["pack"]]
    ]
    return removed + packed_off


def _names_setting(items: Mapping[str, Any], value_key: str) -> set[str]:
    """The names in a user's [aliases] or [functions] whose ``value_key`` the user writes
    (the short form, ``name = "…"``, writes the main one: body or command)."""
    short = value_key in ("body", "command")
    return {
        name
        for name, spec in items.items()
        if (short and isinstance(spec, str)) or (isinstance(spec, dict) and value_key in spec)
    }


def _check_cheat_alias(
    name: str,
    items: Sequence[Mapping[str, str]],
    enabled: Mapping[str, bool],
    checker: Checker,
    over: Mapping[str, Any],
) -> None:
    """The cheatsheet shortcut is defined after the aliases and functions: it would hide one of
    the same name without a word."""
    if not any(item["name"] == name and enabled[item["pack"]] for item in items):
        return
    section = next((s for s in ("aliases", "functions") if name in over.get(s, {})), "")
    raise checker.fail(
        (section, name) if section else ("cheat", "alias"),
        f"{name} is both the cheatsheet shortcut ([cheat] alias) and an alias or function",
        'rename one of them, or set alias = "" under [cheat] for no shortcut',
    )


def _check_unique(
    aliases: Sequence[Mapping[str, str]],
    functions: Sequence[Mapping[str, str]],
    enabled: Mapping[str, bool],
    checker: Checker,
    over: Mapping[str, Any],
) -> None:
    alias_names = {item["name"] for item in aliases if enabled[item["pack"]]}
    for item in functions:
        if enabled[item["pack"]] and item["name"] in alias_names:
            name = item["name"]
            section = "aliases" if name in over.get("aliases", {}) else "functions"
            raise checker.fail(
                (section, name),
                f"{name} is both an alias and a function",
                f"remove one of them, e.g. aliases.{name} = false",
            )
