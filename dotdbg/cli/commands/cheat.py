"""``dotdbg cheat``: it parses its own words (dotdbg.cheat, which also runs in a dotdbg
ssh session without the rest of dotdbg); its options are defined once, in
dotdbg.cheat.options, and shown here for the man page and TAB completion."""

from __future__ import annotations

from dotdbg.cheat.options import COLOR_CHOICES, DESCRIPTION, OPTIONS, SUMMARY, USAGE_LINE
from dotdbg.cli.parser import Argument, Command, Option, choice

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def cheat(words: Sequence[str]) -> int:
    from dotdbg.cheat import main

    return main(list(words))


def _option(names: tuple[str, ...], metavar: str, text: str) -> Option:
    convert = choice(*COLOR_CHOICES) if "--color" in names else None
    return Option(names, text, metavar=metavar or None, convert=convert)


COMMAND = Command(
    "cheat",
    SUMMARY,
    cheat,  # type: ignore[arg-type]  # its words, not parsed values
    options=[_option(*option) for option in OPTIONS],
    arguments=[
        Argument("word", "A sheet's name (or its unique start), else a word to search for."),
        Argument("terms", "Words every shown entry contains.", metavar="TERM", many=True),
    ],
    description=DESCRIPTION,
    usage=USAGE_LINE,
    own_parser=True,
)
