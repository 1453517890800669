"""The name rules: one pattern and one hint per kind of name (alias, function, pdb alias,
pack), shared by the config's validation and the commands that add entries."""

from __future__ import annotations

import re

from dotdbg.common.record import Record


class NameRule(Record):
    kind: str  # as the messages say it: "alias", "function", "pdb alias", "pack"
    pattern: str  # a regular expression, compiled at its first use (re's own cache)
    hint: str  # how to write a valid one

    def allows(self, name: str) -> bool:
        return re.fullmatch(self.pattern, name) is not None


ALIAS = NameRule(
    "alias",
    r"[A-Za-z0-9_][A-Za-z0-9_.:+@%^,-]*",
    "use letters, digits, _ and . : + - @ % ^ , (not one of . : + - @ % ^ , first); "
    "no spaces, quotes, / $ =",
)
FUNCTION = NameRule(
    "function",
    r"[A-Za-z_][A-Za-z0-9_.:-]*",
    "use letters, digits, _ and . : - (a letter or _ first); no spaces, quotes, / $ =",
)
PDB_ALIAS = NameRule(
    "pdb alias",
    r"[A-Za-z_][A-Za-z0-9_]*",
    "use letters, digits and _ (a letter or _ first)",
)
PACK = NameRule("pack", r"[a-z0-9][a-z0-9_-]*", "use lower-case letters, digits, - and _")

BY_SECTION = {"aliases": ALIAS, "functions": FUNCTION, "pdb.aliases": PDB_ALIAS}
