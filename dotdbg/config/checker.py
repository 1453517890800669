"""Checks on the user's TOML tables that fail with an error located in the user's file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dotdbg.errors import DotdbgError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from dotdbg.config.source import Source


class Checker:
    """Type and name checks on the user's tables, raising errors located in the user's file."""

    def __init__(self, source: Source, prefix: tuple[str, ...] = ()) -> None:
        self.source = source
        self.prefix = prefix

    def nested(self, *keys: str) -> Checker:
        return Checker(self.source, self.prefix + keys)

    def fail(self, key_path: Sequence[str], message: str, hint: str) -> DotdbgError:
        return DotdbgError(message, hint=hint, location=self.where(key_path))

    def where(self, key_path: Sequence[str]) -> str:
        return self.source.where((*self.prefix, *key_path))

    def dotted(self, key_path: Sequence[str]) -> str:
        """The full dotted name of a key, as the user wrote it (``pdb.aliases.pl``)."""
        return _dotted((*self.prefix, *key_path))

    def table(self, data: Mapping[str, Any], key_path: tuple[str, ...]) -> dict[str, Any]:
        value: Any = data
        for key in key_path:
            value = value.get(key, {}) if isinstance(value, dict) else {}
        if not isinstance(value, dict):
            name = self.dotted(key_path)
            raise self.fail(
                key_path,
                f"{name} must be a table, not {type_name(value)}",
                f"write a [{name}] line, then one `name = value` line per entry under it",
            )
        return value

    def no_nul(self, value: Any, key_path: tuple[str, ...]) -> None:
        """Refuse NUL characters anywhere: bash drops them, so the alias would not be the text."""
        if isinstance(value, str) and "\x00" in value:
            raise self.fail(
                key_path,
                f"{self.dotted(key_path)} contains a NUL character (\\u0000)",
                "remove it: bash cannot hold NUL in a command",
            )
        if isinstance(value, dict):
            for key, inner in value.items():
                if "\x00" in key:  # a quoted key can hold "\u0000" too
                    raise self.fail(
                        key_path,
                        f"a name in {self.dotted(key_path)} contains a NUL character (\\u0000)",
                        "remove it from the name",
                    )
                self.no_nul(inner, (*key_path, key))
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                self.no_nul(inner, (*key_path, str(index)))

    def known_keys(
        self, data: Mapping[str, Any], allowed: Sequence[str], at: tuple[str, ...]
    ) -> None:
        for key in data:
            if key not in allowed:
                import difflib  # only for a mistyped key

                close = difflib.get_close_matches(key, allowed, n=1)
                hint = (
                    f"did you mean {close[0]!r}?" if close else f"known keys: {', '.join(allowed)}"
                )
                raise self.fail((*at, key), f"unknown key {self.dotted((*at, key))!r}", hint)

    def typed(self, value: Any, kind: type, key_path: Sequence[str], example: str) -> Any:
        if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
            raise self.fail(
                key_path,
                f"{self.dotted(key_path)} must be {_KIND_NAMES[kind]}, not {type_name(value)}",
                f"for example: {example}",
            )
        return value


_KIND_NAMES = {
    str: "a string",
    bool: "true or false",
    int: "an integer",
    dict: "a table",
    list: "a list",
}


def type_name(value: Any) -> str:
    return {
        bool: "a boolean",
        int: "an integer",
        float: "a float",
        str: "a string",
        list: "a list",
        dict: "a table",
    }.get(type(value), f"a {type(value).__name__}")


def _dotted(key_path: Sequence[str]) -> str:
    return ".".join(key_path)
