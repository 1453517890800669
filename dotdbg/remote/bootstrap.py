"""The remote side of a dotdbg session: the script that starts it, the session rc, the shim.

``dotdbg ssh`` gives the script to ssh as its remote command, which the user's login shell runs
(``$SHELL -c``: bash, zsh, dash, fish or tcsh); ``dotdbg shell -- CMD`` types it into the shell
CMD gives. Either way it is one line, ``exec /bin/sh -c '…'``, and the script inside holds no
single quote and no double backslash, so every one of those shells passes it to sh unchanged.
It holds no session file: those travel on the shell's own input (dotdbg.remote.relay), where
``ps`` does not show them and no argument limit applies. The script

1. prints a marker made from the nonce (the relay sends the stream when it sees it, so it
   travels while step 2 runs);
2. makes a private directory (``mktemp -d``, umask 077); a guard removes it when the
   script's main part ends, however it ends (exit, HUP, INT, TERM, kill -9): the guard is the
   reading end of a pipe that only that part holds open, so it wakes at its end and never
   polls;
3. skips what was typed ahead up to the nonce's own line and sources the stream
   (dotdbg.remote.stream: printf builtins that write bash's files, then the archive's text)
   from the terminal up to its EOF key, then prints a second marker: the terminal's echo of
   the stream lies between the two, and the relay drops it (no ``stty`` runs);
4. makes the shim the session's ``dotdbg`` (in the background); where the input is no
   terminal the archive came with the stream and unpacks in the background, else the session
   asks for it at its first use (dotdbg.remote.stream.FETCH: zsh and fish before they start);
5. starts the session shell: the user's login shell (``$SHELL``, which sshd takes from their
   passwd entry) when it is one of ``SHELLS`` and the payload carries it, else bash, saying
   why in one line. Its rc files read what a login shell over plain ssh reads, then dotdbg's.
   zsh and fish need the archive, which holds their files.

Before the shell, one program runs in series (``mktemp``), where each one waits for a core on
a loaded host: issue 27 timed the old series (``stty``, ``mktemp``, ``mkfifo``, four
unpacking processes, ``stty``) at +500 ms under load 25.

Each shell a session can start is one ``SessionShell`` in ``SHELLS`` (dotdbg.shells.session,
each also its ShellTarget's ``session``): the files it needs and the sh words that start it.
"""

from __future__ import annotations

import os

from dotdbg.remote.stream import ARCHIVE, FETCH
from dotdbg.shells.session import BASH, FISH, SHELLS, ZSH, SessionShell

# the letters of a host name the script may hold as they are (not the string module: it imports
# re, milliseconds at every session's start)
SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._@:%+-")

SCRIPT_NAME = "dotdbg-ssh"  # $0 of the remote script, as ps shows it
SHIM = "shim"  # the shim as the stream writes it, until it is bin/dotdbg
# How each shell a session can start is started: on its ShellTarget (``session``), defined in
# dotdbg.shells.session, which imports nothing (this runs at every session's start).
__all__ = ["BASH", "FISH", "SHELLS", "ZSH", "SessionShell"]


def others_here() -> tuple[str, ...]:
    """The shells other than bash installed on this machine: each one's file is checked by
    that shell (zsh -n, fish --no-execute) before it travels, so only theirs can. A walk of
    PATH, as shutil.which (not imported: this runs at every session's start)."""
    found = [
        shell.name
        for shell in SHELLS[1:]
        for directory in os.environ.get("PATH", os.defpath).split(os.pathsep)
        if directory and os.access(os.path.join(directory, shell.name), os.X_OK)
    ]
    return tuple(dict.fromkeys(found))


def safe_host(host: str) -> str:
    """``host`` as the remote messages show it: nothing the script could read as syntax."""
    return "".join(c if c in SAFE else "?" for c in host)


# The guard: the reading end of a pipe whose one writer is the script's main part (its fd 9,
# which neither the session shell nor the background jobs inherit). It wakes when the main part
# ends, however it ends (exit, a signal, kill -9, a dropped connection), removes the session
# dir and exits with the status the main part wrote, if it could. A pipe, not a FIFO: no
# mkfifo in series before the shell.
GUARD = (
    '{ trap "" HUP INT TERM; x=; read -r x; for i in 1 2 3 4 5 6 7 8 9 10; do '
    '[ -n "$d" ] && [ -e "$d" ] || break; rm -rf "$d"; sleep 0.2; done; exit "${x:-1}"; } '
    ">/dev/null 2>&1"
)
# The main part: the pipe to fd 9, its output back to the terminal (fd 8); its status to the
# guard at its end
MAIN = ["exec 9>&1 1>&8 8>&-", 'trap "echo \\$? >&9" EXIT']
SSH_NAME = "dotdbg ssh"  # what the session's lines are signed with
# base64 line length: below a terminal's 4095-byte line in canonical mode, where each read
# returns one line: longer lines, fewer reads and wake-ups (76: 1,700 of them for 126 KB)
WRAP = 1000


