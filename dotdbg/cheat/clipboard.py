"""Copying a command to the clipboard of the terminal the user sits at.

OSC 52 asks the terminal itself to set its clipboard, so it works from a remote machine over
ssh and from inside tmux (with ``set -g set-clipboard on``, or ``allow-passthrough on`` which
lets the sequence through unchanged). A local clipboard program (wl-copy, xclip, xsel, pbcopy)
is used as well when there is a display to reach, and alone where no terminal is.
"""

from __future__ import annotations

import os

from dotdbg.errors import DotdbgError

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

# Terminals that are known to ignore OSC 52 (the Linux console) or print it (dumb).
NO_OSC52_TERMS = ("dumb", "linux")
# Several terminals drop longer OSC 52 payloads; a cheatsheet command is far shorter.
MAX_OSC52_BYTES = 74_994


def osc52(text: str) -> bytes:
    """The escape sequence that sets the clipboard ("c") to ``text``."""
    import binascii

    payload = binascii.b2a_base64(text.encode(), newline=False)
    return b"\x1b]52;c;" + payload + b"\x07"


def through_passthrough(sequence: bytes) -> bytes:
    """``sequence`` wrapped so tmux hands it to the outer terminal (``allow-passthrough on``)."""
    return b"\x1bPtmux;" + sequence.replace(b"\x1b", b"\x1b\x1b") + b"\x1b\\"


def tmux_option(name: str, env: Mapping[str, str]) -> str | None:
    """A global option of the tmux server this shell runs in; None when it cannot be asked."""
    import subprocess

    try:
        done = subprocess.run(
            ["tmux", "show-options", "-gv", name],
            capture_output=True,
            text=True,
            timeout=5,
            env=dict(env),
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def terminal_sequence(text: str, env: Mapping[str, str]) -> tuple[bytes, str] | str:
    """What to write to the terminal and how it travels, or why OSC 52 cannot be used."""
    if env.get("TERM", "dumb") in NO_OSC52_TERMS:
        return f"TERM={env.get('TERM', '')} does not take OSC 52"
    sequence = osc52(text)
    if len(sequence) > MAX_OSC52_BYTES:
        return "too long for OSC 52"
    if not env.get("TMUX"):
        return sequence, "OSC 52"
    clipboard = tmux_option("set-clipboard", env)
    if clipboard == "on":
        return sequence, "OSC 52 through tmux"
    if clipboard is None:  # tmux did not answer: try both ways, one of them may get through
        return sequence + through_passthrough(sequence), "OSC 52, tmux's settings unknown"
    if tmux_option("allow-passthrough", env) in ("on", "all"):
        return through_passthrough(sequence), "OSC 52 through tmux passthrough"
    return "tmux keeps OSC 52 from the terminal (add `set -g set-clipboard on` to ~/.tmux.conf)"


# -- local clipboard programs -----------------------------------------------------------------
def local_tools(env: Mapping[str, str], which: Callable[[str], str | None]) -> list[list[str]]:
    """Clipboard programs that can reach a display from here, best first."""
    candidates = []
    if env.get("WAYLAND_DISPLAY"):
        candidates.append(["wl-copy"])
    if env.get("DISPLAY"):
        candidates += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    candidates.append(["pbcopy"])  # macOS: no variable says there is a pasteboard
    return [argv for argv in candidates if which(argv[0])]


def run_tool(argv: list[str], text: str) -> bool:
    import subprocess

    try:
        done = subprocess.run(
            argv, input=text.encode(), capture_output=True, timeout=5, start_new_session=True
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


# -- the whole copy ---------------------------------------------------------------------------
def write_to_terminal(data: bytes) -> bool:
    """Write ``data`` to the controlling terminal, whatever stdout is."""
    try:
        fd = os.open("/dev/tty", os.O_WRONLY | os.O_NOCTTY)
    except OSError:
        return False
    try:
        os.write(fd, data)
    except OSError:
        return False
    finally:
        os.close(fd)
    return True


def copy(text: str, env: Mapping[str, str]) -> list[str]:
    """Copy ``text`` every way that can reach the user; returns how, raises if none could."""
    import shutil

    used = []
    planned = terminal_sequence(text, env)
    over_ssh = bool(env.get("SSH_CONNECTION") or env.get("SSH_TTY"))
    if isinstance(planned, tuple) and write_to_terminal(planned[0]):
        used.append(planned[1])
    if not used or not over_ssh:  # over ssh a local tool would fill the remote machine's
        used += [argv[0] for argv in local_tools(env, shutil.which)[:1] if run_tool(argv, text)]
    if not used:
        why = planned if isinstance(planned, str) else "there is no terminal to send OSC 52 to"
        raise DotdbgError(
            f"cannot copy: {why}, and no clipboard program (wl-copy, xclip, xsel, pbcopy) works",
            hint="run it in a terminal, or install xclip",
        )
    return used
