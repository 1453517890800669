"""``dotdbg cheat``: its own small argument parser and main, so a lookup never loads typer.

dotdbg.entry routes ``dotdbg cheat ...`` here before importing the typer app. Nothing on this
path may import typer, rich, jinja2, tomlkit or a YAML library; tests/cheat/test_cheat_imports.py
keeps it so.
"""

from __future__ import annotations

import os
import sys

from dotdbg.cheat import cheatpaths, output, search
from dotdbg.cheat.index import CACHE_NAME, Index, load_configured, load_sheets
from dotdbg.cheat.visible import one_line
from dotdbg.errors import DotdbgError

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping

EXIT_NOT_FOUND = 1
EXIT_INTERRUPTED = 130

USAGE = """\
usage: dotdbg cheat [OPTIONS] [WORD [TERM...]]

Look up your cheatsheets. With no WORD, list the sheets. When WORD names a sheet (exactly or
as a unique prefix), show that sheet narrowed to the entries containing every TERM; otherwise
search all sheets for entries containing every word. Case-insensitive unless a word has a
capital letter.

options:
  -r, --regex          treat the words as regular expressions
  -t, --tag TAG        only sheets tagged TAG (repeated: sheets with every such tag)
  -c, --commands       print the commands only, e.g. $(dotdbg cheat -c tar extract gz)
      --json           print JSON for scripts
      --color WHEN     auto (default), always or never; NO_COLOR=1 turns auto off
      --edit NAME      edit sheet NAME in $VISUAL/$EDITOR (read-only sheets are copied to
                       your own dir first)
      --new NAME       start a new sheet NAME in your own dir
      --names          print the sheet names, one a line (for completion)
      --pick           print NUL-terminated picker records (for the prompt widget)
  -h, --help           show this help

Sheets come from ~/.config/dotdbg/cheatsheets, the nearest .cheat/ directory, the
[[cheat.paths]] of ~/.config/dotdbg/config.toml and dotdbg's built-in sheets; sheets of the
same name are merged in that order. Exit status: 0 found, 1 nothing matched, 2 usage error.
"""

FLAGS = {
    "-r": "regex",
    "--regex": "regex",
    "-c": "commands",
    "--commands": "commands",
    "--json": "json",
    "--names": "names",
    "--pick": "pick",
    "-h": "help",
    "--help": "help",
}
VALUE_OPTIONS = {"-t": "tag", "--tag": "tag", "--color": "color", "--edit": "edit", "--new": "new"}
COLOR_CHOICES = ("auto", "always", "never")


class Options:
    __slots__ = (
        "color",
        "commands",
        "edit",
        "help",
        "json",
        "names",
        "new",
        "pick",
        "regex",
        "tags",
        "words",
    )

    def __init__(self) -> None:
        self.words: list[str] = []
        self.tags: list[str] = []
        self.color = "auto"
        self.edit: str | None = None
        self.new: str | None = None
        self.regex = self.commands = self.json = self.names = self.pick = self.help = False

    def set_flag(self, flag: str) -> None:
        setattr(self, FLAGS[flag], True)

    def set_value(self, option: str, value: str) -> None:
        field = VALUE_OPTIONS[option]
        if field == "tag":
            self.tags.append(value)
        elif field == "color" and value not in COLOR_CHOICES:
            raise _usage(f"--color must be one of {', '.join(COLOR_CHOICES)}, not {value!r}")
        else:
            setattr(self, field, value)


# -- argument parsing ------------------------------------------------------------------------
def _usage(message: str) -> DotdbgError:
    return DotdbgError(message, hint="dotdbg cheat --help")


def parse_args(argv: list[str]) -> Options:
    """Options may come anywhere among the words; ``--`` makes every later argument a word."""
    options = Options()
    remaining = list(argv)
    while remaining:
        arg = remaining.pop(0)
        if arg == "--":
            options.words.extend(remaining)
            break
        if arg == "-" or not arg.startswith("-"):
            options.words.append(arg)
        elif arg.startswith("--"):
            _parse_long(arg, remaining, options)
        else:
            _parse_short_cluster(arg, remaining, options)
    _check_combination(options)
    return options


def _parse_long(arg: str, remaining: list[str], options: Options) -> None:
    name, has_value, value = arg.partition("=")
    if name in VALUE_OPTIONS:
        options.set_value(name, value if has_value else _next_value(name, remaining))
    elif name in FLAGS and not has_value:
        options.set_flag(name)
    else:
        raise _unknown_option(name)


def _parse_short_cluster(arg: str, remaining: list[str], options: Options) -> None:
    for position in range(1, len(arg)):
        option = "-" + arg[position]
        if option in FLAGS:
            options.set_flag(option)
        elif option in VALUE_OPTIONS:
            rest = arg[position + 1 :]
            options.set_value(option, rest or _next_value(option, remaining))
            return
        else:
            raise _unknown_option(option)


def _next_value(option: str, remaining: list[str]) -> str:
    if not remaining:
        raise _usage(f"{option} needs a value")
    return remaining.pop(0)


def _unknown_option(option: str) -> DotdbgError:
    return DotdbgError(
        f"unknown option {option}",
        hint="see dotdbg cheat --help; to search for a word that starts with '-', put -- before it",
    )


