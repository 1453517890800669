"""The lookup rule and the ranking: pure functions of loaded sheets and the user's words.

``WORD [TERMS...]``: when WORD names a sheet (exactly, or as a unique prefix), show that sheet
narrowed to the entries containing every TERM; otherwise search every sheet for all the words.
"""

from __future__ import annotations

from dotdbg.cheat.terms import AnyOf, Matcher, compile_term, has_capital, phrases

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from dotdbg.cheat.index import SheetFile
    from dotdbg.cheat.sheets import Entry

    Rank = tuple[int, ...]
    Ranked = list[tuple[Rank, "SheetFile", Entry]]

SHEET_MODE = "sheet"
SEARCH_MODE = "search"
FALLBACK_MODE = "fallback"  # WORD named a sheet that has no hit: every sheet was searched

# How well a term matches an entry, best first; a synonym's match (dotdbg.cheat.terms) ranks
# one step after the same match of the word itself.
IN_HEAD = 0  # a whole word near the start of the comment: what the entry is about
IN_COMMENT = 2  # a whole word elsewhere in the comment, or the sheet's name
IN_COMMAND_HEAD = 3  # the command's program or its verb ("ls" in `command ls -la`)
IN_COMMAND = 4  # a whole word elsewhere in the command only
INSIDE_COMMENT = 6  # only inside a longer word ("ls" in "fails") of the comment
INSIDE_COMMAND = 8
SYNONYM = 1
HEAD = 32  # characters of the comment's first line that say what the entry is about


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
    if not isinstance(names, (dict, set)):
        names = list(names)
    if word in names:  # the usual case, without a look at each of thousands of names
        return word
    fold = not has_capital(word, regex=False)
    key = word.lower() if fold else word
    candidates = _starting_with(key, list(names), fold)
    exact = [name for name in candidates if (name.lower() if fold else name) == key]
    if exact:
        return exact[0]
    return candidates[0] if len(candidates) == 1 else None


def _starting_with(key: str, names: list[str], fold: bool) -> list[str]:
    """The names that start with ``key`` (in lower case when ``fold``), found in one string of
    them all (NUL ends each: no file name holds one): a search in thousands of sheets looks
    here for its first word."""
    joined = "\0" + "\0".join(names)
    if fold:
        joined = joined.lower()
    if "\0" in key or len(joined) != len(names) + sum(map(len, names)):  # lower() grew "İ"
        return [name for name in names if (name.lower() if fold else name).startswith(key)]
    found = []
    at = joined.find("\0" + key)
    while at >= 0:
        found.append(names[joined.count("\0", 0, at + 1) - 1])
        at = joined.find("\0" + key, at + 1)
    return found


def lookup(
    sheets: dict[str, Sheet],
    words: Sequence[str],
    regex: bool,
    phrase: str | None = None,
    every_sheet: Callable[[], dict[str, Sheet]] | None = None,
) -> Result:
    """Apply the lookup rule to ``words``; ``phrase`` (cheat's ``-s``) is one more term that
    never names a sheet, so without words it searches every sheet. When WORD names a sheet
    and none of its entries holds the other words, every sheet is searched for all the words
    (``FALLBACK_MODE``): ``python backtrace`` finds gdb's "Python backtrace". ``every_sheet``
    loads them when ``sheets`` holds only the one named."""
    extra = [] if phrase is None else [phrase]
    name = resolve_sheet(words[0], sheets) if words else None
    if name is not None:
        matchers = _matchers([*words[1:], *extra], regex)
        result = Result(SHEET_MODE, name, _sheet_groups(sheets[name], matchers), matchers)
        if result.groups or not matchers:
            return result
        sheets = sheets if every_sheet is None else every_sheet()
    matchers = _matchers([*words, *extra], regex)
    mode = SEARCH_MODE if name is None else FALLBACK_MODE
    return Result(mode, name or "", _search_groups(sheets.values(), matchers), matchers)


def _matchers(terms: Sequence[str], regex: bool) -> list[Matcher]:
    return [compile_term(term, regex) for term in (terms if regex else phrases(terms))]


