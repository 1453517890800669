"""What a search term matches: literal text (the default) or a regular expression (``-r``).

Literal terms use plain string methods: ``re`` costs more to import than a whole lookup, so it
is loaded only for ``-r``. Smart-case: a term with a capital letter is case-sensitive.

A literal term also matches the words the sheets use for the same thing (``SYNONYMS``): a user
who types "stuck" means the entries about a hung process. Such a match ranks after one of the
word itself. A key of several words stands for those words typed in a row ("memory leak").
"""

from __future__ import annotations

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    import re
    from collections.abc import Sequence

    Span = tuple[int, int]

# What a user types -> what the sheets say for it; keys in lower case.
SYNONYMS = {
    "stuck": ("hung", "hang", "hangs", "deadlock"),
    "hang": ("hung", "hangs", "stuck", "deadlock"),
    "hung": ("hang", "hangs", "stuck", "deadlock"),
    "freeze": ("hung", "hang", "stuck"),
    "frozen": ("hung", "hang", "stuck"),
    "deadlock": ("hung", "hang", "hangs", "stuck", "deadlocks"),
    "race condition": ("race", "races", "racy"),
    "memory leak": ("leak", "leaks", "leaking"),
    "leak": ("leaks", "leaking"),
    "single gpu": ("one gpu", "only gpu", "CUDA_VISIBLE_DEVICES"),
    "one gpu": ("single gpu", "only gpu", "CUDA_VISIBLE_DEVICES"),
    "no gpu": ("hide every gpu", "without a gpu", "cpu code path", "cpu only"),
    "right file": ("which file", "break it on purpose"),
    "console script": ("console_scripts", "entry point", "entry-point", "project.scripts"),
    "entry point": ("console_scripts", "entry-point", "console script", "project.scripts"),
    "umount": ("unmount",),
    "unmount": ("umount",),
    "segfault": ("segmentation fault", "SIGSEGV"),
    "oom": ("out of memory", "OutOfMemoryError"),
}
LONGEST_KEY = max(len(key.split()) for key in SYNONYMS)


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
        return self.word_at(text) >= 0

    def word_at(self, text: str) -> int:
        """Where the term first stands in ``text`` as a whole word; -1 if nowhere."""
        return next((start for start, end in self.spans(text) if _bounded(text, start, end)), -1)

    def may_be_in(self, lowered: str) -> bool:
        """False only when the term is surely not in the text ``lowered`` is the lower case of."""
        return True

    def needles(self) -> tuple[str, ...] | None:
        """Lower-case texts one of which a text holds when the term may be in it (None: no
        such texts, any text may hold it): what ``may_be_in`` looks for."""
        return None


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _bounded(text: str, start: int, end: int) -> bool:
    """Does ``text[start:end]`` stand alone: no letter or digit glued to either end? A term of
    punctuation stands alone too only when no word touches it (``":"``, not ``demand:``)."""
    before = text[start - 1] if start else " "
    after = text[end] if end < len(text) else " "
    return not _is_word_char(before) and not _is_word_char(after)


class Literal(Matcher):
    __slots__ = ("fold", "lowered", "needle")

    def __init__(self, term: str) -> None:
        self.fold = not has_capital(term, regex=False)
        self.needle = term.lower() if self.fold else term
        self.lowered = term.lower()

    def search(self, text: str) -> bool:
        return self.needle in (text.lower() if self.fold else text)

    def may_be_in(self, lowered: str) -> bool:
        return self.lowered in lowered

    def needles(self) -> tuple[str, ...]:
        return (self.lowered,)

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


class AnyOf(Matcher):
    """A literal term or one of its synonyms; ``direct`` is the term itself. A synonym counts
    only as a whole word: "race" for "race condition", not the "race" in "trace"."""

    __slots__ = ("direct", "others")

    def __init__(self, direct: Literal, others: Sequence[Literal]) -> None:
        self.direct = direct
        self.others = tuple(others)

    def search(self, text: str) -> bool:
        return self.direct.search(text) or any(other.search(text) for other in self.others)

    def spans(self, text: str) -> list[Span]:
        """The term's own matches, and its synonyms' where they stand as whole words."""
        found = self.direct.spans(text)
        for other in self.others:
            found += [span for span in other.spans(text) if _bounded(text, *span)]
        return found

    def may_be_in(self, lowered: str) -> bool:
        return any(one.may_be_in(lowered) for one in (self.direct, *self.others))

    def needles(self) -> tuple[str, ...]:
        return tuple(needle for one in (self.direct, *self.others) for needle in one.needles())


def phrases(words: Sequence[str]) -> list[str]:
    """``words`` with each run of words that is a key of SYNONYMS joined into one term."""
    terms: list[str] = []
    index = 0
    while index < len(words):
        for size in range(min(LONGEST_KEY, len(words) - index), 1, -1):
            phrase = " ".join(words[index : index + size])
            if phrase.lower() in SYNONYMS:
                terms.append(phrase)
                index += size
                break
        else:
            terms.append(words[index])
            index += 1
    return terms


def compile_term(term: str, regex: bool) -> Matcher:
    if not regex:
        others = SYNONYMS.get(term.lower(), ())
        return (
            AnyOf(Literal(term), [Literal(other) for other in others]) if others else Literal(term)
        )
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
