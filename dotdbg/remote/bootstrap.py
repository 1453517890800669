"""The remote side of ``dotdbg ssh``: the command ssh runs there, the session rc, the shim.

ssh runs the command with the user's login shell (``$SHELL -c``), which may be bash, zsh, dash,
fish or tcsh: it is one line, ``exec /bin/sh -c '…'``, and the script inside holds no quote and
no backslash, so every one of them passes it to sh unchanged. The script

1. makes a private directory (``mktemp -d``, umask 077) and removes it on EXIT, HUP, INT and
   TERM; a guard process removes it too when the script itself is gone (killed): it blocks
   reading a FIFO that only the script holds open, so it wakes at the script's end and never
   polls;
2. unpacks the session files from the base64 payload in the command itself (no second
   connection, no round trip per file);
3. starts the session shell with the rc of that shell, which reads what a login shell over
   plain ssh reads, then dotdbg's files.

Each shell a session can start is one ``SessionShell`` in ``SHELLS``; bash is the only one
today (zsh and fish are added there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from dotdbg.render import BASH_FILE, INPUTRC_FILE

SCRIPT_NAME = "dotdbg-ssh"  # $0 of the remote script, as ps shows it
PERMANENT = "dotdbg install on that host sets them up for good"


@dataclass(frozen=True)
class SessionShell:
    name: str  # the program started, and what ``$SHELL`` ends with to pick it
    rc_file: str  # the session's rc, in the session dir
    rendered: str  # the file dotdbg renders for this shell (render.Rendered.files)
    launch: str  # sh words that start it; "$d" is the session dir


BASH = SessionShell(
    name="bash",
    rc_file="rc.bash",
    rendered=BASH_FILE,
    launch='bash --rcfile "$d/rc.bash" -i',
)
SHELLS: tuple[SessionShell, ...] = (
    BASH,
)  # the first is used where the login shell is none of them


def safe_host(host: str) -> str:
    """``host`` as the remote messages show it: nothing the script could read as syntax."""
    return re.sub(r"[^A-Za-z0-9._@:%+-]", "?", host)


def remote_script(host: str, payload: str) -> str:
    """The sh script, on one line (tcsh rejects a newline inside quotes)."""
    where = f"dotdbg: error: {safe_host(host)}:"
    steps = [
        "umask 077",
        'd=$(mktemp -d "${TMPDIR:-/tmp}/dotdbg-ssh.XXXXXXXXXX") || '
        f'{{ echo "{where} mktemp -d failed: no private directory for the session" >&2; exit 1; }}',
        'c() { rm -rf "$d"; }',
        "trap c EXIT",
        'trap "exit 129" HUP',
        'trap "exit 130" INT',
        'trap "exit 143" TERM',
        'mkfifo "$d/.guard" && { (trap "" HUP INT TERM; read x <"$d/.guard"; rm -rf "$d") '
        "</dev/null >/dev/null 2>&1 & }",
        'exec 9>"$d/.guard"',
        f'printf %s {payload} | base64 -d | gzip -dc | tar -xf - -C "$d"',
        f'[ -f "$d/{BASH.rc_file}" ] || {{ echo "{where} the session files did not unpack '
        '(it needs base64, gzip and tar)" >&2; exit 1; }',
        *_launch_steps(safe_host(host), where),
    ]
    return "; ".join(steps)


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


def remote_command(host: str, payload: str) -> str:
    """What ssh is given to run: the login shell hands the script to sh."""
    script = remote_script(host, payload)
    assert "'" not in script and "\\" not in script, "the script must survive any login shell"
    return f"exec /bin/sh -c '{script}' {SCRIPT_NAME}"


HERE = Path(__file__).parent
RC_FILES = {"bash": HERE / "session.bash"}  # the session's rc of each shell
SHIM = HERE / "shim.sh"  # the session's `dotdbg` command (bin/dotdbg)
SESSION_CHEAT = HERE / "session_cheat.py"  # the shim's Python entry


def rc_text(shell: SessionShell) -> str:
    """The session rc of ``shell``, naming the files it sources as render names them."""
    text = RC_FILES[shell.name].read_text(encoding="utf-8")
    return (
        text.replace("@INPUTRC@", INPUTRC_FILE)
        .replace("@RENDERED@", shell.rendered)
        .replace("@PERMANENT@", PERMANENT)
    )