DONE = "GOT"  # the second marker's word: the stream is read


def marker(nonce: str) -> bytes:
    """What the script prints when it is ready for the stream (not a substring of the
    script's own text, which a shell's echo may show before)."""
    return f"DOTDBG{nonce}READY".encode()


def done_marker(nonce: str) -> bytes:
    """What the script prints once it has read the stream: the terminal's echo of the stream
    lies between the two markers, and the relay drops it."""
    return f"DOTDBG{nonce}{DONE}".encode()


def framed(nonce: str, stream: str) -> bytes:
    """What the relay writes after the marker: the nonce's line (the script skips what was
    typed ahead up to it), then the stream (``size`` bytes; on a terminal the relay ends it
    with the EOF key)."""
    return f"{nonce}\n{stream}".encode()


def wrapped(encoded: str) -> str:
    """Base64 text in lines of WRAP characters, each ending with a newline."""
    return "".join(encoded[at : at + WRAP] + "\n" for at in range(0, len(encoded), WRAP))


def remote_script(host: str | None, size: int, nonce: str, shells: tuple[str, ...] = ()) -> str:
    """The sh script, on one line (tcsh rejects a newline inside quotes). ``host``: the name
    its lines give the host (None: the host's own, ``uname -n``); ``size``: the stream's bytes
    (read with ``head -c`` where the input is no terminal); ``shells``: those other than bash
    the archive carries files for."""
    name = f"H={safe_host(host)}" if host is not None else "H=$(uname -n 2>/dev/null)"
    where = "dotdbg: error: $H:"
    steps = [
        "umask 077",
        name,
        # a terminal (ssh -t, dotdbg shell): a marker that asks for the stream, first: it
        # travels while the directory is made
        "t=; [ ! -t 0 ] || t=1",
        f'[ -z "$t" ] || printf "DOTDBG%sREADY" {nonce}',
        "d=",
        'trap "" HUP INT TERM',  # mktemp too: a directory it made is always named in $d
        'd=$(mktemp -d "${TMPDIR:-/tmp}/dotdbg-ssh.XXXXXXXXXX") || d=',
        "exec 8>&1",
    ]
    main = [
        *MAIN,
        'trap "exit 129" HUP',
        'trap "exit 130" INT',
        'trap "exit 143" TERM',
        f"while :; do read -r l || exit 1; case $l in *{nonce}) break ;; esac; done",
        *_read_steps(size),
        f'[ -z "$t" ] || printf "DOTDBG%s{DONE}" {nonce}',
        f'[ -n "$d" ] || {{ echo "{where} mktemp -d failed: no private directory for the '
        'session" >&2; exit 1; }',
        f'[ -z "$e" ] || {{ echo "{where} cannot write the session files in $d" >&2; exit 1; }}',
        f"{_install_step()} {_unpack_step(where)}",  # "&;" is no sh
        *_choose_steps(shells),
        *_start_steps(where, shells),
    ]
    return f"{'; '.join(steps)}; {{ {'; '.join(main)}; }} | {GUARD}"


def _read_steps(size: int) -> list[str]:
    """Source the stream (dotdbg.remote.stream): from the terminal itself up to its EOF key
    (a terminal in canonical mode returns one line per read, so the shell takes nothing
    after it), else (a pipe) its ``size`` bytes through a file. Without a directory, read
    and drop it, so that nothing of it is left for the session's shell."""
    return [
        "e=; s=/dev/stdin",
        f'[ -n "$t" ] || {{ s=${{d:-/dev/null}}${{d:+/.s}}; head -c {size} >"$s" || e=1; }}',
        'if [ -n "$d" ]; then . "$s"; elif [ -n "$t" ]; then cat >/dev/null; fi',
    ]


def _install_step() -> str:
    """The shim, which came with the stream, made the session's ``dotdbg`` command
    (``bin/dotdbg``), in the background: printf makes no executable file. It is executable
    before the rename makes it appear: a ``dotdbg`` typed at once never meets it half made."""
    return (
        f'{{ chmod 700 "$d/{SHIM}" && mkdir "$d/bin" && mv "$d/{SHIM}" "$d/bin/dotdbg"; }} '
        "</dev/null >/dev/null 2>&1 9>&- &"
    )


