"""The ``dotdbg`` console script and the helpers' scripts: every command to its one parser.

``dotdbg NAME …`` imports the module of NAME alone (``dotdbg.cli.registry`` says which), so
every command starts in about the time Python does plus its own work; ``dotdbg --help``
imports them all for their summaries. ``dotdbg --version`` is answered before anything else
is imported. Every command ends through ``dotdbg.cli.runner``, so errors, Ctrl-C and a closed
pipe give the same exit codes.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    pass

GLOBAL_FLAGS = ("--verbose",)
HELP_NAMES = ("-h", "--help")


def main(argv: list[str] | None = None) -> int:
    """``dotdbg [--verbose] COMMAND …``."""
    args = sys.argv[1:] if argv is None else argv
    at = next((i for i, arg in enumerate(args) if arg not in GLOBAL_FLAGS), len(args))
    verbose = "--verbose" in args[:at]  # DOTDBG_VERBOSE=1: dotdbg.cli.runner reads it
    word = args[at] if at < len(args) else None
    if word == "cheat" and args[at + 1 :] != ["--version"]:
        # A lookup must answer in about the time Python starts: no registry, no parser.
        from dotdbg.cheat import console

        return console(args[at + 1 :], verbose)
    from dotdbg.cli.runner import run

    if word == "pyspy" and "--in-job" in args:
        # every node of a `stacks --job` runs this: no registry, no parser (issue 27)
        from dotdbg.stacks import node

        options = node.parse(args[at + 1 :])
        if options is not None:
            return run(lambda: node.run(options), "dotdbg", verbose)
    if word == "--version":
        return run(_print_version, "dotdbg")
    if word == "--complete":  # the shells' TAB completion (dotdbg.cli.completion)
        from dotdbg.cli.completion import main as complete

        return run(lambda: complete(args[at + 1 :]), "dotdbg")
    if word is None or word in HELP_NAMES:
        return run(lambda: _print_help(0 if word else 2), "dotdbg")
    from dotdbg.cli.registry import COMMANDS

    if word not in COMMANDS:
        return run(lambda: _no_such_command(word), "dotdbg", verbose)
    return run_command(word, args[at + 1 :], f"dotdbg {word}", "dotdbg", verbose)


def _print_version() -> int:
    from dotdbg import __version__

    print(f"dotdbg {__version__}")
    return 0


def _print_help(code: int) -> int:
    """``dotdbg --help`` (exit 0); ``dotdbg`` alone prints it too, as a usage error (exit 2)."""
    from dotdbg.cli.roothelp import root_help

    print(root_help(), end="")
    return code


def _no_such_command(word: str) -> int:
    from dotdbg.errors import UsageError

    raise UsageError(f"no such command {word!r}", help_command="dotdbg")


def helper(name: str, argv: list[str] | None = None) -> int:
    """A stand-alone script (``memlimit …``): the same command, under its own name."""
    args = sys.argv[1:] if argv is None else argv
    return run_command(name, args, name, name, verbose=False)


def run_command(name: str, args: list[str], prog: str, program: str, verbose: bool) -> int:
    """``prog`` is how help and usage hints name the command, ``program`` whose error it is."""
    from dotdbg.cli.registry import command
    from dotdbg.cli.runner import run

    return run(lambda: command(name).main(args, prog), program, verbose)


if __name__ == "__main__":
    raise SystemExit(main())
