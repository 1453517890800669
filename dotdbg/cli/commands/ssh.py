"""``dotdbg ssh HOST [SSH ARGS…]``: its words go to ssh as they are (dotdbg.remote.sshargs)."""

from __future__ import annotations

from dotdbg.cli.parser import Command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


def ssh(words: Sequence[str]) -> int:
    from dotdbg.remote import sshargs
    from dotdbg.remote.session import run_session

    if list(words) == ["--version"]:
        from dotdbg import __version__

        print(f"dotdbg {__version__}")
        return 0
    try:
        return run_session(words)
    except sshargs.ShowUsage:
        print(sshargs.USAGE, end="")
        return 0


COMMAND = Command(
    "ssh",
    "A shell on HOST with your set-up for one session; nothing is left there (SSH ARGS to ssh).",
    ssh,  # type: ignore[arg-type]  # its words, not parsed values
    own_parser=True,
)
