"""Every subcommand of ``dotdbg``, for the TAB completion of the generated bash.

A constant, so that rendering never imports the CLI to learn them (the domain does not call up
into the typer app); tests/test_cli.py checks it against the app and dotdbg.entry.FAST.
"""

COMMAND_NAMES = (
    "alias",
    "aliases",
    "cheat",
    "diff",
    "disk-fill",
    "doctor",
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
