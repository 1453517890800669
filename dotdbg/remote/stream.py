"""The stream ``dotdbg ssh`` and ``dotdbg shell`` write on the session's input: sh code that
the remote script (dotdbg.remote.bootstrap) sources, from the terminal itself (``. /dev/stdin``,
up to the EOF key) or, where the input is a pipe, from a file ``head -c`` wrote.

The files a bash session needs to start (its rc, ``dotdbg.bash``, the inputrc) are ``printf``
commands, the shell's own builtin: no process starts for them, where each one waits for a core
on a loaded host. The rest (the shim, the cheat code and sheets, zsh's and fish's files) is one
gzip'd tar in base64 lines, written by ``printf`` too and unpacked in the background while the
session shell starts.

A terminal in canonical mode reads this text line by line, where control characters are keys
(Ctrl-C, Ctrl-D, Ctrl-U, ...) and a line holds 4095 bytes at most, and ssh reads a "~" at a
line's start as its escape key: every byte but printable ASCII and the newline, and "~", is an
octal escape of printf's, and no line is longer than LINE.
"""

from __future__ import annotations

TYPE_CHECKING = False  # this module is imported at every session's start; mypy knows the name
if TYPE_CHECKING:
    from collections.abc import Mapping

LINE = 1000  # the longest line of the stream (canonical mode: 4095)
ARCHIVE = ".a"  # the archive's base64 text in the session dir, until it is unpacked
# printf's format as sh's single quotes hold it: the quote, the escape and the conversion
# characters are escapes of their own; so is "~", ssh's escape key at a line's start ("~." ends
# the connection, "~C" opens ssh's command line): the stream goes through ssh's input
SPECIAL = {ord("'"): "\\047", ord("\\"): "\\\\", ord("%"): "%%", ord("~"): "\\176"}
_CONTINUED = "'\\\n'"  # a quote closed, a line continued (backslash-newline), a quote opened


def printf_format(data: bytes) -> str:
    """``data`` as one sh word, single-quoted, that printf turns back into exactly ``data``;
    lines of at most LINE characters (a long line goes on after a backslash-newline, which
    sh drops outside quotes)."""
    tokens = [_token(byte) for byte in data]
    if data.startswith(b"-"):  # not an option of printf's
        tokens[0] = "\\055"
    out = ["'"]
    width = 1
    for token in tokens:
        if token == "\n":
            width = 0
        elif width + len(token) > LINE - 2:  # room for the closing quote and backslash
            out.append(_CONTINUED)
            width = 1
        out.append(token)
        width += len(token)
    out.append("'")
    return "".join(out)


def _token(byte: int) -> str:
    if byte == 0x0A or (0x20 <= byte < 0x7F and byte not in SPECIAL):
        return chr(byte)
    return SPECIAL.get(byte, f"\\{byte:03o}")


FETCH = "fetch"  # the sh script that asks dotdbg for the archive on the terminal


def stream(files: Mapping[str, bytes], archive: str | None) -> str:
    """The stream: each of ``files`` (name in the session dir: bytes) written by printf, then
    ``archive`` (base64 lines), if any, into ARCHIVE. A write that fails sets ``e``."""
    lines = [f'printf {printf_format(data)} >"$d/{name}" || e=1\n' for name, data in files.items()]
    if archive is not None:
        lines.append(f"printf %s '\n{archive}' >\"$d/{ARCHIVE}\" || e=1\n")
    return "".join(lines)


def send_marker(key: str) -> bytes:
    """What FETCH prints on the terminal to ask for the archive: ``key`` is the session's own,
    in no argument or environment (``ps`` does not show it), so no other output is taken for
    it."""
    return f"DOTDBG{key}SEND".encode()


def got_marker(key: str) -> bytes:
    """What FETCH prints once it has read the archive (its echo comes before)."""
    return f"DOTDBG{key}GOT".encode()


def fetch_script(key: str, size: int, host: str) -> bytes:
    """FETCH, run as ``sh FETCH``: it asks for the archive (``size`` bytes of base64 lines) on
    the terminal the session shell runs it on (``/dev/tty``: not its output, which a completion
    reads), and unpacks it beside itself; one line naming ``host`` if it cannot.

    What comes on the terminal goes to whoever reads it, so FETCH asks only when it is in the
    terminal's foreground (else the shell would read the archive as keys), skips what was typed
    before the request up to the key's own line (as the session's script does), and reads all
    of it into a file before anything may fail. The markers are not in its text as they are
    printed (``cat`` of it is no request)."""
    why = f"dotdbg: error: {host}: cannot unpack the session files (base64, gzip, tar)"
    return (
        "d=${0%/*}\n"
        "s=; read -r s </proc/self/stat; set -- $s\n"
        f'[ -n "$8" ] && [ "$5" = "$8" ] || {{ echo \'{why}: they come at the first ch at the '
        "prompt' >&2; exit 1; }\n"
        f"exec 3<>/dev/tty || exit 1\n"
        f'printf "DOTDBG%sSEND" {key} >&3\n'
        f"while :; do read -r l <&3 || exit 1; case $l in *{key}) break ;; esac; done\n"
        f'head -c {size} <&3 >"$d/.f"; r=$?\n'
        f'printf "DOTDBG%sGOT" {key} >&3\n'
        f'[ "$r" = 0 ] && {{ base64 -d <"$d/.f" | gzip -dc | tar -xf - -C "$d"; }} 2>"$d/.err"\n'
        'r=$?; rm -f "$d/.f"\n'
        '[ "$r" = 0 ] && exit 0\n'
        'e=; read -r e <"$d/.err"\n'
        f"echo '{why}:' \"$e\" >&2\n"
        "exit 1\n"
    ).encode()
