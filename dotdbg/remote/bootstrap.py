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
3. starts the session shell: the user's login shell (``$SHELL``, which sshd takes from their
   passwd entry) when it is one of ``SHELLS`` and the payload carries it, else bash, saying
   why in one line. Its rc files read what a login shell over plain ssh reads, then dotdbg's.

Each shell a session can start is one ``SessionShell`` in ``SHELLS``: the files it needs and
the sh words that start it. Nothing else names a shell.
"""

from __future__ import annotations

import os
import string

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Mapping

SAFE = frozenset(string.ascii_letters + string.digits + "._@:%+-")

SCRIPT_NAME = "dotdbg-ssh"  # $0 of the remote script, as ps shows it


class SessionShell:
    """One shell a session can start. A plain class: ``dotdbg ssh`` starts without importing
    dataclasses (inspect) or typing; tests/remote/test_session_files.py checks the names."""

    __slots__ = ("launch", "name", "prepare", "rc_files", "rendered")

    def __init__(
        self,
        name: str,
        rc_files: tuple[tuple[str, str], ...],
        rendered: str,
        launch: str,
        prepare: str = "",
    ) -> None:
        self.name = name  # the program, and what ``$SHELL`` ends with to pick it
        # (name in the session dir, file beside this module): the session's rc files
        self.rc_files = rc_files
        self.rendered = rendered  # the file render makes for this shell (render.Rendered.files)
        # sh words that start it: "$d" is the session dir, "$p" the program ($SHELL or bash)
        self.launch = launch
        self.prepare = prepare  # sh commands run just before, in the script's process


BASH = SessionShell(
    name="bash",
    rc_files=(("session.bash", "session.bash"),),
    rendered="dotdbg.bash",  # render.BASH_FILE
    launch='"$p" --rcfile "$d/session.bash" -i',
)
# zsh has no --rcfile: ZDOTDIR names the session dir, whose files source the user's own
# (their ZDOTDIR travels as DOTDBG_ZDOTDIR). A login shell, as plain ssh starts.
ZSH = SessionShell(
    name="zsh",
    rc_files=tuple(
        (f".{name}", f"session.{name}") for name in ("zshenv", "zprofile", "zshrc", "zlogin")
    ),
    rendered="dotdbg.zsh",  # zshfish.ZSH_FILE
    launch='DOTDBG_ZDOTDIR=${ZDOTDIR-} ZDOTDIR=$d "$p" -il',
)
# fish reads its history from XDG_DATA_HOME at start: a copy of the user's in the session dir,
# which session.fish (run after config.fish by -C) points back to the user's own for the rest.
FISH = SessionShell(
    name="fish",
    rc_files=(("session.fish", "session.fish"),),
    rendered="dotdbg.fish",  # zshfish.FISH_FILE
    prepare=(
        'h=${XDG_DATA_HOME:-$HOME/.local/share}/fish/fish_history; mkdir -p "$d/data/fish" && '
        '{ [ ! -r "$h" ] || cp "$h" "$d/data/fish/fish_history"; }'
    ),
    launch=(
        'DOTDBG_XDG_DATA_HOME=${XDG_DATA_HOME-} XDG_DATA_HOME=$d/data "$p" -il '
        '-C "source \\$DOTDBG_SESSION_DIR/session.fish"'
    ),
)
SHELLS: tuple[SessionShell, ...] = (BASH, ZSH, FISH)  # the first where no other can start

# The shells other than bash a session can start, and the base64 archive of their files.
Packed = tuple[tuple[str, ...], str]
NOTHING_PACKED: Packed = ((), "")


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


# The guard: it blocks reading a FIFO until the script's end closes fd 9 (which the session's
# shell does not inherit), then removes the session dir, whatever ended the script.
# The session's script killed (-9, a dropped connection): the guard, reading a FIFO only that
# script holds open, wakes and removes the directory. The cheat archive may still be unpacking
# into it (rm -rf then fails on a directory tar just filled), so it tries again, ten times.
GUARD = (
    'mkfifo "$d/.guard" && { (trap "" HUP INT TERM; read x <"$d/.guard"; '
    'for i in 1 2 3 4 5 6 7 8 9 10; do rm -rf "$d"; [ -e "$d" ] || break; sleep 0.2; done) '
    '</dev/null >/dev/null 2>&1 & }; exec 9>"$d/.guard"'
)
# The session's end: the cheat archive's unpacking ($u) is waited for, then the directory goes.
CLEANUP = 'c() { [ -z "$u" ] || wait "$u" 2>/dev/null; rm -rf "$d"; }'


def remote_script(
    host: str, files: Mapping[str, str], archive: str, packed: Packed = NOTHING_PACKED
) -> str:
    """The sh script, on one line (tcsh rejects a newline inside quotes). ``files`` (name to
    text) are written with the printf builtin, before the shell starts; ``archive`` (base64 of
    the cheat code and sheets, bundle.archive) is unpacked beside the shell's start-up: three
    processes fewer on the way to the prompt. ``packed``: the shells other than bash that the
    session can start, and the base64 archive of their files, unpacked before one starts
    (one archive: their texts share much, and gzip finds it)."""
    where = f"dotdbg: error: {safe_host(host)}:"
    writes = " && ".join(
        f'printf %b "{escaped(text)}" >"$d/{name}"' for name, text in files.items()
    )
    steps = [
        "umask 077",
        'd=$(mktemp -d "${TMPDIR:-/tmp}/dotdbg-ssh.XXXXXXXXXX") || '
        f'{{ echo "{where} mktemp -d failed: no private directory for the session" >&2; exit 1; }}',
        CLEANUP,
        "trap c EXIT",
        'trap "exit 129" HUP',
        'trap "exit 130" INT',
        'trap "exit 143" TERM',
        GUARD,
        f"{{ {writes}; }} || "
        f'{{ echo "{where} cannot write the session files in $d" >&2; exit 1; }}',
        *_choose_steps(safe_host(host), packed),
        f'{{ (printf %s {archive} | base64 -d | gzip -dc | tar -xf - -C "$d") 9>&- & }}',
        "u=$!",
        *_start_steps(safe_host(host), where, packed),
    ]
    return "; ".join(steps)


# Bytes printf %b writes as they are, inside double quotes in the script: printable ASCII but
# the quotes, $, ` and the backslash (fish reads \\ and \' even inside single quotes).
PLAIN = frozenset(range(0x20, 0x7F)) - frozenset(b"\"$`\\'")


SHORT = {ord("\n"): "\\n", ord("\t"): "\\t"}  # 2 bytes instead of 5: the files are mostly lines


def escaped(text: str) -> str:
    """``text`` for ``printf %b "…"``: every other byte as an escape (\\n, \\t, \\0NNN)."""
    return "".join(chr(b) if b in PLAIN else SHORT.get(b) or f"\\0{b:03o}" for b in text.encode())


def _choose_steps(host: str, packed: Packed) -> list[str]:
    """Pick the session shell from $SHELL (else bash, saying why) and unpack its files: "$s"
    its name, "$p" the login shell's own path, or bash from PATH. Before the cheat archive's
    background unpacking, which would compete for the CPU."""
    shells = carried(packed[0])
    others = [shell.name for shell in shells if shell is not BASH]
    said = f"dotdbg ssh: {host}: your login shell is $SHELL"
    picks = f"{'|'.join(others)}) {_pick_login_shell(said)} ;;" if others else ""
    failed = (
        f"dotdbg ssh: {host}: cannot unpack the $s files (base64, gzip, tar): this session is bash"
    )
    unpack = f'{{ printf %s {packed[1]} | base64 -d | gzip -dc | tar -xf - -C "$d"; }} 2>/dev/null'
    brings = _listed([shell.name for shell in shells])
    return [
        "s=bash; p=bash",
        f"case ${{SHELL##*/}} in bash) ;; {picks} "
        f'*) echo "{said}; dotdbg ssh brings {brings}: this session is bash" >&2 ;; esac',
        f'[ "$s" = bash ] || {unpack} || {{ echo "{failed}" >&2; s=bash; p=bash; }}'
        if others
        else ":",
    ]


def _start_steps(host: str, where: str, packed: Packed) -> list[str]:
    """Check that bash is there when it is the session shell, start the session shell."""
    env = f"DOTDBG_SESSION_DIR=$d DOTDBG_SESSION_HOST={host}"
    starts = " ".join(
        f"{shell.name}) {shell.prepare + '; ' if shell.prepare else ''}{env} {shell.launch} 9>&- ;;"
        for shell in carried(packed[0])
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


def remote_command(
    host: str, files: Mapping[str, str], archive: str, packed: Packed = NOTHING_PACKED
) -> str:
    """What ssh is given to run: the login shell hands the script to sh."""
    script = remote_script(host, files, archive, packed)
    assert "'" not in script and "\\\\" not in script, "the script must survive any login shell"
    return f"exec /bin/sh -c '{script}' {SCRIPT_NAME}"
