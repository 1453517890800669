"""The parser of every command: its words, its help, its ``--version``.

Each command is defined once, as a ``Command`` (or a ``Group`` of them) listed in
``dotdbg.cli.registry``; a helper's one definition serves both its stand-alone script and
``dotdbg NAME``, and the help, the man pages and the shells' completion are derived from it.
Hand-written rather than argparse: measured side by side, ``import argparse`` costs 7 ms of CPU
(it imports re and gettext) on top of the 8 ms of ``python -c pass``, which alone breaks the
1.5x budget of ``--help``; typer (pydantic) costs 110 ms. Nor dataclasses (inspect) nor typing:
both cost milliseconds too (docs/architecture.md has the measurements).

The syntax is click's, which these commands had before: options anywhere before ``--``,
``--opt VALUE`` or ``--opt=VALUE``, ``-xVALUE``, clustered short flags, and after ``--`` only
positional words.
"""

from __future__ import annotations

from dotdbg.cli.layout import STANDARD_OPTIONS, label, table, width, wrap
from dotdbg.errors import UsageError

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    Convert = Callable[[str, str], object]  # (text, option name) -> value, or UsageError
    Values = dict[str, Any]  # dest -> value, as the converters made them

HELP_NAMES = ("-h", "--help")
PATH_METAVARS = {"FILE": "file", "DIR": "dir", "PYTHON": "file"}  # what TAB completes after them


class ShowHelp(Exception):
    """-h or --help: print the help and exit 0."""


class ShowVersion(Exception):
    """--version: print the version and exit 0."""


class Option:
    """``--name VALUE`` (``metavar`` set) or a flag that stores ``const``."""

    __slots__ = (
        "complete",
        "const",
        "convert",
        "default",
        "dest",
        "help",
        "hidden",
        "metavar",
        "names",
    )

    def __init__(
        self,
        names: Sequence[str],
        help: str,
        *,
        dest: str | None = None,
        metavar: str | None = None,
        convert: Convert | None = None,
        default: object = None,
        const: object = True,
        hidden: bool = False,
        complete: str | None = None,
    ) -> None:
        self.names = tuple(names)
        self.help = help
        self.dest = dest or self.names[0].lstrip("-").replace("-", "_")
        self.metavar = metavar
        self.convert = convert
        self.default = default
        self.const = const
        self.hidden = hidden
        # "file" or "dir": TAB completes paths after it (default: from the metavar)
        self.complete = complete or PATH_METAVARS.get(metavar or "")

    def follows(self) -> str:
        """What TAB completes after it: "" (a flag), "file", "dir", "a|b|c" or "value"."""
        if self.metavar is None:
            return ""
        if isinstance(self.convert, choice):
            return "|".join(self.convert.choices)
        return self.complete or "value"

    @property
    def repeats(self) -> bool:
        return isinstance(self.default, list)

    def label(self) -> str:
        return label(self.names, self.metavar)


class Argument:
    """A positional word; ``many``: every word left (a command after ``--``)."""

    __slots__ = ("convert", "dest", "help", "many", "metavar", "required")

    def __init__(
        self,
        dest: str,
        help: str,
        *,
        metavar: str | None = None,
        required: bool = False,
        many: bool = False,
        convert: Convert | None = None,
    ) -> None:
        self.dest = dest
        self.help = help
        self.metavar = metavar or dest.upper()
        self.required = required
        self.many = many
        self.convert = convert


class Command:
    """One command: its words, its help, and the function that runs it with the values."""

    __slots__ = (
        "arguments",
        "description",
        "name",
        "options",
        "own_parser",
        "run",
        "summary",
        "usage",
    )

    def __init__(
        self,
        name: str,
        summary: str,
        run: Callable[[Values], int],
        *,
        options: Sequence[Option] = (),
        arguments: Sequence[Argument] = (),
        description: str = "",
        usage: str = "",
        own_parser: bool = False,
    ) -> None:
        self.name = name
        self.summary = summary
        self.run = run
        self.options = tuple(options)
        self.arguments = tuple(arguments)
        self.description = description
        self.usage = usage
        self.own_parser = own_parser  # ``run`` takes the words as they came (dotdbg cheat)

    def main(self, argv: Sequence[str], prog: str) -> int:
        """Parse ``argv`` and run; help and version answered here, usage errors raised."""
        if self.own_parser:
            if list(argv) == ["--version"]:
                return print_version(prog)
            return self.run(argv)  # type: ignore[arg-type]
        try:
            values = parse(self, argv)
        except ShowHelp:
            print(help_text(self, prog), end="")
            return 0
        except ShowVersion:
            return print_version(prog)
        except UsageError as error:
            error.help_command = prog
            raise
        return self.run(values)


class Group:
    """A command of commands (``dotdbg alias add …``): the first word picks one."""

    __slots__ = ("commands", "name", "summary")

    def __init__(self, name: str, summary: str, commands: Sequence[Command]) -> None:
        self.name = name
        self.summary = summary
        self.commands = {command.name: command for command in commands}

    def main(self, argv: Sequence[str], prog: str) -> int:
        """Alone or with -h: the list of its commands (alone: exit 2, as a usage error)."""
        if not argv or argv[0] in HELP_NAMES:
            print(group_help(self, prog), end="")
            return 0 if argv else 2
        if argv[0] == "--version":
            return print_version(prog)
        command = self.commands.get(argv[0])
        if command is None:
            raise UsageError(f"no such command: {argv[0]}", help_command=prog)
        return command.main(argv[1:], f"{prog} {argv[0]}")


