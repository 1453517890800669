"""``dotdbg cheat`` with options: its small argument parser and every mode but the plain lookup.

A run whose words are all words never comes here (dotdbg.cheat.fast looks them up); one with
an option does, and reads the option table (dotdbg.cheat.options) to parse them. Standard
library only: it also runs in a dotdbg ssh session. What only some modes need is imported
when they run: dotdbg.errors when a usage is wrong, dotdbg.common.output when a line goes to
stderr, the picker, the clipboard, the editor, the linter.
"""

from __future__ import annotations

import sys

from dotdbg.cheat import fast, output, search
from dotdbg.cheat.fast import Catalog, Result, Sheet
from dotdbg.visible import one_line

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping

    from dotdbg.errors import DotdbgError

HELP_NAMES = ("-h", "--help")


def _dest(names: tuple[str, ...]) -> str:
    return names[-1].lstrip("-")


_OPTION_NAMES: list[tuple[dict[str, str], dict[str, str]]] = []  # made once, when asked for


def option_names() -> tuple[dict[str, str], dict[str, str]]:
    """The flags and the options with a value, each name to its field of ``Options``."""
    if not _OPTION_NAMES:
        from dotdbg.cheat.options import OPTIONS

        flags = {n: _dest(names) for names, metavar, _ in OPTIONS if not metavar for n in names}
        flags.update(dict.fromkeys(HELP_NAMES, "help"))
        values = {n: _dest(names) for names, metavar, _ in OPTIONS if metavar for n in names}
        _OPTION_NAMES.append((flags, values))
    return _OPTION_NAMES[0]


class Options:
    __slots__ = (
        "above",
        "add",
        "color",
        "commands",
        "comment",
        "copy",
        "edit",
        "help",
        "json",
        "lint",
        "list",
        "menu",
        "names",
        "new",
        "pick",
        "regex",
        "search",
        "shell",
        "tags",
        "words",
    )

    def __init__(self) -> None:
        self.words: list[str] = []
        self.tags: list[str] = []
        self.color = "auto"
        self.above: str | None = None
        self.edit: str | None = None
        self.new: str | None = None
        self.add: str | None = None
        self.comment: str | None = None
        self.search: str | None = None
        self.shell: str | None = None
        self.regex = self.commands = self.json = self.names = self.pick = self.help = False
        self.list = self.copy = self.lint = self.menu = False

    def set_flag(self, flag: str) -> None:
        setattr(self, option_names()[0][flag], True)

    def set_value(self, option: str, value: str) -> None:
        from dotdbg.cheat.options import COLOR_CHOICES, SHELLS

        field = option_names()[1][option]
        if field == "tag":
            self.tags.append(value)
        elif field == "color" and value not in COLOR_CHOICES:
            raise _usage(f"--color must be one of {', '.join(COLOR_CHOICES)}, not {value!r}")
        elif field == "shell" and value not in SHELLS:
            raise _usage(f"--shell must be one of {', '.join(SHELLS)}, not {value!r}")
        else:
            setattr(self, field, value)

    def modes(self) -> list[str]:
        """The options that each make dotdbg cheat do something else than a lookup."""
        chosen = [("--edit", self.edit), ("--new", self.new), ("--add", self.add)]
        named = [name for name, value in chosen if value is not None]
        flags = [("--lint", self.lint), ("--names", self.names), ("--pick", self.pick)]
        flags += [("--menu", self.menu), ("-l", self.list)]
        return named + [name for name, on in flags if on]


# -- argument parsing ------------------------------------------------------------------------
def _usage(message: str) -> DotdbgError:
    from dotdbg.errors import DotdbgError

    return DotdbgError(message, hint="see `dotdbg cheat --help`")


def parse_args(argv: list[str]) -> Options:
    """Options may come anywhere among the words; ``--`` makes every later argument a word."""
    options = Options()
    if not any(arg[:1] == "-" for arg in argv):  # words alone: the option table stays unread
        options.words = list(argv)
        return options
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
    flags, values = option_names()
    name, has_value, value = arg.partition("=")
    if name in values:
        options.set_value(name, value if has_value else _next_value(name, remaining))
    elif name in flags and not has_value:
        options.set_flag(name)
    else:
        raise _unknown_option(name)


def _parse_short_cluster(arg: str, remaining: list[str], options: Options) -> None:
    flags, values = option_names()
    for position in range(1, len(arg)):
        option = "-" + arg[position]
        if option in flags:
            options.set_flag(option)
        elif option in values:
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
    from dotdbg.errors import DotdbgError

    return DotdbgError(
        f"no such option: {option}",
        hint="see `dotdbg cheat --help`; to search for a word that starts with '-', put -- "
        "before it",
    )


