"""What a search term matches: literal text (the default) or a regular expression (``-r``).

Literal terms use plain string methods: ``re`` costs more to import than a whole lookup, so it
is loaded only for ``-r``. Smart-case: a term with a capital letter is case-sensitive.
"""

from __future__ import annotations

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

    def as_word(self, text: str) -> bool:
        """Does the term stand in ``text`` as a whole word ("ls", not inside "failures")?"""
        return any(_bounded(text, start, end) for start, end in self.spans(text))

    def may_be_in(self, lowered: str) -> bool:
        """False only when the term is surely not in the text ``lowered`` is the lower case of."""
        return True


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _bounded(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    word = text[start:end]
    starts = not (_is_word_char(before) and _is_word_char(word[:1]))
    ends = not (_is_word_char(after) and _is_word_char(word[-1:]))
    return starts and ends


class Literal(Matcher):
    __slots__ = ("fold", "needle")

    def __init__(self, term: str) -> None:
        self.fold = not has_capital(term, regex=False)
        self.needle = term.lower() if self.fold else term

    def search(self, text: str) -> bool:
        return self.needle in (text.lower() if self.fold else text)

    def may_be_in(self, lowered: str) -> bool:
        return (self.needle if self.fold else self.needle.lower()) in lowered

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
        from dotdbg.errors import DotdbgError

        raise DotdbgError(
            f"{term!r} is not a valid regular expression: {error}",
            hint="drop -r to search for the text literally",
        ) from None
