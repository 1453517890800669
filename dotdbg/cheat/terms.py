"""What a search term matches: literal text (the default) or a regular expression (``-r``).

Literal terms use plain string methods: ``re`` costs more to import than a whole lookup, so it
is loaded only for ``-r``. Smart-case: a term with a capital letter is case-sensitive.
"""

from __future__ import annotations

from dotdbg.errors import DotdbgError

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    import re

Span = tuple[int, int]


def has_capital(term: str, regex: bool) -> bool:
    """Does ``term`` ask for case-sensitive matching? In a regex, escapes like ``\\S`` do not."""
    if regex:
        term = _without_escapes(term)
    return term != term.lower()


def _without_escapes(pattern: str) -> str:
    kept = []
    escaped = False
    for char in pattern:
        if not escaped and char != "\\":
            kept.append(char)
        escaped = not escaped and char == "\\"
    return "".join(kept)


class Matcher:
    """One term; ``search`` says whether a text contains it, ``spans`` where."""

    def search(self, text: str) -> bool:
        raise NotImplementedError

    def spans(self, text: str) -> list[Span]:
        raise NotImplementedError


class Literal(Matcher):
    __slots__ = ("fold", "needle")

    def __init__(self, term: str) -> None:
        self.fold = not has_capital(term, regex=False)
        self.needle = term.lower() if self.fold else term

    def search(self, text: str) -> bool:
        return self.needle in (text.lower() if self.fold else text)

    def spans(self, text: str) -> list[Span]:
        haystack = text.lower() if self.fold else text
        if len(haystack) != len(text) or not self.needle:  # lower() changed the length (e.g. "İ")
            return []
        found = []
        start = haystack.find(self.needle)
        while start >= 0:
            found.append((start, start + len(self.needle)))
            start = haystack.find(self.needle, start + len(self.needle))
        return found


class Regex(Matcher):
    __slots__ = ("pattern",)

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def search(self, text: str) -> bool:
        return self.pattern.search(text) is not None

    def spans(self, text: str) -> list[Span]:
        return [
            found.span() for found in self.pattern.finditer(text) if found.end() > found.start()
        ]


def compile_term(term: str, regex: bool) -> Matcher:
    if not regex:
        return Literal(term)
    import re

    flags = 0 if has_capital(term, regex=True) else re.IGNORECASE
    try:
        return Regex(re.compile(term, flags))
    except re.error as error:
        raise DotdbgError(
            f"{term!r} is not a valid regular expression: {error}",
            hint="drop -r to search for the text literally",
        ) from None