def _check_combination(options: Options) -> None:
    modes = options.modes()
    if len(modes) > 1:
        raise _usage(f"{modes[0]} and {modes[1]} cannot be used together")
    if modes and modes[0] in ("--edit", "--new", "--add") and options.words:
        raise _usage(f"{modes[0]} takes a sheet name and no other words")
    if options.comment is not None and options.add is None:
        raise _usage("--comment goes with --add")
    if options.commands and options.json:
        raise _usage("-c and --json cannot be used together")
    if options.copy and (options.json or modes):
        raise _usage(f"--copy cannot be used with {'--json' if options.json else modes[0]}")


def usage(prog: str = "dotdbg cheat") -> str:
    """The help, in the layout of every command's (dotdbg.cli.parser)."""
    from dotdbg.cheat.options import DESCRIPTION, OPTIONS, SUMMARY, USAGE_LINE
    from dotdbg.cli.layout import STANDARD_OPTIONS, label, table, width, wrap

    wide = width()
    lines = [f"usage: {prog} {USAGE_LINE}", "", *wrap(SUMMARY, wide), ""]
    for paragraph in DESCRIPTION.split("\n\n"):
        lines += [*wrap(paragraph, wide), ""]
    rows = [(label(names, metavar or None), text) for names, metavar, text in OPTIONS]
    lines += ["options:", *table([*rows, *STANDARD_OPTIONS], wide)]
    return "\n".join(lines) + "\n"


# -- running ---------------------------------------------------------------------------------
def run_argv(argv: list[str], env: Mapping[str, str]) -> int:
    """A run with options (or none at all: the listing); errors are dotdbg.cheat.main's."""
    options = parse_args(argv)
    if options.help:
        return fast.write(usage())
    return run(options, env)


def run(options: Options, env: Mapping[str, str]) -> int:
    if options.copy and not options.words and options.search is None:
        return _copy_stdin(env)
    if options.add is not None:
        return _add(options, env)
    if options.lint:
        return _lint(options.words, env)
    catalog = fast.open_catalog(env)
    try:
        return _run_on(catalog, options, env)
    finally:
        catalog.save()


def _run_on(catalog: Catalog, options: Options, env: Mapping[str, str]) -> int:
    if options.names and not options.tags:
        return fast.write(output.format_names(catalog.names()))
    sheets = _sheets_for(catalog, options)
    if options.tags:
        tagged = search.with_tags(sheets, options.tags)
        if not tagged and not (options.edit or options.new):
            return _report_no_tag(sheets, options)
        sheets = tagged
    if options.edit is not None or options.new is not None:
        return _edit(sheets, options, env)
    terminal = sys.stdout is not None and sys.stdout.isatty()
    color = fast.use_color(options.color, terminal, env)
    if options.names:
        return fast.write(output.format_names(sheets))
    if options.pick:
        records = output.format_pick(_entries(sheets, options, catalog), _shell(options, env))
        return fast.write(records)
    if options.menu:
        return _menu(sheets, options, env, catalog)
    if options.list or (not options.words and options.search is None):
        return _list(sheets, options, color)
    return _show(sheets, options, color, env, catalog)


def _sheets_for(catalog: Catalog, options: Options) -> dict[str, Sheet]:
    """The sheets a run needs: when its first word names a sheet, that sheet's files alone
    (a lookup must not decode a 300-sheet corpus to show one sheet); else every sheet."""
    plain_lookup = not (options.tags or options.menu or options.list or options.edit)
    if options.words and plain_lookup and options.new is None:
        return fast.sheets_for(catalog, options.words, options.regex, options.search)
    return fast.merge(catalog.load())


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}{'' if number == 1 else 's'}"


def _edit(sheets: dict[str, Sheet], options: Options, env: Mapping[str, str]) -> int:
    from dotdbg.cheat import edit

    user_dir = fast.user_cheat_dir(env)
    if options.edit is not None:
        target = edit.editable_file(options.edit, sheets, user_dir)
    else:
        target = edit.new_file(options.new or "", sheets, user_dir)
    return edit.open_in_editor(target, env)


def _lookup(sheets: dict[str, Sheet], options: Options, catalog: Catalog) -> Result:
    return fast.result_of(catalog, sheets, options.words, options.regex, options.search)


def _entries(sheets: dict[str, Sheet], options: Options, catalog: Catalog) -> Result:
    """What a picker offers: the lookup's hits, or every entry when there are no words."""
    if options.words or options.search is not None:
        return _lookup(sheets, options, catalog)
    return search.everything(sheets)


def _list(sheets: dict[str, Sheet], options: Options, color: bool) -> int:
    """The sheet listing; cheat's ``-l WORD`` lists the sheets whose name contains WORD."""
    wanted = [word.lower() for word in options.words]
    shown = [sheet for sheet in sheets.values() if all(w in sheet.name.lower() for w in wanted)]
    if options.json:
        return fast.write(output.format_listing_json(shown))
    if not shown:
        fast.note(f"no sheet name contains {' '.join(options.words)!r}")
        return fast.EXIT_NOT_FOUND
    return fast.write(output.format_listing(shown, color))


