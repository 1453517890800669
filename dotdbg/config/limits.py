"""How big a value of the user's config may be: 64 KiB, far above any alias or function.

A 10 MiB alias is valid TOML, but it would go into every shell's start-up file, and each
command that shows or checks it would spend seconds on it. So every command that renders,
installs or expands refuses it at ``file:line:col`` with its size and what to do instead;
``dotdbg aliases`` lists the rest and shows that one cut, with the same words as a warning.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping

from dotdbg.common.sizes import short_size
from dotdbg.config.checker import Checker
from dotdbg.errors import DotdbgError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_VALUE_BYTES = 64 * 1024
SHOWN_CHARS = 60  # of a value too big, in `dotdbg aliases`
HINT = "put the long part in a script on your PATH and call that script from here"


def refuse_huge(over: MutableMapping[str, Any], checker: Checker) -> None:
    """A DotdbgError for the first value over the limit."""
    for key_path, size in _huge(over, ()):
        raise _too_big(checker, key_path, size)


def cut_huge(over: MutableMapping[str, Any], checker: Checker) -> tuple[str, ...]:
    """Each value over the limit cut to its first characters, in place; what was cut, one
    line each (the same words as ``refuse_huge``'s error)."""
    said = []
    for key_path, size in list(_huge(over, ())):
        error = _too_big(checker, key_path, size)
        said.append(f"{error.location}: {error.message}: shown cut")
        _cut(over, key_path, size)
    return tuple(said)


def _too_big(checker: Checker, key_path: tuple[str, ...], size: int) -> DotdbgError:
    return checker.fail(
        key_path,
        f"{checker.dotted(key_path)} is {size:,} bytes; a config value may hold "
        f"{MAX_VALUE_BYTES:,} ({short_size(MAX_VALUE_BYTES)})",
        HINT,
    )


def _huge(data: Any, key_path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], int]]:
    """The paths of the strings over the limit, with their size in bytes (UTF-8)."""
    if isinstance(data, str):
        if len(data) * 4 > MAX_VALUE_BYTES:  # no encoding for what cannot be over it
            size = len(data.encode("utf-8", "surrogatepass"))
            if size > MAX_VALUE_BYTES:
                yield key_path, size
    elif isinstance(data, dict):
        for key, inner in data.items():
            yield from _huge(inner, (*key_path, key))
    elif isinstance(data, list):
        for index, inner in enumerate(data):
            yield from _huge(inner, (*key_path, str(index)))


def _cut(data: Any, key_path: tuple[str, ...], size: int) -> None:
    """The string at ``key_path`` replaced by its first characters and its size."""
    *outer, last = key_path
    for key in outer:
        data = data[int(key)] if isinstance(data, list) else data[key]
    at: Any = int(last) if isinstance(data, list) else last
    data[at] = f"{data[at][:SHOWN_CHARS]}… ({short_size(size)}, cut)"
