"""The words of ``dotdbg ssh HOST [SSH ARGS…]`` and the ssh command line made from them."""

from __future__ import annotations

from dotdbg.errors import UsageError

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Sequence

# ssh's options that take a value (OpenSSH's getopt string, the letters followed by ':')
WITH_VALUE = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
HELP_COMMAND = "dotdbg ssh"
HINT = "check that `ssh HOST true` works: the host name, the network, your key"
USAGE = """\
usage: dotdbg ssh HOST [SSH OPTIONS...]

An interactive shell on HOST with your aliases, functions, history settings and history search,
and `ch` with your cheatsheets, for this session only: the files travel on the session's input
into a private temporary directory on HOST, removed when the session ends. Nothing is written
to your home there. The shell is your login shell there if it is bash, zsh or fish, else bash.
SSH OPTIONS (-p 2222, -i KEY, -J JUMP, -F FILE, ...) are passed to ssh.
"""


def split(argv: Sequence[str]) -> tuple[str, list[str]]:
    """(host, ssh options); a UsageError for a missing host or a remote command."""
    if not argv or argv[0] in ("-h", "--help"):
        if argv:
            raise ShowUsage
        raise UsageError("dotdbg ssh needs a HOST", HELP_COMMAND)
    host, options = argv[0], list(argv[1:])
    if host.startswith("-"):
        raise UsageError(f"HOST comes first, then ssh's options (got {host!r})", HELP_COMMAND)
    words = _positional(options)
    if words:
        raise UsageError(
            f"dotdbg ssh starts an interactive shell; it runs no command ({words[0]!r})",
            HELP_COMMAND,
        )
    return host, options


class ShowUsage(Exception):
    """-h or --help."""


def _positional(options: Sequence[str]) -> list[str]:
    """The words that are neither an option nor an option's value."""
    words: list[str] = []
    index = 0
    while index < len(options):
        word = options[index]
        if word == "--":
            return [*words, *options[index + 1 :]]
        if word.startswith("-") and len(word) > 1:
            letters = word[1:]
            takes_value = next((i for i, c in enumerate(letters) if c in WITH_VALUE), None)
            if takes_value is not None and takes_value == len(letters) - 1:
                index += 1  # the value is the next word (-p 2222), not glued (-p2222)
        else:
            words.append(word)
        index += 1
    return words


def ssh_argv(
    host: str, options: Sequence[str], command: str, log: str, *, terminal: bool = True
) -> list[str]:
    """ssh with a terminal (or, when ours is none, without: -T); its own messages go to
    ``log`` unless the user chose -E."""
    own_log = [] if any(word.startswith("-E") for word in options) else ["-E", log]
    return ["ssh", "-t" if terminal else "-T", *own_log, *options, host, command]
