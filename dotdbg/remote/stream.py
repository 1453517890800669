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


def stream(files: Mapping[str, bytes], archive: str) -> str:
    """The stream: each of ``files`` (name in the session dir: bytes) written by printf, then
    ``archive`` (base64 lines) into ARCHIVE. A write that fails sets ``e``."""
    lines = [f'printf {printf_format(data)} >"$d/{name}" || e=1\n' for name, data in files.items()]
    lines.append(f"printf %s '\n{archive}' >\"$d/{ARCHIVE}\" || e=1\n")
    return "".join(lines)