def _check_combination(options: Options) -> None:
    if options.edit is not None and options.new is not None:
        raise _usage("--edit and --new cannot be used together")
    if (options.edit is not None or options.new is not None) and options.words:
        raise _usage("--edit and --new take a sheet name and no other words")
    if options.commands and options.json:
        raise _usage("-c and --json cannot be used together")


# -- running ---------------------------------------------------------------------------------
def main(argv: list[str]) -> int:
    try:
        options = parse_args(argv)
        if options.help:
            return _write(USAGE)
        return run(options, os.environ)
    except DotdbgError as error:
        print("\n".join(error.lines()), file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED


def run(options: Options, env: Mapping[str, str]) -> int:
    sheets = load(env)
    if options.tags:
        tagged = search.with_tags(sheets, options.tags)
        if not tagged and not (options.edit or options.new):
            return _report_no_tag(sheets, options)
        sheets = tagged
    if options.edit is not None or options.new is not None:
        return _edit(sheets, options, env)
    color = output.use_color(options.color, sys.stdout.isatty(), env)
    if options.names:
        return _write(output.format_names(sheets.values()))
    if options.pick:
        return _pick(sheets, options)
    if not options.words:
        if options.json:
            return _write(output.format_listing_json(sheets.values()))
        return _write(output.format_listing(sheets.values(), color))
    return _show(sheets, options, color)


def load(env: Mapping[str, str]) -> dict[str, search.Sheet]:
    """Every sheet of every cheatpath, merged by name; skipped files warn on stderr."""
    index = Index(os.path.join(cheatpaths.cache_dir(env), CACHE_NAME))
    configured = load_configured(cheatpaths.config_file(env), index, _warn)
    for path in configured:
        if not os.path.isdir(path.directory):
            _warn(path.directory, f"cheat path {path.label!r} is not a directory; skipped")
    try:
        cwd = os.getcwd()
    except OSError:  # the current directory was deleted
        cwd = os.sep
    paths = cheatpaths.all_cheatpaths(env, cwd, configured)
    files = load_sheets(paths, index, _warn)
    index.save()
    return search.merge(files)


def _edit(sheets: dict[str, search.Sheet], options: Options, env: Mapping[str, str]) -> int:
    from dotdbg.cheat import edit

    user_dir = cheatpaths.user_cheat_dir(env)
    if options.edit is not None:
        target = edit.editable_file(options.edit, sheets, user_dir)
    else:
        target = edit.new_file(options.new or "", sheets, user_dir)
    return edit.open_in_editor(target, env)


def _show(sheets: dict[str, search.Sheet], options: Options, color: bool) -> int:
    result = search.lookup(sheets, options.words, options.regex)
    if not result.groups:
        _report_nothing_found(sheets, options.words, result)
        if options.json:  # a script parses an empty list more easily than no output
            _write(output.format_result_json(result))
        return EXIT_NOT_FOUND
    if options.json:
        return _write(output.format_result_json(result))
    if options.commands:
        return _write(output.format_commands(result))
    return _write(output.format_result(result, color))


def _pick(sheets: dict[str, search.Sheet], options: Options) -> int:
    if options.words:
        result = search.lookup(sheets, options.words, options.regex)
    else:
        result = search.everything(sheets)
    return _write(output.format_pick(result))


def _report_nothing_found(
    sheets: dict[str, search.Sheet], words: list[str], result: search.Result
) -> None:
    terms = " ".join(words[1:] if result.mode == search.SHEET_MODE else words)
    if result.mode == search.SHEET_MODE and not terms:
        print(f"dotdbg: sheet {result.sheet!r} has no entries yet", file=sys.stderr)
        print(f"hint: dotdbg cheat --edit {one_line(result.sheet)}", file=sys.stderr)
        return
    if result.mode == search.SHEET_MODE:
        print(f"dotdbg: no entry of sheet {result.sheet!r} matches {terms!r}", file=sys.stderr)
        return
    print(f"dotdbg: no sheet or entry matches {terms!r}", file=sys.stderr)
    close = search.suggestions(words[0], sheets)
    if close:
        print(f"hint: did you mean {one_line(' or '.join(close))}?", file=sys.stderr)


def _report_no_tag(sheets: dict[str, search.Sheet], options: Options) -> int:
    wanted = " and ".join(repr(tag) for tag in options.tags)
    print(f"dotdbg: no sheet is tagged {wanted}", file=sys.stderr)
    known = sorted({tag.lower() for sheet in sheets.values() for tag in sheet.tags})
    if known:
        print(f"hint: tags in use: {one_line(', '.join(known))}", file=sys.stderr)
    if options.json:
        _write("[]\n")
    return EXIT_NOT_FOUND


def _warn(path: str, problem: str) -> None:
    home = os.path.expanduser("~")
    shown = "~" + path[len(home) :] if home != os.sep and path.startswith(home + os.sep) else path
    print(f"dotdbg: warning: {one_line(shown)}: {one_line(problem)}", file=sys.stderr)


def _write(text: str) -> int:
    """Print ``text``; a reader that went away (``| head``) is not an error."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at /dev/null so the interpreter's final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return 0
