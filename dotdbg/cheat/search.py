"""What a run with options asks of the sheets beyond a lookup: tags, every entry for the picker.
The lookup rule and the ranking are in
dotdbg.cheat.fast, the warm path.
"""

from __future__ import annotations

from dotdbg.cheat.fast import SEARCH_MODE, Result, Sheet, sheet_groups

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Sequence


def with_tags(sheets: dict[str, Sheet], tags: Sequence[str]) -> dict[str, Sheet]:
    wanted = {tag.lower() for tag in tags}
    return {
        name: sheet
        for name, sheet in sheets.items()
        if wanted <= {tag.lower() for tag in sheet.tags}
    }


def everything(sheets: dict[str, Sheet]) -> Result:
    """Every entry of every sheet, by sheet name then merge order: what the picker offers."""
    groups = []
    for name in sorted(sheets):
        groups.extend(sheet_groups(sheets[name], []))
    return Result(SEARCH_MODE, "", groups, [])
