"""The lookup rule and the ranking: pure functions of loaded sheets and the user's words.

``WORD [TERMS...]``: when WORD names a sheet (exactly, or as a unique prefix), show that sheet
narrowed to the entries containing every TERM; otherwise search every sheet for all the words.
"""

from __future__ import annotations

from dotdbg.cheat.terms import Matcher, compile_term, has_capital

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from dotdbg.cheat.index import SheetFile
    from dotdbg.cheat.sheets import Entry

SHEET_MODE = "sheet"
SEARCH_MODE = "search"


class Sheet:
    """All files of one sheet name, in merge order, with repeated entries dropped."""

    __slots__ = ("files", "name")

    def __init__(self, name: str, files: list[SheetFile]) -> None:
        self.name = name
        self.files = files

    @property
    def tags(self) -> list[str]:
        return list(dict.fromkeys(tag for file in self.files for tag in file.tags))

    @property
    def labels(self) -> list[str]:
        return [file.label for file in self.files]

    def entries(self) -> Iterator[tuple[SheetFile, Entry]]:
        seen: set[tuple[str, str]] = set()
        for file in self.files:
            for entry in file.entries:
                if (entry[0], entry[1]) not in seen:
                    seen.add((entry[0], entry[1]))
                    yield file, entry

    def entries_of(self, file: SheetFile) -> Iterator[Entry]:
        """``file``'s entries that no file before it in merge order has word for word."""
        earlier = {(e[0], e[1]) for f in self.files[: self.files.index(file)] for e in f.entries}
        for entry in file.entries:
            if (entry[0], entry[1]) not in earlier:
                earlier.add((entry[0], entry[1]))
                yield entry


class Group:
    """The hits of one sheet file: what the output prints under one header."""

    __slots__ = ("file", "hits")

    def __init__(self, file: SheetFile, hits: list[Entry]) -> None:
        self.file = file
        self.hits = hits


class Result:
    __slots__ = ("groups", "matchers", "mode", "sheet")

    def __init__(self, mode: str, sheet: str, groups: list[Group], matchers: list[Matcher]) -> None:
        self.mode = mode
        self.sheet = sheet  # the sheet shown in sheet mode, "" in search mode
        self.groups = groups
        self.matchers = matchers


def merge(files: Iterable[SheetFile]) -> dict[str, Sheet]:
    """Sheets by name; ``files`` come in merge order, and each sheet keeps that order."""
    sheets: dict[str, Sheet] = {}
    for file in files:
        sheet = sheets.get(file.name)
        if sheet is None:
            sheets[file.name] = Sheet(file.name, [file])
        else:
            sheet.files.append(file)
    return sheets


def with_tags(sheets: dict[str, Sheet], tags: Sequence[str]) -> dict[str, Sheet]:
    wanted = {tag.lower() for tag in tags}
    return {
        name: sheet
        for name, sheet in sheets.items()
        if wanted <= {tag.lower() for tag in sheet.tags}
    }


# -- the lookup rule -------------------------------------------------------------------------
def resolve_sheet(word: str, names: Iterable[str]) -> str | None:
    """The sheet WORD names: an exact name, or the only name it is a prefix of."""
    fold = not has_capital(word, regex=False)
    key = word.lower() if fold else word
    candidates = [name for name in names if (name.lower() if fold else name).startswith(key)]
    exact = [name for name in candidates if (name.lower() if fold else name) == key]
    if exact:
        return exact[0]
    return candidates[0] if len(candidates) == 1 else None


def lookup(
    sheets: dict[str, Sheet], words: Sequence[str], regex: bool, phrase: str | None = None
) -> Result:
    """Apply the lookup rule to ``words``; ``phrase`` (cheat's ``-s``) is one more term that
    never names a sheet, so without words it searches every sheet."""
    extra = [] if phrase is None else [phrase]
    name = resolve_sheet(words[0], sheets) if words else None
    if name is not None:
        matchers = [compile_term(term, regex) for term in [*words[1:], *extra]]
        return Result(SHEET_MODE, name, _sheet_groups(sheets[name], matchers), matchers)
    matchers = [compile_term(term, regex) for term in [*words, *extra]]
    return Result(SEARCH_MODE, "", _search_groups(sheets.values(), matchers), matchers)


