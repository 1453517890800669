"""``dotdbg --help``: the commands by section, everyday work first, each summary whole."""

from __future__ import annotations

from dotdbg.cli.layout import table, width, wrap
from dotdbg.cli.registry import SECTIONS
from dotdbg.cli.summaries import SUMMARIES

SUMMARY = "dotdbg: the shell you debug in, set up in one command."
DESCRIPTION = "Aliases, history search, pdb aliases, cheatsheets, and helpers for Python processes."
ROOT_OPTIONS = (
    ("    --verbose", "Show details of errors (their traceback)."),
    ("-h, --help", "Show this help and exit."),
    ("    --version", "Print the version."),
)


def root_help() -> str:
    wide = width()
    lines = ["usage: dotdbg [--verbose] COMMAND [ARGS]...", ""]
    lines += [*wrap(SUMMARY, wide), *wrap(DESCRIPTION, wide), ""]
    column = max(len(name) for names in SECTIONS.values() for name in names) + 4
    for section, names in SECTIONS.items():
        lines.append(f"{section}:")
        lines += table([(name, SUMMARIES[name]) for name in names], wide, column)
        lines.append("")
    lines += ["options:", *table(ROOT_OPTIONS, wide), ""]
    lines += wrap(
        "`dotdbg COMMAND --help` shows the options of each; `man dotdbg` the manual.", wide
    )
    return "\n".join(lines) + "\n"
