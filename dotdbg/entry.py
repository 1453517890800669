"""The ``dotdbg`` console script: route hot commands before any heavy import.

``dotdbg cheat`` is typed many times a day, so it never imports typer, rich or jinja2; nor do
``dotdbg pyspy --json …``, which every node of a job-wide ``dotdbg stacks`` runs, and the plain
``dotdbg gdb PID`` dump (timed against pystack). Every other command goes through the typer app
in ``dotdbg.cli``.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args.index("cheat") if "cheat" in args else -1
    if command >= 0 and all(arg == "--verbose" for arg in args[:command]):
        from dotdbg.cheat.fast import main as cheat_main

        return cheat_main(args[command + 1 :])
    code = _fast_path(args)
    if code is not None:
        return code
    from dotdbg.cli import main as cli_main

    return cli_main(args)


def _fast_path(args: list[str]) -> int | None:
    """The exit code of a command served without the typer app; None: the app serves it."""
    if args[:2] == ["pyspy", "--json"]:  # what each node of a job-wide gather runs
        from dotdbg.stacks.fastdump import main as dump_main

        return dump_main(args[1:])
    if args[:1] == ["gdb"]:
        from dotdbg.gdb.fast import main as gdb_main

        return gdb_main(args[1:])
    return None


if __name__ == "__main__":
    raise SystemExit(main())
