"""Every subcommand of ``dotdbg``, for the TAB completion of the generated shell files.

A constant, so that rendering never imports the commands to learn them;
tests/test_entry.py checks it against dotdbg.cli.registry.
"""

COMMAND_NAMES = (
    "alias",
    "aliases",
    "bisect",
    "cheat",
    "diff",
    "disk-fill",
    "doctor",
    "errtrace",
    "expand",
    "fn",
    "gdb",
    "gpu-fill",
    "init",
    "install",
    "mem-fill",
    "memlimit",
    "pack",
    "push",
    "pyspy",
    "render",
    "restore",
    "ssh",
    "stacks",
    "status",
    "suggest",
    "uninstall",
    "watch-python",
    "which",
)
