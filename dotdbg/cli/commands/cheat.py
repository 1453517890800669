"""``dotdbg cheat``: it parses its own words (dotdbg.cheat.fast) and answers its own --help."""

from __future__ import annotations

from dotdbg.cli.parser import Command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def cheat(words: Sequence[str]) -> int:
    from dotdbg.cheat.fast import main

    return main(list(words))


COMMAND = Command(
    "cheat",
    "Look up cheatsheets: WORD [TERM...]; -c, --json, --edit NAME (dotdbg cheat --help).",
    cheat,  # type: ignore[arg-type]  # its words, not parsed values
    own_parser=True,
)
