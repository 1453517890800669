"""``dotdbg shell -- CMD…``: the ``dotdbg ssh`` session through any command that gives a shell."""

from __future__ import annotations

from dotdbg.cli.parser import Command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

USAGE = """\
usage: dotdbg shell -- COMMAND [ARGS...]

Your aliases, functions, history settings and history search, and `ch` with your cheatsheets,
in the shell COMMAND gives, for this session only, as `dotdbg ssh` brings them:

  dotdbg shell -- kubectl exec -it POD -- sh
  dotdbg shell -- docker exec -it CONTAINER sh
  dotdbg shell -- srun --pty --overlap --jobid JOB sh

COMMAND must give a POSIX shell (with base64, gzip and tar there) without asking anything
first; dotdbg types one line into it, and the files travel on its input into a private
temporary directory, removed when the session ends.
"""


def shell(words: Sequence[str]) -> int:
    from dotdbg.errors import UsageError

    if list(words[:1]) in (["-h"], ["--help"]):
        print(USAGE, end="")
        return 0
    if not words or words[0] != "--" or len(words) < 2:
        raise UsageError(
            "dotdbg shell needs `--` and the command that gives a shell", "dotdbg shell"
        )
    from dotdbg.remote.session import run_through

    return run_through(words[1:])


COMMAND = Command(
    "shell",
    "Your set-up in the shell any command gives (-- kubectl exec -it POD -- sh), one session.",
    shell,  # type: ignore[arg-type]  # its words, not parsed values
    own_parser=True,
)
