"""Text from a config shown as text: control characters never reach the terminal raw.

An alias value can hold ESC and other control characters (TOML's "\\u001b"): printed raw they
would set the window title, write the clipboard (OSC 52) or clear the screen. They are shown
as escapes instead (``\\e``, ``\\t``, ``\\x1f``, ``\\u202e``), as are the Unicode controls that
reorder text on screen.
"""

from __future__ import annotations

import re

NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r", "\x1b": "\\e"}
# bidirectional controls: they make text display in another order than it is (CVE-2021-42574)
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_HIDDEN = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{BIDI}]")


def escape(char: str) -> str:
    """How one hidden character is shown."""
    if char in NAMED:
        return NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def visible(text: str) -> str:
    """``text`` with every control character shown as its escape."""
    return _HIDDEN.sub(lambda match: escape(match[0]), text)


def pieces(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into runs of plain text and of escapes (True), for styling the escapes."""
    out: list[tuple[str, bool]] = []
    position = 0
    for match in _HIDDEN.finditer(text):
        if match.start() > position:
            out.append((text[position : match.start()], False))
        out.append((escape(match[0]), True))
        position = match.end()
    if position < len(text):
        out.append((text[position:], False))
    return out
