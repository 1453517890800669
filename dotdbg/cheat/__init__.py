"""`dotdbg cheat`: cheatsheets (cheat's, tldr's and navi's formats) found by sheet name or by
words, the picker behind Ctrl-G, and `--lint`, `--add`, `--edit`, `--copy`.

A run starts here: a plain lookup (words, maybe --color) goes to dotdbg.cheat.fast, the warm
path in one module, and anything else to dotdbg.cheat.modes, which parses the options. Both are
imported only when a run needs them (this package is loaded with any of its modules); from
here down no module imports one above it (tests/test_layout.py).
"""

import os
import sys

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from typing import NoReturn

EXIT_INTERRUPTED = 130


def console(argv: "list[str]", verbose: bool = False) -> int:
    """``dotdbg cheat ARGS``, straight from the launcher or dotdbg.cli.entry. It ends as every
    command does: a run that does not simply end goes through dotdbg.cli.runner, imported then."""
    try:
        code = main(argv)
        if sys.stdout is not None:  # None: started with stdout closed (`>&-`)
            sys.stdout.flush()  # a closed pipe shows here
        return code
    except (Exception, KeyboardInterrupt) as error:  # the runner says what every command does
        return _ended_by(error, verbose)


def leave(code: int) -> "NoReturn":
    """End the process with ``code``: the launcher's last step after ``console``. A run that
    started no thread and registered no atexit hook (every lookup) leaves without tearing the
    interpreter down: freeing every module and object one by one costs 7 million
    instructions, as much as a lookup and a sixth of Python's start, and does nothing a
    process that ends needs (the cache is written and closed, the output flushed here). A
    flush that fails leaves the usual way, which reports it."""
    import atexit

    if "threading" not in sys.modules and not atexit._ncallbacks():
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:  # None: started with it closed
                    stream.flush()
        except (OSError, ValueError):
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


def _ended_by(error: BaseException, verbose: bool) -> int:
    from dotdbg.cli.runner import run

    def again() -> int:
        raise error

    return run(again, "dotdbg", verbose)


def main(argv: "list[str]") -> int:
    """A run; its usage errors and dotdbg's own errors end it with their lines on stderr."""
    from dotdbg.cheat.fast import look_up, plain_lookup

    try:
        plain = plain_lookup(argv)
        if plain is not None:
            return look_up(plain[0], os.environ, plain[1])
        from dotdbg.cheat.modes import run_argv  # options: read their table, and maybe a mode

        return run_argv(argv, os.environ)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:
        from dotdbg.errors import DotdbgError

        if not isinstance(error, DotdbgError):
            raise
        print("\n".join(error.lines()), file=sys.stderr)
        return error.exit_code
