"""The remote side of ``dotdbg ssh``: the command ssh runs there, the session rc, the shim.

ssh runs the command with the user's login shell (``$SHELL -c``), which may be bash, zsh, dash,
fish or tcsh: it is one line, ``exec /bin/sh -c '…'``, and the script inside holds no single
quote and no double backslash, so every one of them passes it to sh unchanged. The script

1. makes a private directory (``mktemp -d``, umask 077) and removes it on EXIT, HUP, INT and
   TERM; a guard process removes it too when the script itself is gone (killed): it blocks
   reading a FIFO that only the script holds open, so it wakes at the script's end and never
   polls;
2. writes the session files, which travel in the command itself (no second connection, no
   round trip per file): the shell's files with the printf builtin, the cheat code and sheets
   from a base64 tar, unpacked in the background;
3. starts the session shell with the rc of that shell, which reads what a login shell over
   plain ssh reads, then dotdbg's files.

Each shell a session can start is one ``SessionShell`` in ``SHELLS``; bash is the only one
today (zsh and fish are added there).
"""

from __future__ import annotations

import string

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping

SAFE = frozenset(string.ascii_letters + string.digits + "._@:%+-")

SCRIPT_NAME = "dotdbg-ssh"  # $0 of the remote script, as ps shows it
PERMANENT = "dotdbg install on that host sets them up for good"


class SessionShell:
    """One shell a session can start. A plain class: ``dotdbg ssh`` starts without importing
    dataclasses (inspect) or typing; tests/remote/test_session_files.py checks the names."""

    __slots__ = ("launch", "name", "rc_file", "rendered")

    def __init__(self, name: str, rc_file: str, rendered: str, launch: str) -> None:
        self.name = name  # the program started, and what ``$SHELL`` ends with to pick it
        self.rc_file = rc_file  # the session's rc, in the session dir and in dotdbg/remote/
        self.rendered = rendered  # the file render makes for this shell (render.Rendered.files)
        self.launch = launch  # sh words that start it; "$d" is the session dir


BASH = SessionShell(
    name="bash",
    rc_file="session.bash",
    rendered="dotdbg.bash",  # render.BASH_FILE
    launch='bash --rcfile "$d/session.bash" -i',
)
SHELLS: tuple[SessionShell, ...] = (
    BASH,
)  # the first is used where the login shell is none of them


def safe_host(host: str) -> str:
    """``host`` as the remote messages show it: nothing the script could read as syntax."""
    return "".join(c if c in SAFE else "?" for c in host)


# The guard: it blocks reading a FIFO until the script's end closes fd 9 (which the session's
# shell does not inherit), then removes the session dir, whatever ended the script.
GUARD = (
    'mkfifo "$d/.guard" && { (trap "" HUP INT TERM; read x <"$d/.guard"; rm -rf "$d") '
    '</dev/null >/dev/null 2>&1 & }; exec 9>"$d/.guard"'
)


def remote_script(host: str, files: Mapping[str, str], archive: str) -> str:
    """The sh script, on one line (tcsh rejects a newline inside quotes). ``files`` (name to
    text) are written with the printf builtin, before the shell starts; ``archive`` (base64 of
    the cheat code and sheets, bundle.archive) is unpacked beside the shell's start-up: three
    processes fewer on the way to the prompt."""
    where = f"dotdbg: error: {safe_host(host)}:"
    writes = " && ".join(
        f'printf %b "{escaped(text)}" >"$d/{name}"' for name, text in files.items()
    )
    steps = [
        "umask 077",
        'd=$(mktemp -d "${TMPDIR:-/tmp}/dotdbg-ssh.XXXXXXXXXX") || '
        f'{{ echo "{where} mktemp -d failed: no private directory for the session" >&2; exit 1; }}',
        'c() { rm -rf "$d"; }',
        "trap c EXIT",
        'trap "exit 129" HUP',
        'trap "exit 130" INT',
        'trap "exit 143" TERM',
        GUARD,
        f"{{ {writes}; }} || "
        f'{{ echo "{where} cannot write the session files in $d" >&2; exit 1; }}',
        f'{{ (printf %s {archive} | base64 -d | gzip -dc | tar -xf - -C "$d") 9>&- & }}',
        *_launch_steps(safe_host(host), where),
    ]
    return "; ".join(steps)


# Bytes printf %b writes as they are, inside double quotes in the script: printable ASCII but
# the quotes, $, ` and the backslash (fish reads \\ and \' even inside single quotes).
PLAIN = frozenset(range(0x20, 0x7F)) - frozenset(b"\"$`\\'")


def escaped(text: str) -> str:
    """``text`` for ``printf %b "…"``: every other byte as an octal escape (\\0NNN)."""
    return "".join(chr(b) if b in PLAIN else f"\\0{b:03o}" for b in text.encode())


def _launch_steps(host: str, where: str) -> list[str]:
    """Pick the session shell from $SHELL (else the first), check it is there, start it."""
    cases = " ".join(f"{shell.name}) s={shell.name} ;;" for shell in SHELLS[1:])
    names = " or ".join(shell.name for shell in SHELLS)
    env = f"DOTDBG_SESSION_DIR=$d DOTDBG_SESSION_HOST={host}"
    starts = " ".join(f"{shell.name}) {env} {shell.launch} 9>&- ;;" for shell in SHELLS)
    return [
        f"s={SHELLS[0].name}",
        f"case ${{SHELL##*/}} in {cases} *) ;; esac" if cases else ":",
        f'command -v "$s" >/dev/null 2>&1 || {{ echo "{where} no {names} on this host: '
        'dotdbg ssh starts one of them" >&2; exit 127; }',
        f"case $s in {starts} esac",
        "exit $?",
    ]


def remote_command(host: str, files: Mapping[str, str], archive: str) -> str:
    """What ssh is given to run: the login shell hands the script to sh."""
    script = remote_script(host, files, archive)
    assert "'" not in script and "\\\\" not in script, "the script must survive any login shell"
    return f"exec /bin/sh -c '{script}' {SCRIPT_NAME}"
