"""The words of ``dotdbg cheat``: its summary, description and the one list of its options.

Its parser (dotdbg.cheat.fast), its help, its definition in the registry (the man page) and the
cheat widgets' TAB completion in the generated shell files read them from here.
"""

from __future__ import annotations

SUMMARY = "Look up your cheatsheets."
DESCRIPTION = (
    "With no WORD, list the sheets. When WORD names a sheet (exactly or as a unique prefix), "
    "show that sheet narrowed to the entries containing every TERM; otherwise search all sheets "
    "for entries containing every word. Case-insensitive unless a word has a capital letter."
    "\n\n"
    "Sheets come from ~/.config/dotdbg/cheatsheets, the nearest .cheat/ directory, the "
    "[[cheat.paths]] of ~/.config/dotdbg/config.toml and dotdbg's built-in sheets; sheets of the "
    "same name are merged in that order. A path may also hold tldr pages (*.md) and navi cheats "
    "(*.cheat). Exit status: 0 found, 1 nothing matched, 2 usage error."
)
USAGE_LINE = "[OPTIONS] [WORD [TERM...]]"
# The one list of cheat's options: (names, metavar ("" for a flag), help). Its parser below,
# its help, and dotdbg.cli.commands.cheat (the man page, TAB completion) read it.
OPTIONS = (
    (("-r", "--regex"), "", "Treat the words as regular expressions."),
    (("-t", "--tag"), "TAG", "Only sheets tagged TAG (repeated: sheets with every such tag)."),
    (
        ("-c", "--commands"),
        "",
        "Print the commands only, e.g. $(dotdbg cheat -c tar extract gz) (cheat's -c colours "
        "instead: here that is --color always).",
    ),
    (("-l", "--list"), "", "List the sheets (with WORD: those whose name contains it)."),
    (("-s", "--search"), "PHRASE", "Search every sheet (or the sheet WORD names) for PHRASE."),
    (
        ("--copy",),
        "",
        "Copy the best hit's command to the clipboard (OSC 52, so it works over ssh and in "
        "tmux; xclip, xsel, wl-copy or pbcopy too); with no WORD, copy standard input.",
    ),
    (("--json",), "", "Print JSON for scripts."),
    (("--color",), "WHEN", "auto (default), always or never; NO_COLOR=1 turns auto off."),
    (
        ("-e", "--edit"),
        "NAME",
        "Edit sheet NAME in $VISUAL/$EDITOR (read-only sheets are copied to your own dir first).",
    ),
    (("--new",), "NAME", "Start a new sheet NAME in your own dir."),
    (("--add",), "NAME", "Add the command you ran last to your sheet NAME; asks for its comment."),
    (("--comment",), "TEXT", "The comment for --add, instead of asking."),
    (
        ("--shell",),
        "NAME",
        "bash, zsh or fish: the shell whose history --add reads and whose commands --pick and "
        "--menu offer (default: the shell dotdbg runs in).",
    ),
    (
        ("--lint",),
        "",
        "Check sheets (those named, else all): parse errors, missing comments, two commands in "
        "one entry, bad placeholders; exit 1 on errors.",
    ),
    (("--names",), "", "Print the sheet names, one a line (for completion)."),
    (("--pick",), "", 'Print picker records: "shown\\x1fcommand\\0", one per command.'),
    (("--menu",), "", "The numbered picker on the terminal; prints the picked command."),
    (
        ("--above",),
        "LINE",
        "With --menu: the line to keep shown above the list (the prompt); '' when the shell "
        "keeps its own line shown: the list starts below it.",
    ),
)
COLOR_CHOICES = ("auto", "always", "never")  # also in dotdbg.cheat.fast, for a lookup with --color
SHELLS = ("bash", "zsh", "fish")  # --shell's; dotdbg.cheat.shellfit knows what each runs