def needles(terms: Sequence[str], regex: bool) -> list[tuple[str, ...] | None]:
    """For each term of a search for every one of ``terms``, the lower-case texts one of which
    a sheet's name or text holds when it may hold a hit (None: any sheet may): the sheets
    without them go undecoded (dotdbg.cheat.index.Catalog.load)."""
    return [matcher.needles() for matcher in _matchers(terms, regex)]


def everything(sheets: dict[str, Sheet]) -> Result:
    """Every entry of every sheet, by sheet name then merge order: what the picker offers."""
    groups = []
    for name in sorted(sheets):
        groups.extend(_sheet_groups(sheets[name], []))
    return Result(SEARCH_MODE, "", groups, [])


def _sheet_groups(sheet: Sheet, matchers: list[Matcher]) -> list[Group]:
    ranked: Ranked = []
    for file, entry in sheet.entries():
        rank = _rank(entry, "", matchers)
        if rank is not None:
            ranked.append(((file.rank, *rank, entry[2]), file, entry))
    return _group(ranked)


def _search_groups(sheets: Iterable[Sheet], matchers: list[Matcher]) -> list[Group]:
    ranked: Ranked = []
    for sheet in sheets:
        name = sheet.name.lower()
        for file in sheet.files:
            if not all(m.may_be_in(file.haystack) or m.may_be_in(name) for m in matchers):
                continue  # a word the sheet lacks: no need to look at its entries
            ranked += _ranked_hits(sheet, file, matchers)
    return _group(ranked)


def _ranked_hits(sheet: Sheet, file: SheetFile, matchers: list[Matcher]) -> Ranked:
    """Entries about the words first, then personal before project before the others, then
    short ones."""
    hits: Ranked = []
    for entry in sheet.entries_of(file):
        rank = _rank(entry, sheet.name, matchers)
        if rank is not None:
            length = len(entry[0]) + len(entry[1])
            hits.append(((*rank, file.rank, length, entry[2]), file, entry))
    return hits


def _rank(entry: Entry, sheet_name: str, matchers: list[Matcher]) -> Rank | None:
    """(the worst term's place, the sum of all places), or None when a term is missing."""
    lowered = f"{entry[0]}\n{entry[1]}\n{sheet_name}".lower()
    for matcher in matchers:  # a loop, not all(): a sheet's every entry passes here
        if not matcher.may_be_in(lowered):
            return None  # most entries: no need to see where each term stands
    places = []
    for matcher in matchers:
        place = _place(matcher, entry, sheet_name)
        if place is None:
            return None
        places.append(place)
    return (max(places, default=0), sum(places))


def _place(matcher: Matcher, entry: Entry, sheet_name: str) -> int | None:
    """Where ``matcher`` stands in the entry (IN_HEAD ... INSIDE_COMMAND), None if nowhere."""
    if isinstance(matcher, AnyOf):
        own = _place(matcher.direct, entry, sheet_name)
        others = [_place(other, entry, sheet_name) for other in matcher.others]
        found = [place + SYNONYM for place in others if place is not None and place <= IN_COMMAND]
        return min(found + ([] if own is None else [own]), default=None)
    comment, command, _ = entry
    in_comment = matcher.search(comment) or (sheet_name and matcher.search(sheet_name))
    if not in_comment and not matcher.search(command):
        return None
    if in_comment:
        head = matcher.word_at(comment.split("\n", 1)[0])
        if 0 <= head < HEAD:
            return IN_HEAD
        if matcher.as_word(comment) or (sheet_name and matcher.as_word(sheet_name)):
            return IN_COMMENT
    if _runs(matcher, command):
        return IN_COMMAND_HEAD
    if matcher.as_word(command):
        return IN_COMMAND
    return INSIDE_COMMENT if in_comment else INSIDE_COMMAND


def _runs(matcher: Matcher, command: str) -> bool:
    """Is the term the command's first or second word (the program, or its subcommand)?"""
    for word in command.split(None, 2)[:2]:
        word = word.lstrip("\\")
        if (0, len(word)) in matcher.spans(word):
            return True
    return False


def _group(ranked: Ranked) -> list[Group]:
    """Hits grouped by sheet file, one group (one header) each, where its best hit ranks."""
    ranked.sort(key=lambda hit: (hit[0], hit[1].name))
    groups: dict[str, Group] = {}
    for _, file, entry in ranked:
        group = groups.get(file.path)
        if group is None:
            groups[file.path] = Group(file, [entry])
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