def may_match(terms: Sequence[str], regex: bool) -> Callable[[str, str], bool]:
    """Whether a sheet (its name, its text in lower case) can hold a hit of a search for every
    term; False lets the sheet go undecoded."""
    matchers = [compile_term(term, regex) for term in terms]

    def check(name: str, lowered: str) -> bool:
        name = name.lower()
        return all(m.may_be_in(lowered) or m.may_be_in(name) for m in matchers)

    return check


def everything(sheets: dict[str, Sheet]) -> Result:
    """Every entry of every sheet, by sheet name then merge order: what the picker offers."""
    groups = []
    for name in sorted(sheets):
        groups.extend(_sheet_groups(sheets[name], []))
    return Result(SEARCH_MODE, "", groups, [])


def _sheet_groups(sheet: Sheet, matchers: list[Matcher]) -> list[Group]:
    ranked: list[tuple[tuple[int, ...], SheetFile, Entry]] = []
    for file, entry in sheet.entries():
        tier = _tier(entry, "", matchers)
        if tier is not None:
            parts = _not_as_words(entry, "", matchers)
            ranked.append(((file.rank, parts, tier, entry[2]), file, entry))
    return _group(ranked)


def _search_groups(sheets: Iterable[Sheet], matchers: list[Matcher]) -> list[Group]:
    ranked: list[tuple[tuple[int, ...], SheetFile, Entry]] = []
    for sheet in sheets:
        name = sheet.name.lower()
        for file in sheet.files:
            if not all(m.may_be_in(file.haystack) or m.may_be_in(name) for m in matchers):
                continue  # a word the sheet lacks: no need to look at its entries
            ranked += _ranked_hits(sheet, file, matchers)
    return _group(ranked, split_at=0)


def _ranked_hits(
    sheet: Sheet, file: SheetFile, matchers: list[Matcher]
) -> list[tuple[tuple[int, ...], SheetFile, Entry]]:
    """Whole-word hits first, then hits with the words in the comment, then short ones."""
    hits: list[tuple[tuple[int, ...], SheetFile, Entry]] = []
    for entry in sheet.entries_of(file):
        tier = _tier(entry, sheet.name, matchers)
        if tier is not None:
            length = len(entry[0]) + len(entry[1])
            parts = _not_as_words(entry, sheet.name, matchers)
            hits.append(((parts, tier, file.rank, length, entry[2]), file, entry))
    return hits


def _not_as_words(entry: Entry, sheet_name: str, matchers: list[Matcher]) -> int:
    """How many terms match only inside longer words ("ls" in "failures")."""
    texts = (entry[0], entry[1], sheet_name)
    return sum(not any(m.as_word(text) for text in texts) for m in matchers)


def _tier(entry: Entry, sheet_name: str, matchers: list[Matcher]) -> int | None:
    """None when some term is missing; else how many terms matched only in the command."""
    comment, command, _ = entry
    only_in_command = 0
    for matcher in matchers:
        if matcher.search(comment) or (sheet_name and matcher.search(sheet_name)):
            continue
        if not matcher.search(command):
            return None
        only_in_command += 1
    return only_in_command


def _group(
    ranked: list[tuple[tuple[int, ...], SheetFile, Entry]], split_at: int = -1
) -> list[Group]:
    """Hits grouped by sheet file; a group sits where its best hit ranks. With ``split_at``,
    hits whose rank differs at that position go to separate groups of the same file (whole-
    word hits apart from hits inside longer words, which come after every other sheet's)."""
    ranked.sort(key=lambda hit: (hit[0], hit[1].name))
    groups: dict[tuple[str, int], Group] = {}
    for rank, file, entry in ranked:
        key = (file.path, rank[split_at] > 0 if split_at >= 0 else 0)
        group = groups.get(key)
        if group is None:
            groups[key] = Group(file, [entry])
        else:
            group.hits.append(entry)
    return list(groups.values())


def suggestions(word: str, names: Iterable[str]) -> list[str]:
    """Sheet names the user may have meant by ``word``."""
    import difflib

    names = sorted(names)
    by_prefix = [name for name in names if name.lower().startswith(word.lower())]
    close = difflib.get_close_matches(word.lower(), names, n=3, cutoff=0.6)
    return list(dict.fromkeys(by_prefix[:5] + close))