def _show(
    sheets: dict[str, Sheet],
    options: Options,
    color: bool,
    env: Mapping[str, str],
    catalog: Catalog,
) -> int:
    result = _lookup(sheets, options, catalog)
    if result.mode == fast.FALLBACK_MODE:
        fast.report_fallback(result, options.words)
    if not result.groups:
        words = options.words or [options.search or ""]
        fast.report_nothing_found(catalog.names(), words, result)
        if options.json:  # a script parses an empty list more easily than no output
            fast.write(output.format_result_json(result))
        return fast.EXIT_NOT_FOUND
    if options.copy:
        return _copy_best(result, env)
    if options.json:
        return fast.write(output.format_result_json(result))
    if options.commands:
        return fast.write(output.format_commands(result))
    return fast.write(fast.format_result(result, color))


# -- copy, menu, add, lint -----------------------------------------------------------------------
def _copy_best(result: Result, env: Mapping[str, str]) -> int:
    from dotdbg.cheat import clipboard

    records = output.pick_records(result)
    command = records[0][1]
    used = clipboard.copy(command, env)
    others = f"; the best of {len(records)} hits, add words to pick another" if records[1:] else ""
    fast.note(f"copied ({', '.join(used)}){others}")
    return fast.write(command + "\n")


def _copy_stdin(env: Mapping[str, str]) -> int:
    from dotdbg.cheat import clipboard

    if sys.stdin.isatty():
        raise _usage("--copy with no words copies standard input: pipe the text in")
    text = sys.stdin.read()
    text = text[:-1] if text.endswith("\n") else text  # 3.8 has no removesuffix (dotdbg ssh)
    used = clipboard.copy(text, env)
    fast.note(f"copied ({', '.join(used)})")
    return 0


def _menu(
    sheets: dict[str, Sheet], options: Options, env: Mapping[str, str], catalog: Catalog
) -> int:
    from dotdbg.cheat import clipboard, menu

    shell = _shell(options, env)

    def records_for(words: list[str]) -> list[tuple[str, str]]:
        options.words = words
        return output.pick_records(_entries(sheets, options, catalog), shell)

    def copy(text: str) -> str:
        return f"cheat: copied ({', '.join(clipboard.copy(text, env))}): {one_line(text)}"

    status, picked = menu.run_menu(options.above, list(options.words), records_for, copy)
    if picked:
        fast.write(picked)
    return status


def _add(options: Options, env: Mapping[str, str]) -> int:
    from dotdbg.cheat.add import run_add

    user_dir = fast.user_cheat_dir(env)
    report = run_add(options.add or "", options.comment, user_dir, env, _shell(options, env))
    print(report, file=sys.stderr)
    return 0


def _shell(options: Options, env: Mapping[str, str]) -> str:
    """``--shell``, else the shell dotdbg runs in."""
    from dotdbg.cheat.shellfit import parent_name, running_shell

    return options.shell or running_shell(env, parent_name())


def _lint(names: list[str], env: Mapping[str, str]) -> int:
    from dotdbg.cheat import lint
    from dotdbg.cheat.index import sheet_files

    configured = fast.load_configured(fast.config_file(env), "", fast.warn_about)
    files = [
        (name, path, not cheatpath.readonly)  # a read-only sheet's tools are not the user's to fix
        for cheatpath in fast.all_cheatpaths(env, fast.cwd(), configured)
        for name, path in sheet_files(cheatpath.directory, warn=fast.warn_about)
        if not names or name in names
    ]
    missing = set(names) - {name for name, _, _ in files}
    if missing:
        raise _usage(f"no sheet named {sorted(missing)[0]!r}")
    problems = [problem for _, path, own in files for problem in lint.lint_file(path, own)]
    fast.write("".join(f"{one_line(str(problem))}\n" for problem in problems))
    errors = sum(problem.level == lint.ERROR for problem in problems)
    warnings = len(problems) - errors
    summary = f"{_count(len(files), 'sheet file')}: {_count(errors, 'error')}, "
    summary += _count(warnings, "warning")
    fast.note(f"{summary}")
    return 1 if errors else 0


# -- what stderr says ------------------------------------------------------------------------------
def _report_no_tag(sheets: dict[str, Sheet], options: Options) -> int:
    wanted = " and ".join(repr(tag) for tag in options.tags)
    fast.note(f"no sheet is tagged {wanted}")
    known = sorted({tag.lower() for sheet in sheets.values() for tag in sheet.tags})
    if known:
        fast.hint(f"tags in use: {one_line(', '.join(known))}")
    if options.json:
        fast.write("[]\n")
    return fast.EXIT_NOT_FOUND