def print_version(prog: str) -> int:
    from dotdbg import __version__

    print(f"{prog} (dotdbg) {__version__}")
    return 0


def group_help(group: Group, prog: str) -> str:
    wide = width()
    lines = [f"usage: {prog} COMMAND [ARGS]...", "", *wrap(group.summary, wide), ""]
    rows = [(name, command.summary) for name, command in group.commands.items()]
    lines += ["commands:", *table(rows, wide), ""]
    lines.append(f"`{prog} COMMAND --help` shows the options of each.")
    return "\n".join(lines) + "\n"


def parse(command: Command, argv: Sequence[str]) -> Values:
    values: Values = {opt.dest: _fresh(opt.default) for opt in command.options}
    words: list[str] = []
    rest = list(argv)
    while rest:
        word = rest.pop(0)
        if word == "--":
            words += rest
            break
        if word.startswith("-") and word != "-":
            _take_option(command, word, rest, values)
        else:
            words.append(word)
    _take_arguments(command, words, values)
    return values


def _fresh(default: object) -> object:
    return list(default) if isinstance(default, list) else default


def _take_option(command: Command, word: str, rest: list[str], values: Values) -> None:
    if word in HELP_NAMES:
        raise ShowHelp
    if word == "--version":
        raise ShowVersion
    if word.startswith("--"):
        name, has_value, text = word.partition("=")
        _store(_find(command, name), name, text if has_value else None, rest, values)
        return
    _take_short(command, word, rest, values)


def _take_short(command: Command, word: str, rest: list[str], values: Values) -> None:
    """``-a``, ``-n0.5``, or ``-at`` (two flags)."""
    for at in range(1, len(word)):
        name = "-" + word[at]
        if name == "-h":
            raise ShowHelp
        option = _find(command, name)
        if option.metavar is not None:
            _store(option, name, word[at + 1 :] or None, rest, values)
            return
        _store(option, name, None, rest, values)


def _find(command: Command, name: str) -> Option:
    for option in command.options:
        if name in option.names:
            return option
    raise UsageError(f"no such option: {name}")


def _store(option: Option, name: str, text: str | None, rest: list[str], values: Values) -> None:
    if option.metavar is None:
        if text is not None:
            raise UsageError(f"{name} takes no value")
        values[option.dest] = option.const
        return
    if text is None:
        if not rest:
            raise UsageError(f"{name} needs a value ({option.metavar})")
        text = rest.pop(0)
    value = option.convert(text, name) if option.convert else text
    if option.repeats:
        values[option.dest].append(value)
    else:
        values[option.dest] = value


def _take_arguments(command: Command, words: list[str], values: Values) -> None:
    for argument in command.arguments:
        if argument.many:
            values[argument.dest] = words[:]
            words.clear()
        elif words:
            word = words.pop(0)
            values[argument.dest] = (
                argument.convert(word, argument.metavar) if argument.convert else word
            )
        elif argument.required:
            raise UsageError(f"missing {argument.metavar}")
        else:
            values[argument.dest] = None
    if words:
        raise UsageError(f"unexpected argument {words[0]!r}")


# Converters: each turns a word into a value or says in one line what was wrong with it.


def number(minimum: float | None = None, maximum: float | None = None) -> Convert:
    return _ranged(float, "a number", minimum, maximum)


def integer(minimum: int | None = None, maximum: int | None = None) -> Convert:
    return _ranged(int, "a whole number", minimum, maximum)


def _ranged(
    kind: Callable[[str], float], what: str, minimum: float | None, maximum: float | None
) -> Convert:
    def convert(text: str, name: str) -> object:
        try:
            value = kind(text)
        except ValueError:
            raise UsageError(f"{name} {text!r} is not {what}") from None
        if value != value or (minimum is not None and value < minimum):  # NaN fails too
            raise UsageError(f"{name} {text!r}: at least {minimum:g} please")
        if maximum is not None and value > maximum:
            raise UsageError(f"{name} {text!r}: at most {maximum:g} please")
        return value

    return convert


class choice:
    """One of a few words; TAB completion offers them (``dotdbg.cli.completion``)."""

    __slots__ = ("choices",)

    def __init__(self, *choices: str) -> None:
        self.choices = choices

    def __call__(self, text: str, name: str) -> object:
        if text not in self.choices:
            raise UsageError(f"{name} {text!r} is not one of {', '.join(self.choices)}")
        return text


# Help, laid out as argparse does; words wrapped by hand (textwrap imports re).


def help_text(command: Command, prog: str) -> str:
    wide = width()
    lines = [f"usage: {prog} {usage(command)}", ""]
    for paragraph in (command.summary, *filter(None, command.description.split("\n\n"))):
        lines += [*wrap(paragraph, wide), ""]
    rows = [(argument.metavar, argument.help) for argument in command.arguments]
    if rows:
        lines += ["arguments:", *table(rows, wide), ""]
    lines += ["options:", *table(option_rows(command), wide)]
    return "\n".join(lines) + "\n"


def option_rows(command: Command) -> list[tuple[str, str]]:
    shown = [option for option in command.options if not option.hidden]
    return [(option.label(), option.help) for option in shown] + list(STANDARD_OPTIONS)


def usage(command: Command) -> str:
    return command.usage or _usage(command)


def _usage(command: Command) -> str:
    words = ["[OPTIONS]"]
    for argument in command.arguments:
        word = f"{argument.metavar}..." if argument.many else argument.metavar
        words.append(word if argument.required else f"[{word}]")
    return " ".join(words)
