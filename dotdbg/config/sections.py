"""Each section of the config: the user's table merged over the defaults and validated.

Aliases, functions and pdb aliases are merged by name (``name = false`` removes a default);
[packs] switches known packs on or off; [history], [readline] and [cheat] take the keys of their
defaults. Every error is located in the user's file by a ``Checker``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from dotdbg.cheat.cheatpaths import PathsError, check_paths
from dotdbg.config import bindable
from dotdbg.config.checker import Checker, type_name
from dotdbg.config.model import Cheat, CheatPath, Fish, History, Readline
from dotdbg.config.names import ALIAS, PACK, NameRule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

READLINE_FUNCTION = r"[A-Za-z][A-Za-z0-9-]*"  # bind -l has vi-bWord
HISTCONTROL_WORDS = {"ignorespace", "ignoredups", "ignoreboth", "erasedups"}


def merge_items(
    base: Mapping[str, Any],
    over: Mapping[str, Any],
    section: str,
    value_key: str,
    rule: NameRule,
    checker: Checker,
    warnings: list[str],
    default_pack: str = "user",
    other_values: tuple[str, ...] = (),
) -> list[dict[str, str]]:
    """``other_values``: keys that may stand in for ``value_key`` (a function's zsh and fish
    bodies)."""
    """Defaults of ``section`` overridden, extended or removed (``name = false``) by the user."""
    merged: dict[str, dict[str, str]] = {
        name: {"name": name, "pack": default_pack, **spec}
        for name, spec in base.get(section, {}).items()
    }
    user_items = checker.table(over, (section,))
    for name, spec in user_items.items():
        at = (section, name)
        if spec is False:
            if merged.pop(name, None) is None:
                warnings.append(
                    f"{checker.where(at)}: {checker.dotted(at)} = false removes nothing"
                )
            continue
        item = dict(merged.get(name, {"name": name, "pack": default_pack}))
        new = name not in merged
        item.update(_user_item(spec, value_key, other_values, at, checker, new=new))
        _check_item(item, value_key, rule, section, at, checker)
        for key in other_values:
            if key in item and not item[key].strip():
                raise checker.fail(
                    (*at, key), f"{checker.dotted((*at, key))} is empty", "give it a body"
                )
        merged[name] = item
    return list(merged.values())


def _user_item(
    spec: Any,
    value_key: str,
    other_values: tuple[str, ...],
    at: tuple[str, ...],
    checker: Checker,
    new: bool,
) -> dict[str, str]:
    if isinstance(spec, str):
        desc = spec.strip().splitlines()[0] if spec.strip() else ""
        return {value_key: spec, **({"desc": desc} if new else {})}
    if not isinstance(spec, dict):
        raise checker.fail(
            at,
            f"{checker.dotted(at)} must be a string, a table or false, not {type_name(spec)}",
            f'write {at[-1]} = "..." or {at[-1]} = {{ {value_key} = "...", desc = "..." }}',
        )
    for key, value in spec.items():
        if isinstance(value, dict):  # `my.f = {…}` is TOML for a table `my` holding `f`
            raise checker.fail(
                (*at, key),
                f"{checker.dotted((*at, key))} is a table inside {checker.dotted(at)}",
                f'a name with a dot needs quotes: "{at[-1]}.{key}" = ...',
            )
    checker.known_keys(spec, (value_key, *other_values, "desc", "pack"), at)
    for key, value in spec.items():
        checker.typed(value, str, (*at, key), f'{key} = "..."')
    if new and not any(key in spec for key in (value_key, *other_values)):
        raise checker.fail(
            at, f"{checker.dotted(at)} has no {value_key}", f'add {value_key} = "..."'
        )
    item = dict(spec)
    if new and value_key not in item:
        item[value_key] = ""  # only per-shell bodies: bash (and zsh without its own) leave it out
    if new and "desc" not in item:
        first = next(item[key] for key in (value_key, *other_values) if item.get(key, "").strip())
        item["desc"] = first.strip().splitlines()[0]
    return item


def _check_item(
    item: Mapping[str, str],
    value_key: str,
    rule: NameRule,
    section: str,
    at: tuple[str, ...],
    checker: Checker,
) -> None:
    name = item["name"]
    if not rule.allows(name):
        raise checker.fail(
            at,
            f"{name!r} is not a valid {rule.kind} name in [{checker.dotted((section,))}]",
            rule.hint,
        )
    value = item[value_key]
    if not value.strip() and not any(item.get(key) for key in ("zsh", "fish")):
        raise checker.fail(
            (*at, value_key), f"{checker.dotted(at)} is empty", f"give it a {value_key}"
        )
    if value_key == "command" and ("\n" in value or "\r" in value):
        one_line = (
            "a pdb alias is one line: join pdb commands with ;;"
            if checker.prefix
            else "an alias is one line: join commands with ; or &&, or make it a [functions] entry"
        )
        raise checker.fail((*at, value_key), f"{checker.dotted(at)} contains a newline", one_line)
    if any(c in item.get("desc", "") for c in "\n\r"):
        raise checker.fail(
            (*at, "desc"), f"{checker.dotted(at)}.desc contains a newline", "keep it one line"
        )
    if not PACK.allows(item["pack"]):
        raise checker.fail((*at, "pack"), f"pack name {item['pack']!r} is invalid", PACK.hint)


def merge_packs(
    base: Mapping[str, Any],
    over: Mapping[str, Any],
    items: Sequence[Mapping[str, str]],
    checker: Checker,
) -> dict[str, bool]:
    packs = dict.fromkeys(base.get("packs", {}), True)
    packs.update({item["pack"]: True for item in items})
    for name, value in checker.table(over, ("packs",)).items():
        if name not in packs:
            import difflib  # only for a mistyped name

            close = difflib.get_close_matches(name, packs, n=1)
            raise checker.fail(
                ("packs", name),
                f"unknown pack {name!r}",
                f"did you mean {close[0]!r}?"
                if close
                else f"known packs: {', '.join(sorted(packs))}",
            )
        packs[name] = checker.typed(value, bool, ("packs", name), f"{name} = false")
    return packs


def _section(
    base: Mapping[str, Any], over: Mapping[str, Any], name: str, checker: Checker
) -> dict[str, Any]:
    defaults = dict(base[name])
    user = checker.table(over, (name,))
    checker.known_keys(user, tuple(defaults), (name,))
    for key, value in user.items():
        kind = type(defaults[key])
        checker.typed(value, kind, (name, key), f"{key} = {_example(defaults[key])}")
    return {**defaults, **user}


def _example(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{ }"
    return str(value)


def history_section(base: Mapping[str, Any], over: Mapping[str, Any], checker: Checker) -> History:
    values = _section(base, over, "history", checker)
    words = [w for w in values["control"].split(":") if w]
    for word in words:
        if word not in HISTCONTROL_WORDS:
            raise checker.fail(
                ("history", "control"),
                f"history.control has an unknown word {word!r}",
                f"use a colon-separated list of {', '.join(sorted(HISTCONTROL_WORDS))}",
            )
    for key in ("size", "file_size"):
        if values[key] < -1:
            raise checker.fail(
                ("history", key),
                f"history.{key} must be -1 (unlimited) or more, not {values[key]}",
                f"for example: {key} = {base['history'][key]}, or -1 for no limit",
            )
    return History(**values)


def readline_section(
    base: Mapping[str, Any], over: Mapping[str, Any], checker: Checker
) -> Readline:
    values = _section(base, over, "readline", checker)
    bindings = []
    for key, function in values["bindings"].items():
        at = ("readline", "bindings", key)
        checker.typed(function, str, at, '"\\\\C-x\\\\C-r" = "re-read-init-file"')
        if not is_key_sequence(key):
            raise checker.fail(
                at,
                f"readline key {key!r} is invalid",
                'write keys like "\\\\C-x\\\\C-r" or "\\\\ep"',
            )
        if not re.fullmatch(READLINE_FUNCTION, function):
            raise checker.fail(
                at,
                f"{function!r} is not a readline function name",
                "use a name from `bind -l`, e.g. history-search-backward",
            )
        _check_readline_knows(function, at, checker)
        bindings.append((key, function))
    return Readline(
        history_search=values["history_search"],
        bracketed_paste=values["bracketed_paste"],
        esc_p_n=values["esc_p_n"],
        bindings=tuple(bindings),
    )


def is_key_sequence(key: str) -> bool:
    """Whether ``key`` can stand between the double quotes of a readline binding: no quote,
    no line break, and no lone backslash at the end (it would escape the closing quote, and
    every new shell would complain)."""
    trailing_backslashes = len(key) - len(key.rstrip("\\"))
    return bool(key) and not any(c in key for c in '"\n\r') and trailing_backslashes % 2 == 0


def _check_readline_knows(function: str, at: tuple[str, ...], checker: Checker) -> None:
    """readline ignores a binding to a name it does not know, without a word: refuse it here.
    Any well-formed name passes when there is no bash to ask."""
    known = bindable.readline_functions()
    if known is None or function.lower() in known:
        return
    import difflib  # only for a mistyped name

    close = difflib.get_close_matches(function.lower(), sorted(known), n=1)
    raise checker.fail(
        at,
        f"readline has no function {function!r}",
        (f"did you mean {close[0]!r}? " if close else "") + "`bind -l` lists the names it knows",
    )


def cheat_section(base: Mapping[str, Any], over: Mapping[str, Any], checker: Checker) -> Cheat:
    values = _section(base, over, "cheat", checker)
    key_hint = (
        'a readline key sequence such as "\\\\C-g" or "\\\\eg" (no lone backslash at its '
        'end), or "" for no key'
    )
    key = values["key"]
    # A key without a backslash escape is plain typing: "C-g" would take over the letter C.
    if key and (not key.startswith("\\") or "'" in key or not is_key_sequence(key)):
        raise checker.fail(("cheat", "key"), f"cheat.key {key!r} is not a key sequence", key_hint)
    alias_hint = 'a short name such as "ch", or "" for no alias'
    if values["alias"] and not ALIAS.allows(values["alias"]):
        raise checker.fail(
            ("cheat", "alias"),
            f"cheat.alias {values['alias']!r} is not a valid alias name",
            alias_hint,
        )
    try:
        checked = check_paths(values)
    except PathsError as error:
        raise checker.fail(error.key_path, str(error), error.hint) from None
    paths = tuple(CheatPath(name=name, path=path, readonly=ro) for name, path, ro in checked)
    return Cheat(key=values["key"], alias=values["alias"], paths=paths)


def fish_section(base: Mapping[str, Any], over: Mapping[str, Any], checker: Checker) -> Fish:
    return Fish(**_section(base, over, "fish", checker))
