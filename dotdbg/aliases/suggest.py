"""Alias proposals from shell history, following the methodology's naming principles.

The more often a command is typed, the shorter its alias; every alias of one tool starts with that
tool's stem (git → g, gc, gp; ls → l, ll); and no proposed name hides an existing command, alias,
function, shell keyword or builtin. Pure: history commands and the names in use go in, proposals
come out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from dotdbg.aliases.shadows import BASH_BUILTINS, BASH_KEYWORDS
from dotdbg.aliases.shellwords import command_words, is_assignment
from dotdbg.common.output import times
from dotdbg.errors import DotdbgError

# `compgen -k; compgen -b`, as the core lists them for its shadowing warnings. Hard-coded so that
# suggesting runs no shell; a test compares them with the bash on the machine. (`.`, `:` and `[`
# are builtins too, but a proposed name has letters and digits only.)
BASH_RESERVED = BASH_KEYWORDS | BASH_BUILTINS
MIN_COUNT = 3
MIN_SAVED_PER_USE = 2
# `make` → `m` saves too little to be worth remembering another name.
MIN_COMMAND_LENGTH = 5
# Aliases are for what people type; a longer history line is a paste.
MAX_COMMAND_LENGTH = 200
_BLANK_RUN = re.compile(r"[ \t]+")
# Several lines, control characters (a pasted escape sequence would also be printed raw to the
# terminal) and bytes that were not UTF-8: not something an alias should reproduce.
_UNTYPED = re.compile("[\x00-\x08\x0a-\x1f\x7f\ufffd]")


@dataclass(frozen=True)
class Existing:
    """Names a proposal must not take: a bash lookup would find them first, or we would."""

    aliases: Mapping[str, str] = field(default_factory=dict)
    functions: frozenset[str] = frozenset()
    which: Callable[[str], str | None] = lambda name: None
    stems: Mapping[str, str] = field(default_factory=dict)  # tool → its aliases' prefix
    # Names defined where the config does not see them: aliases and functions of the shell's
    # start-up files (~/.bashrc), and dotdbg entries of a switched-off pack.
    elsewhere: frozenset[str] = frozenset()

    def taken(self, name: str) -> bool:
        return (
            name in self.aliases
            or name in self.functions
            or name in self.elsewhere
            or name in BASH_RESERVED
            or self.which(name) is not None
        )


@dataclass(frozen=True)
class Proposal:
    name: str
    command: str
    count: int

    @property
    def saved(self) -> int:
        """Keystrokes the alias would have saved over the history read."""
        return self.count * (len(self.command) - len(self.name))


@dataclass(frozen=True)
class Unused:
    """An existing alias whose command was still typed in full."""

    name: str
    command: str
    count: int

    @property
    def wasted(self) -> int:
        return self.count * (len(self.command) - len(self.name))


@dataclass(frozen=True)
class Suggestions:
    proposals: tuple[Proposal, ...]
    unused: tuple[Unused, ...]


def suggest(
    commands: Iterable[str], existing: Existing, top: int = 10, min_count: int = MIN_COUNT
) -> Suggestions:
    """``suggest_counted`` for the commands of a history, in order."""
    return suggest_counted(Counter(commands), existing, top, min_count)


def suggest_counted(
    runs: Mapping[str, int], existing: Existing, top: int = 10, min_count: int = MIN_COUNT
) -> Suggestions:
    """Up to ``top`` proposals, best saving first, and the aliases that went unused, from how
    often each command was run.

    A line that starts with an existing alias's command is not a candidate: the advice there is
    to use that alias (it is reported as unused), not to learn a second name for the same thing.
    """
    # Histories repeat themselves: work once per distinct line, weighted by its count.
    lines: Counter[str] = Counter()
    for command, uses in runs.items():
        lines[command.strip()] += uses
    unused, covered = unused_aliases(lines, existing.aliases)
    by_candidate: Counter[str] = Counter()
    for line, uses in lines.items():
        if line not in covered:
            for candidate in set(candidates(line)):
                by_candidate[candidate] += uses
    named = name_proposals(choose(by_candidate, top, min_count), existing)
    proposals = sorted(
        (p for p in named if len(p.command) - len(p.name) >= MIN_SAVED_PER_USE),
        key=lambda p: (-p.saved, p.name),
    )
    return Suggestions(tuple(proposals), unused)


def candidates(command: str) -> Iterator[str]:
    """The prefixes of ``command`` that an alias could stand for, and the whole line."""
    if _UNTYPED.search(command) or len(command) > MAX_COMMAND_LENGTH:
        return
    words, more = command_words(command)
    texts = [command[word.start : word.end] for word in words]
    prefixes = (" ".join(texts[:size]) for size in range(1, len(texts) + 1))
    yield from (prefix for prefix in prefixes if len(prefix) >= MIN_COMMAND_LENGTH)
    if more and words and len(command) >= MIN_COMMAND_LENGTH:
        yield command


def choose(counts: Mapping[str, int], top: int, min_count: int) -> list[tuple[str, int]]:
    """Greedy pick of the candidates that save the most; a pick covers its uses.

    Once ``git commit -m`` is picked, its longer forms are dropped (the alias already serves them)
    and ``git commit`` keeps only the uses that ``git commit -m`` did not cover.
    """
    left = {text: count for text, count in counts.items() if count >= min_count}
    chosen: list[tuple[str, int]] = []
    while left and len(chosen) < top:
        best = max(left, key=lambda text: (left[text] * (len(text) - 2), text))
        count = left.pop(best)
        chosen.append((best, count))
        for text in list(left):
            if _extends(text, best):
                del left[text]
            elif _extends(best, text):
                left[text] -= count
                if left[text] < min_count:
                    del left[text]
    return chosen


def _extends(longer: str, shorter: str) -> bool:
    return longer.startswith(shorter) and longer[len(shorter) : len(shorter) + 1] in (" ", "\t")


def name_proposals(chosen: Sequence[tuple[str, int]], existing: Existing) -> list[Proposal]:
    """Names for the chosen commands: most used first, so it gets the shortest free name."""
    by_use = sorted(chosen, key=lambda item: (-item[1], item[0]))
    tools = {command: _tool_and_args(command, existing.aliases) for command, _ in by_use}
    stems = tool_stems([tools[command][0] for command, _ in by_use], existing.stems)
    used: set[str] = set()
    proposals = []
    for command, count in by_use:
        tool, args = tools[command]
        name = next(
            name
            for name in name_candidates(stems[tool], _letters(tool), args)
            if name not in used and not existing.taken(name)
        )
        used.add(name)
        proposals.append(Proposal(name, command, count))
    return proposals


def learned_stems(definitions: Mapping[str, str]) -> dict[str, str]:
    """The prefix the existing aliases and functions of each tool share (git: gs gd gc → g).

    Only for tools with two names or more: one name is not yet a convention.
    """
    names_by_tool: dict[str, list[str]] = {}
    for name, command in definitions.items():
        tool, _ = _tool_and_args(command.strip().split("\n", 1)[0])
        names_by_tool.setdefault(tool, []).append(name)
    common = {tool: _common_prefix(names) for tool, names in names_by_tool.items()}
    return {
        tool: prefix
        for tool, prefix in common.items()
        if tool and prefix and len(names_by_tool[tool]) >= 2
    }


def _common_prefix(names: Sequence[str]) -> str:
    """The letters every name starts with: those the first and the last in sort order share."""
    first, last = min(names), max(names)
    pairs = enumerate(zip(first, last, strict=False))  # first is the shorter when a prefix
    size = next((i for i, (a, b) in pairs if a != b), len(first))
    return first[:size]


def tool_stems(tools: Sequence[str], learned: Mapping[str, str]) -> dict[str, str]:
    """A distinct stem per tool: the one its existing aliases share, else the shortest free
    prefix of its name, the more used tool (listed first) choosing first."""
    stems = dict(learned)
    for tool in tools:
        if tool in stems:
            continue
        letters = _letters(tool) or "x"
        taken = set(stems.values())
        stems[tool] = next(
            (letters[:size] for size in range(1, len(letters) + 1) if letters[:size] not in taken),
            letters,
        )
    return stems


def name_candidates(stem: str, tool_letters: str, args: Sequence[str]) -> Iterator[str]:
    """Names from shortest to longest: the stem, then one letter per argument, then longer stems."""
    initials = "".join(letters[0] for letters in map(_letters, map(_basename, args)) if letters)
    yield stem
    for size in range(1, len(initials) + 1):
        yield stem + initials[:size]
    for size in range(len(stem) + 1, len(tool_letters) + 1):
        yield tool_letters[:size] + initials
    for number in range(2, 1000):
        yield f"{stem}{initials}{number}"


_RC_DEFINITION = re.compile(
    r"^[ \t]*(?:alias[ \t]+(?:--?[a-z]*[ \t]+)*([^\s=]+)="  # alias ll='ls -l'
    r"|function[ \t]+([^\s(){}]+)"  # function mkcd {
    r"|([A-Za-z_][\w.:-]*)[ \t]*\(\))",  # mkcd() {
    re.MULTILINE,
)


def rc_names(text: str) -> set[str]:
    """Names a shell start-up file defines: ``alias NAME=…``, ``function NAME``, ``NAME()``.

    Read, not run: running ~/.bashrc to ask bash would cost a shell and its side effects. A
    commented-out line defines nothing.
    """
    return {next(filter(None, match.groups())) for match in _RC_DEFINITION.finditer(text)}


def _tool_and_args(command: str, aliases: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """The program ``command`` runs (``pyt …`` runs pytest when pyt is an alias), its arguments."""
    words, _ = command_words(command)
    texts = [command[word.start : word.end] for word in words]
    while len(texts) > 1 and is_assignment(texts[0]):
        texts.pop(0)
    tool = texts[0].rsplit("/", 1)[-1] if texts else command
    seen = set()
    while aliases and tool in aliases and tool not in seen:
        seen.add(tool)
        tool = _tool_and_args(aliases[tool])[0]
    return tool, texts[1:]


def _basename(word: str) -> str:
    """``/src/project`` names ``project``: the last part tells such arguments apart."""
    return word.rstrip("/").rsplit("/", 1)[-1] or word


def _letters(word: str) -> str:
    """The lowercase letters and digits of ``word`` (``--collect-only`` → ``collectonly``)."""
    return "".join(char for char in word.lower() if char.isascii() and char.isalnum())


def unused_aliases(
    lines: Mapping[str, int], aliases: Mapping[str, str]
) -> tuple[tuple[Unused, ...], set[str]]:
    """Aliases whose command was typed in full (``lines``: line → uses), and those lines.

    Each line counts for the longest alias command it starts with.
    """
    values = sorted(
        ((_squeeze(value), name) for name, value in aliases.items() if _squeeze(value)),
        key=lambda item: -len(item[0]),
    )
    counts: Counter[str] = Counter()
    covered = set()
    for line, uses in lines.items():
        squeezed = _squeeze(line)
        match = next((name for value, name in values if _starts_command(squeezed, value)), None)
        if match is not None:
            counts[match] += uses
            covered.add(line)
    found = (Unused(name, aliases[name], uses) for name, uses in counts.items())
    unused = tuple(sorted((u for u in found if u.wasted > 0), key=lambda u: (-u.wasted, u.name)))
    return unused, covered


def _starts_command(command: str, value: str) -> bool:
    return command == value or (command.startswith(value) and command[len(value)] in " ;|&)")


def _squeeze(text: str) -> str:
    return _BLANK_RUN.sub(" ", text.strip())


# -- output ----------------------------------------------------------------------------------


def pick(found: Suggestions, number: int) -> Proposal:
    """Proposal ``number`` as listed (1-based)."""
    if not 1 <= number <= len(found.proposals):
        raise DotdbgError(
            f"there is no proposal {number}; this history gives {len(found.proposals)}",
            hint="run `dotdbg suggest` (with the same --history and --top) to see the list",
        )
    return found.proposals[number - 1]


def format_suggestions(found: Suggestions, source: str, entries: int) -> str:
    lines = [f"{entries} commands in {source}", ""]
    if found.proposals:
        lines += _proposal_table(found.proposals)
        lines += ["", "add one with `dotdbg suggest --apply N`; a few at a time, then use them"]
    else:
        lines.append(f"no command was typed {MIN_COUNT} times or more that an alias would shorten")
    if found.unused:
        lines += ["", "typed in full although the alias exists:"]
        lines += [
            f"  {u.name}: {times(u.count)}, {times(u.wasted, 'keystroke')} ({u.command})"
            for u in found.unused
        ]
    return "\n".join(lines) + "\n"


def _proposal_table(proposals: Sequence[Proposal]) -> list[str]:
    rows = [("#", "alias", "uses", "saves", "command")]
    rows += [
        (str(n), p.name, str(p.count), str(p.saved), p.command) for n, p in enumerate(proposals, 1)
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    return [
        "  ".join([row[0].rjust(widths[0]), row[1].ljust(widths[1]),
                   row[2].rjust(widths[2]), row[3].rjust(widths[3]), row[4]])
        for row in rows
    ]  # fmt: skip
