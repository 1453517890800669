"""The ``dotdbg`` console script: route hot commands before any heavy import.

``dotdbg cheat`` is typed many times a day, so it never imports typer, rich or jinja2, nor
does the plain ``dotdbg gdb PID`` dump (timed against pystack); every other command goes
through the typer app in ``dotdbg.cli``.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args.index("cheat") if "cheat" in args else -1
    if command >= 0 and all(arg == "--verbose" for arg in args[:command]):
        from dotdbg.cheat.fast import main as cheat_main

        return cheat_main(args[command + 1 :])
    if args[:1] == ["gdb"]:
        from dotdbg.gdb.fast import main as gdb_main

        code = gdb_main(args[1:])
        if code is not None:
            return code
    from dotdbg.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    raise SystemExit(main())
