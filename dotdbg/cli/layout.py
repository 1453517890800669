"""The layout of every command's help: two columns, wrapped to the terminal, never cut.

Apart from the parser because ``dotdbg cheat --help`` uses it in a dotdbg ssh session, where
only the cheat lookup's modules travel. Words are wrapped by hand (textwrap imports re).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

WIDTH = 80  # of help without a terminal; on one, its width (``width()``)

STANDARD_OPTIONS = (
    ("-h, --help", "Show this help and exit."),
    ("    --version", "Print the version."),
)


def label(names: Sequence[str], metavar: str | None) -> str:
    """``-t, --tag TAG``; a long option alone is indented to line up with those."""
    short = [name for name in names if not name.startswith("--")]
    long = [name for name in names if name.startswith("--")]
    text = ", ".join(short + long) if short else "    " + ", ".join(long)
    return f"{text} {metavar}" if metavar else text


def width() -> int:
    """Columns for help: the terminal's (or $COLUMNS), 80 without one, kept within 60..120."""
    import os

    text = os.environ.get("COLUMNS", "")
    try:
        columns = int(text) if text.isdigit() else os.get_terminal_size(1).columns
    except OSError:
        columns = WIDTH
    return max(60, min(columns, 120))


def table(rows: Sequence[tuple[str, str]], wide: int = WIDTH, column: int = 0) -> list[str]:
    """Two columns, labels then texts; a text wraps under itself, never cut."""
    column = column or min(max(len(label) for label, _ in rows) + 4, 28)
    lines = []
    for label, text in rows:
        wrapped = wrap(text, wide - column)
        if len(label) + 4 > column:
            lines.append(f"  {label}")
        else:
            lines.append(f"  {label:<{column - 2}}{wrapped.pop(0)}")
        lines += [" " * column + line for line in wrapped]
    return lines


def wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line]