def _unpack_step(where: str) -> str:
    """The archive (``.a``: the cheat code and sheets, zsh's and fish's files), where it came
    with the stream (no terminal), unpacked in the background while the session shell starts;
    ``$u`` its pid. It is removed when done (the shim waits for that); where it fails, the
    reason is kept for the shim to say (a zsh or fish session waits for it and stops). On a
    terminal, the session asks for it when it needs it (FETCH)."""
    why = f"{where} cannot unpack the session files (base64, gzip, tar): $r"
    return (
        f'u=; if [ -e "$d/{ARCHIVE}" ]; then '
        f'{{ {{ base64 -d <"$d/{ARCHIVE}" | gzip -dc | tar -xf - -C "$d"; }} 2>"$d/.err" || '
        f'{{ r=; read -r r <"$d/.err"; echo "{why}" >"$d/.why"; }}; rm -f "$d/{ARCHIVE}"; }} '
        "</dev/null >/dev/null 2>&1 9>&- & u=$!; fi"
    )


def _choose_steps(names: tuple[str, ...]) -> list[str]:
    """Pick the session shell from $SHELL (else bash, saying why): "$s" its name, "$p" the
    login shell's own path, or bash from PATH."""
    shells = carried(names)
    others = [shell.name for shell in shells if shell is not BASH]
    said = f"{SSH_NAME}: $H: your login shell is $SHELL"
    picks = f"{'|'.join(others)}) {_pick_login_shell(said)} ;;" if others else ""
    brings = _listed([shell.name for shell in shells])
    return [
        "s=bash; p=bash",
        f"case ${{SHELL##*/}} in bash) ;; {picks} "
        f'*) echo "{said}; dotdbg ssh brings {brings}: this session is bash" >&2 ;; esac',
    ]


def _start_steps(where: str, names: tuple[str, ...]) -> list[str]:
    """Check that bash is there when it is the session shell, start the session shell (zsh and
    fish once the archive that holds their files is there: fetched, or unpacked)."""
    env = "DOTDBG_SESSION_DIR=$d DOTDBG_SESSION_HOST=$H"
    unpacked = (
        f'if [ -z "$u" ]; then sh "$d/{FETCH}" || exit 1; else wait "$u"; fi; '
        '[ ! -e "$d/.why" ] || { r=; read -r r <"$d/.why"; echo "$r" >&2; exit 1; }; '
    )
    starts = " ".join(
        f"{shell.name}) {'' if shell is BASH else unpacked}"
        f"{shell.prepare + '; ' if shell.prepare else ''}{env} {shell.launch} 9>&- ;;"
        for shell in carried(names)
    )
    return [
        f'[ "$s" != bash ] || command -v bash >/dev/null 2>&1 || {{ echo "{where} no bash on '
        'this host: dotdbg ssh starts bash where your login shell is not one it brings" >&2; '
        "exit 127; }",
        f"case $s in {starts} esac",
        "exit $?",
    ]


def carried(names: tuple[str, ...]) -> list[SessionShell]:
    """bash, and the other session shells of ``names``."""
    return [shell for shell in SHELLS if shell is BASH or shell.name in names]


def _listed(names: list[str]) -> str:
    """ "bash", "bash or zsh", "bash, zsh or fish"."""
    return " or ".join(filter(None, [", ".join(names[:-1]), names[-1]]))


def _pick_login_shell(said: str) -> str:
    """The case branch of a login shell dotdbg brings: run it from $SHELL if it is there."""
    return (
        'if [ -x "$SHELL" ]; then s=${SHELL##*/}; p=$SHELL; '
        f'else echo "{said}, which is not on this host: this session is bash" >&2; fi'
    )


def one_line(script: str, name: str) -> str:
    """The script as one command line for any shell: it hands the script to sh."""
    assert "'" not in script and "\\\\" not in script, "the script must survive any login shell"
    return f"exec /bin/sh -c '{script}' {name}"


def remote_command(host: str, size: int, nonce: str, shells: tuple[str, ...] = ()) -> str:
    """What ssh is given to run: the login shell hands the script to sh."""
    return one_line(remote_script(host, size, nonce, shells), SCRIPT_NAME)


def typed_line(size: int, nonce: str, shells: tuple[str, ...] = ()) -> bytes:
    """What ``dotdbg shell`` types into the shell its command gives. Not to be kept in its
    history file: a space first (fish keeps no such line, nor bash and zsh where told to
    ignore them), and no HISTFILE (bash saves its history at exec; fish just says that
    ``unset`` is not its command, and goes on)."""
    script = one_line(remote_script(None, size, nonce, shells), SCRIPT_NAME)
    return f" unset HISTFILE; {script}\n".encode()
