"""Text from a config or a sheet shown as text: control characters escaped where the user sees them.

An alias value or a sheet from a cloned repository's ``.cheat/`` can hold ESC and other control
characters: printed raw they would set the window title (OSC 0), write the clipboard (OSC 52)
or clear the screen (CSI 2J), and a 0x1f byte would forge the picker's record separator. They
are shown as ``\\xNN`` / ``\\uNNNN`` escapes instead, as are the Unicode controls that reorder
text on screen. Everything dotdbg prints from a config or a sheet goes through ``visible``;
JSON through ``json_safe``.
"""

# No ``from __future__ import annotations``: dotdbg cheat's warm path imports this module, and
# __future__ would be one module more on it (annotations 3.8 cannot evaluate are strings).
TAB_AND_NEWLINE = "\t\n"
# Unicode's bidirectional marks, embeddings, overrides and isolates reorder what a terminal
# shows, so a command could read differently from what it runs ("Trojan Source", CVE-2021-42574).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _is_control(char: str) -> bool:
    code = ord(char)
    return code < 0x20 or 0x7F <= code <= 0x9F or char in BIDI_CONTROLS


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str, keep: str = TAB_AND_NEWLINE) -> str:
    """``text`` with every control character but those in ``keep`` written as an escape."""
    if text.isprintable():  # the common case, checked in C
        return text
    return "".join(
        _escape(char) if _is_control(char) and char not in keep else char for char in text
    )


def one_line(text: str) -> str:
    """``visible`` with tabs and newlines escaped too: for a name, a header or a table cell."""
    return visible(text, keep="")


def pieces(text: str) -> "list[tuple[str, bool]]":
    """``one_line(text)`` in runs of plain text and of escapes (True), to style the escapes."""
    if text.isprintable():  # the common case, checked in C
        return [(text, False)] if text else []
    out: list[tuple[str, bool]] = []
    plain: list[str] = []  # joined once per run: adding to a string would be quadratic
    for char in text:
        if not _is_control(char):
            plain.append(char)
            continue
        if plain:
            out.append(("".join(plain), False))
            plain = []
        out.append((_escape(char), True))
    if plain:
        out.append(("".join(plain), False))
    return out


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
