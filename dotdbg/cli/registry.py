"""Every command of ``dotdbg`` and every helper script: the one list.

A command is registered by one line here, its name and where its ``Command`` (or ``Group``) is
defined: ``"module:attribute"`` under ``dotdbg.cli.commands``. The sections are the order of
``dotdbg --help`` (everyday work first, set-up last). The help, the man pages
(``dotdbg.cli.manpage``) and the shells' TAB completion (``dotdbg.cli.completion``) are
derived from it; tests/cli/ fails when a helper script or a man page drifts from it.
This module imports nothing: ``dotdbg NAME`` imports only NAME's module.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dotdbg.cli.parser import Command, Group

SECTIONS = {
    "Look things up": {
        "cheat": "cheat:COMMAND",
        "aliases": "core:ALIASES",
        "expand": "aliases_edit:EXPAND",
        "suggest": "aliases_edit:SUGGEST",
    },
    "Find the cause": {
        "which": "which:COMMAND",
        "errtrace": "errtrace:COMMAND",
        "bisect": "bisect:COMMAND",
        "memstep": "memstep:COMMAND",
        "salloc": "salloc:COMMAND",
    },
    "Where is it stuck": {
        "pyspy": "watch:PYSPY",
        "stacks": "stacks:COMMAND",
        "gdb": "gdb:COMMAND",
        "watch-python": "watch:WATCH_PYTHON",
    },
    "Memory and resources": {
        "memlimit": "memlimit:COMMAND",
        "mem-fill": "fill:MEM_FILL",
        "disk-fill": "fill:DISK_FILL",
        "gpu-fill": "fill:GPU_FILL",
    },
    "Other machines": {
        "ssh": "ssh:COMMAND",
        "shell": "shell:COMMAND",
        "push": "push:COMMAND",
    },
    "Your aliases and functions": {
        "alias": "edits:ALIAS",
        "fn": "edits:FN",
        "pack": "edits:PACK_GROUP",
    },
    "Set-up": {
        "install": "home:INSTALL",
        "status": "home:STATUS",
        "diff": "home:DIFF_COMMAND",
        "doctor": "core:DOCTOR",
        "uninstall": "home:UNINSTALL",
        "restore": "core:RESTORE",
        "render": "core:RENDER",
        "init": "core:INIT",
    },
}
COMMANDS = {name: where for section in SECTIONS.values() for name, where in section.items()}
# The commands that are also programs of their own (scripts/NAME, pyproject's shared-scripts).
HELPERS = ("watch-python", "memlimit", "mem-fill", "disk-fill", "gpu-fill")


def command(name: str) -> Command | Group:
    """The definition of command ``name``, imported from its module."""
    module, attribute = COMMANDS[name].split(":")
    # __import__ with a fromlist gives the submodule itself: importlib (and warnings behind it)
    # would be an import of every command's start
    imported = __import__(f"dotdbg.cli.commands.{module}", fromlist=[attribute])
    found: Command | Group = getattr(imported, attribute)
    return found
