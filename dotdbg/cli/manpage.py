"""The man pages, derived from the registry: ``dotdbg(1)``, ``dotdbg-NAME(1)`` for every command
and ``NAME(1)`` for every helper script.

The wheel's build writes them (hatch_build.py) as shared data in ``share/man/man1``, which pip
and pipx put beside the venv's ``bin``: man-db finds them through PATH. Being written from the
definitions at each build, they cannot drift from them. ``python -m dotdbg.cli.manpage DIR``
writes them into DIR, to read one before a build (``man -l DIR/dotdbg-cheat.1``).
"""

from __future__ import annotations

from dotdbg.cli.parser import Command, Group, usage
from dotdbg.cli.registry import COMMANDS, HELPERS, SECTIONS
from dotdbg.cli.roothelp import DESCRIPTION, ROOT_OPTIONS, SUMMARY

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


def text(value: str) -> str:
    """A line of roff that shows ``value`` as it is: backslashes, leading dots and quotes."""
    value = value.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + value if value[:1] in (".", "'") else value


def pages() -> dict[str, str]:
    """File name -> its text, every page."""
    from dotdbg.cli.registry import command

    found = {"dotdbg.1": root_page()}
    for name in COMMANDS:
        found[f"dotdbg-{name}.1"] = command_page(command(name), f"dotdbg {name}")
    for name in HELPERS:
        found[f"{name}.1"] = command_page(command(name), name)
    return found


def _header(title: str, summary: str) -> list[str]:
    return [
        f'.TH "{title.upper()}" 1 "" "dotdbg" "dotdbg manual"',
        ".SH NAME",
        f"{text(title)} \\- {text(summary)}",
    ]


def root_page() -> str:
    from dotdbg.cli.registry import command

    lines = _header("dotdbg", SUMMARY.removeprefix("dotdbg: "))
    lines += [".SH SYNOPSIS", ".B dotdbg", "[\\-\\-verbose] COMMAND [ARGS]...", ".SH DESCRIPTION"]
    lines.append(text(DESCRIPTION))
    lines.append(".SH COMMANDS")
    for section, names in SECTIONS.items():
        lines += [".SS " + text(section)]
        for name in names:
            lines += [".TP", f".B dotdbg {text(name)}", text(command(name).summary)]
        lines.append(".PP")
        lines.append("See " + ", ".join(text(f"dotdbg-{name}(1)") for name in names) + ".")
    lines += [".SH OPTIONS", *_rows(ROOT_OPTIONS)]
    return "\n".join(lines) + "\n"


def command_page(definition: Command | Group, prog: str) -> str:
    title = prog.replace(" ", "-")
    lines = _header(title, definition.summary)
    if isinstance(definition, Group):
        for name, sub in definition.commands.items():
            lines += [f".SH {text(f'{prog} {name}'.upper())}", *_body(sub, f"{prog} {name}", ".SS")]
    else:
        lines += _body(definition, prog, ".SH")
    lines += [".SH SEE ALSO", "dotdbg(1)"]
    return "\n".join(lines) + "\n"


def _body(command: Command, prog: str, heading: str) -> list[str]:
    """``heading``: .SH for a command's page, .SS for a command of a group on the group's."""
    lines = [f"{heading} SYNOPSIS", f".B {text(prog)}", text(usage(command))]
    lines.append(f"{heading} DESCRIPTION")
    lines.append(text(command.summary))
    for paragraph in filter(None, command.description.split("\n\n")):
        lines += [".PP", text(" ".join(paragraph.split()))]
    if command.arguments:
        rows = [(argument.metavar, argument.help) for argument in command.arguments]
        lines += [f"{heading} ARGUMENTS", *_rows(rows)]
    shown = [option for option in command.options if not option.hidden]
    rows = [(option.label().strip(), option.help) for option in shown]
    rows += [("-h, --help", "Show the help and exit."), ("--version", "Print the version.")]
    lines += [f"{heading} OPTIONS", *_rows(rows)]
    return lines


def _rows(rows: Iterable[Sequence[str]]) -> list[str]:
    lines = []
    for label, help_text in rows:
        lines += [".TP", f".B {text(label.strip())}", text(help_text)]
    return lines


def main(argv: Sequence[str]) -> int:
    from pathlib import Path

    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    for name, page in pages().items():
        (folder / name).write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
