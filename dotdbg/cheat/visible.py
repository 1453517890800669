"""Text from sheets shown as text: control characters escaped where the user can see them.

A sheet can come from a cloned repository's ``.cheat/``; an ESC in it would otherwise reach the
terminal as a control sequence (OSC 52 writes the clipboard, OSC 0 the window title, CSI 2J
clears the screen), and a 0x1f byte would forge the picker's record separator. Everything
dotdbg prints from a sheet goes through ``visible``; JSON through ``json_safe``.
"""

from __future__ import annotations

TAB_AND_NEWLINE = "\t\n"
# Unicode's bidirectional embeddings, overrides and isolates reorder what a terminal shows, so
# a command could read differently from what it runs ("Trojan Source").
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _is_control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in BIDI_CONTROLS


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str, keep: str = TAB_AND_NEWLINE) -> str:
    """``text`` with every control character but those in ``keep`` written as ``\\xNN``."""
    if text.isprintable():  # the common case, checked in C
        return text
    return "".join(
        _escape(char) if _is_control(char) and char not in keep else char for char in text
    )


def one_line(text: str) -> str:
    """``visible`` with tabs and newlines escaped too: for a name or a header."""
    return visible(text, keep="")


def is_plain(text: str) -> bool:
    """No control character at all: ``text`` can be one line of a line-based protocol."""
    return text.isprintable() or not any(_is_control(char) for char in text)


def json_safe(dumped: str) -> str:
    """JSON text with DEL, the C1 controls and bidi controls as ``\\uNNNN`` escapes too.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 only; these others can stand only inside
    strings, where the escape means the same character."""
    if dumped.isascii() and "\x7f" not in dumped:
        return dumped
    return "".join(
        f"\\u{ord(char):04x}" if ord(char) >= 0x7F and _is_control(char) else char
        for char in dumped
    )
