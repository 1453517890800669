"""``dotdbg cheat`` in a dotdbg ssh session, on the remote's python3 (>= 3.8, stdlib only).

It travels as py/session_cheat.py beside the cheat code (dotdbg.remote.bundle) and runs with
``python3 -I``; the sheet writers (--edit, --new, --add) and --lint stay on the user's machine.
"""

from __future__ import annotations

import os
import sys

NOT_HERE = ("-e", "--edit", "--new", "--add", "--lint")


def session_main(args: list[str]) -> int:
    from dotdbg.cheat import main
    from dotdbg.errors import DotdbgError

    used = [arg for arg in args if arg in NOT_HERE]
    if used:
        raise DotdbgError(
            f"dotdbg cheat {used[0]} is not available in a dotdbg ssh session",
            hint="edit and check sheets on your own machine; the next session brings them",
        )
    return main(args)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from dotdbg.cli.runner import run

    sys.exit(run(lambda: session_main(sys.argv[1:]), "dotdbg"))
