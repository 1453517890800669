"""Running a typer app as a console script: dotdbg's errors become one line and an exit code.

Shared by ``dotdbg`` and the stand-alone scripts (``watch-python``, ``memlimit``, ``gpu-fill``…).
Real bugs keep their traceback; a ``DotdbgError`` prints ``dotdbg: error: …`` and ``hint: …``
(with the traceback too under ``--verbose`` or ``DOTDBG_VERBOSE=1``), and so does an OSError
no command turned into a better sentence: a full disk or a failing device is not a bug.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import TYPE_CHECKING

from dotdbg.errors import DotdbgError

if TYPE_CHECKING:
    import typer

EXIT_INTERRUPTED = 130


def run(app: typer.Typer, argv: list[str], prog_name: str) -> int:
    import typer
    import typer.main

    command = typer.main.get_command(app)
    verbose = "--verbose" in argv or os.environ.get("DOTDBG_VERBOSE") == "1"
    try:
        result = command.main(argv, prog_name=prog_name, standalone_mode=False)
    except DotdbgError as error:
        if verbose:
            traceback.print_exc()
        for line in error.lines():
            print(line, file=sys.stderr)
        return error.exit_code
    except typer.Exit as done:
        return done.exit_code
    except typer.TyperException as usage:
        show = getattr(usage, "show", None)
        if show is not None:
            show()
        else:
            print(f"{prog_name}: error: {usage.message}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, typer.Abort):
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as error:  # the machine (a full disk, EIO), not dotdbg: one line too
        if verbose:
            traceback.print_exc()
        where = f"{error.filename}: " if error.filename else ""
        print(f"{prog_name}: error: {where}{error.strerror or error}", file=sys.stderr)
        print(
            "hint: an operation on that file failed; fix it (df for a full disk) and run the "
            "command again",
            file=sys.stderr,
        )
        return 2
    return result if isinstance(result, int) else 0
