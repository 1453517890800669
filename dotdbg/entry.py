"""The ``dotdbg`` console script and the helpers' scripts: every command to its one parser.

Two kinds of commands, told apart by ``FAST`` below:
- those that must start in about the time Python does (the helpers, the process commands that
  every node of a job runs, ``cheat``, and the commands that check and edit the home: install,
  uninstall, status, diff, alias, fn, pack): each is defined once, as a
  ``dotdbg.cmdline.Command`` (or ``Group``), and the helpers serve both ``dotdbg NAME …`` and the
  stand-alone script ``NAME …``; typer, rich and pydantic are never imported for them;
- the rest of dotdbg's own commands (render, init, doctor, aliases, restore, suggest, expand):
  the typer app, ``dotdbg.cli``.
``dotdbg --version`` is answered here, before anything else is imported. All of them end
through ``dotdbg.runner``, so errors, Ctrl-C and a closed pipe give the same exit codes.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from dotdbg.cmdline import Command, Group

# name -> "module:attribute" of its Command
FAST = {
    "cheat": "dotdbg.commands.cheat:COMMAND",
    "ssh": "dotdbg.commands.ssh:COMMAND",
    "push": "dotdbg.commands.push:COMMAND",
    "gdb": "dotdbg.commands.gdb:COMMAND",
    "pyspy": "dotdbg.commands.watch:PYSPY",
    "stacks": "dotdbg.commands.stacks:COMMAND",
    "watch-python": "dotdbg.commands.watch:WATCH_PYTHON",
    "memlimit": "dotdbg.commands.memlimit:COMMAND",
    "mem-fill": "dotdbg.commands.fill:MEM_FILL",
    "disk-fill": "dotdbg.commands.fill:DISK_FILL",
    "gpu-fill": "dotdbg.commands.fill:GPU_FILL",
    "install": "dotdbg.commands.home:INSTALL",
    "uninstall": "dotdbg.commands.home:UNINSTALL",
    "status": "dotdbg.commands.home:STATUS",
    "diff": "dotdbg.commands.home:DIFF_COMMAND",
    "alias": "dotdbg.commands.edits:ALIAS",
    "fn": "dotdbg.commands.edits:FN",
    "pack": "dotdbg.commands.edits:PACK_GROUP",
    "which": "dotdbg.commands.which:COMMAND",
}
GLOBAL_FLAGS = ("--verbose",)


def main(argv: list[str] | None = None) -> int:
    """``dotdbg [--verbose] COMMAND …``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:
        from dotdbg.runner import run

        return run(_print_version, "dotdbg")
    at = next((i for i, arg in enumerate(args) if arg not in GLOBAL_FLAGS), len(args))
    verbose = "--verbose" in args[:at]  # DOTDBG_VERBOSE=1: dotdbg.runner reads it
    if at < len(args) and args[at] in FAST:
        name = args[at]
        return run_fast(name, args[at + 1 :], f"dotdbg {name}", "dotdbg", verbose)
    from dotdbg.cli import main as cli_main

    return cli_main(args, verbose)


def _print_version() -> int:
    from dotdbg import __version__

    print(f"dotdbg {__version__}")
    return 0


def helper(name: str, argv: list[str] | None = None) -> int:
    """A stand-alone script (``memlimit …``): the same command, under its own name."""
    args = sys.argv[1:] if argv is None else argv
    return run_fast(name, args, name, name, verbose=False)


def run_fast(name: str, args: list[str], prog: str, program: str, verbose: bool) -> int:
    """``prog`` is how help and usage hints name the command, ``program`` whose error it is."""
    from dotdbg.runner import run

    return run(lambda: command(name).main(args, prog), program, verbose)


def command(name: str) -> Command | Group:
    from importlib import import_module

    module, attribute = FAST[name].split(":")
    found: Command | Group = getattr(import_module(module), attribute)
    return found


if __name__ == "__main__":
    raise SystemExit(main())
