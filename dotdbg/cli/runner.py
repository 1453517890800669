"""Running any command: every way it can end becomes an exit code.

- a DotdbgError (bad config, bad argument): its lines on stderr, ``program: error: …`` and
  ``hint: …`` (the traceback too under ``--verbose`` or ``DOTDBG_VERBOSE=1``), its exit code;
- Ctrl-C: 130 after the clean-up it caused; SIGTERM in a filler: 128 + 15 (``Stopped``);
- an OSError no command turned into a better sentence (a full disk, a failing device): one
  line naming the file, exit 2; the machine failed, not dotdbg;
- stdout closed by the reader (``dotdbg aliases | head -1``): 141 and no message, as for a
  shell pipeline member killed by SIGPIPE (``yes | head -1``), so ``set -o pipefail`` scripts
  see what they see from any other program. Not the SIGPIPE signal itself: memlimit and the
  fillers must still remove their cgroup, mount or file on the way out.

Real bugs keep their traceback.
"""

from __future__ import annotations

import os
import sys

from dotdbg.errors import DotdbgError, Stopped

TYPE_CHECKING = False  # the typing module costs milliseconds on the fast paths; mypy knows this
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TextIO

EXIT_INTERRUPTED = 130
EXIT_USAGE = 2
EXIT_BROKEN_PIPE = 128 + 13  # 128 + SIGPIPE, as the shell reports a writer killed by it


def run(work: Callable[[], int], program: str, verbose: bool = False) -> int:
    """The exit code of ``work()``, whatever way it ends (see the module's docstring)."""
    stdout = sys.stdout
    if stdout is not None:  # None: started with stdout closed (`>&-`), print() writes nothing
        sys.stdout = WholeWrites(stdout)
    try:
        code = work()
        if sys.stdout is not None:
            sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's own exit
        return code
    except DotdbgError as error:
        _traceback_if(verbose)
        print("\n".join(error.lines(program)), file=sys.stderr)
        return error.exit_code
    except Stopped as stop:
        return stop.exit_code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as error:
        _traceback_if(verbose)
        where = f"{error.filename}: " if error.filename else ""
        print(f"{program}: error: {where}{error.strerror or error}", file=sys.stderr)
        print(
            "hint: an operation on that file failed; fix it (df for a full disk) and run the "
            "command again",
            file=sys.stderr,
        )
        return EXIT_USAGE
    finally:
        sys.stdout = stdout


def _traceback_if(verbose: bool) -> None:
    """The traceback of the error being handled, under ``--verbose`` or ``DOTDBG_VERBOSE=1``."""
    if verbose or os.environ.get("DOTDBG_VERBOSE") == "1":
        import traceback

        traceback.print_exc()


class WholeWrites:
    """sys.stdout, except that a large write is either all written or a BrokenPipeError.

    CPython's BufferedWriter returns a short count when the reader leaves in the middle of a
    write larger than the pipe (``dotdbg stacks | head -1``, 64 KiB and up), and TextIOWrapper
    drops it: the rest of the text vanished and the command would exit 0.
    """

    LARGE = 8192

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if len(text) < self.LARGE or not hasattr(self._stream, "buffer"):
            return self._stream.write(text)
        self._stream.flush()
        data = memoryview(text.encode(self._stream.encoding, self._stream.errors or "strict"))
        while data:
            data = data[self._stream.buffer.write(data) :]
        self._stream.buffer.flush()
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
