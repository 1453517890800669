"""The numbered picker: a page of entries at a time on the terminal, a number picks one.

The prompt widget runs ``dotdbg cheat --menu --above LINE`` where fzf is missing (fish, which
keeps its line shown, ``--above ''``: the menu starts below it). It talks to
``/dev/tty`` itself, keys unbuffered and with Ctrl-C read as a key rather than a signal: a
cancelled menu then leaves the shell's line and terminal exactly as they were. While it asks,
``LINE`` (the prompt and what was typed, which bash clears while a key binding runs) stays on
top; when it ends it erases everything it drew, so bash redraws the prompt line in place.
The picked command goes to stdout; nothing else does.
"""

from __future__ import annotations

import os

EXIT_PICKED = 0
EXIT_CANCELLED = 1
EXIT_COPIED = 3
CTRL_C, CTRL_D, CTRL_U, CTRL_W, ESC, BACKSPACES = "\x03", "\x04", "\x15", "\x17", "\x1b", "\x7f\b"
ROWS_AROUND_PAGE = 2  # the search words line above the page, the question below it

TYPE_CHECKING = False  # the typing module costs milliseconds; mypy knows this name
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    Record = tuple[str, str]  # what the list shows, the command


class Cancelled(Exception):
    """Ctrl-C, Esc, Ctrl-D or q."""


# -- pure parts -------------------------------------------------------------------------------
def cell_width(char: str) -> int:
    import unicodedata

    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def fit(text: str, columns: int) -> str:
    """``text`` cut to ``columns`` terminal cells, an ellipsis marking the cut."""
    if text.isascii():
        return text if len(text) <= columns else text[: columns - 1] + "…"
    out: list[str] = []
    used = 0
    for char in text:
        used += cell_width(char)
        if used > columns - 1:
            return "".join(out) + "…"
        out.append(char)
    return text


def rows_of(text: str, columns: int) -> int:
    """Terminal rows ``text`` takes; non-printing parts of a prompt (\\001...\\002) excluded."""
    shown, hidden = [], False
    for char in text:
        if char in "\x01\x02":
            hidden = char == "\x01"
        elif not hidden and char >= " ":
            shown.append(char)
    width = sum(cell_width(char) for char in shown)
    return max(1, -(-width // max(columns, 1)))


def page_lines(records: Sequence[Record], first: int, size: int, columns: int) -> list[str]:
    last = min(first + size, len(records))
    return [fit(f"{n + 1:4d}  {records[n][0]}", columns) for n in range(first, last)]


def question(first: int, size: int, total: int) -> str:
    shown = f"{first + 1}-{min(first + size, total)}/{total}"
    more = "Enter: more; " if total > size else ""
    return f"cheat: number to put on the line ({more}cN copies; q quits) [{shown}]: "


def answer_action(text: str, total: int) -> tuple[str, int]:
    """("pick"|"copy", index), ("next"|"prev", 0), ("quit", 0) or ("again", 0)."""
    text = text.strip().lower()
    if text in ("", "n"):
        return "next", 0
    if text in ("p", "-"):
        return "prev", 0
    if text == "q":
        return "quit", 0
    action, digits = ("copy", text[1:].strip()) if text.startswith("c") else ("pick", text)
    if digits.isdigit() and 1 <= int(digits) <= total:
        return action, int(digits) - 1
    return "again", 0


# -- the terminal -----------------------------------------------------------------------------
class Terminal:
    """/dev/tty in a mode where each key arrives at once, unechoed, Ctrl-C included."""

    def __init__(self) -> None:
        import termios

        self.fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
        self.saved = termios.tcgetattr(self.fd)
        mode = termios.tcgetattr(self.fd)
        mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
        mode[1] |= termios.OPOST | termios.ONLCR  # "\n" moves to the start of the next row
        mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
        termios.tcsetattr(self.fd, termios.TCSAFLUSH, mode)
        import codecs

        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.rows_drawn = 0  # rows below the first one we wrote on

    def close(self) -> None:
        import termios

        termios.tcsetattr(self.fd, termios.TCSAFLUSH, self.saved)
        os.close(self.fd)

    def size(self) -> tuple[int, int]:
        try:
            size = os.get_terminal_size(self.fd)
        except OSError:
            return 24, 80
        return size.lines or 24, size.columns or 80

    def write(self, text: str) -> None:
        self.rows_drawn += text.count("\n")
        os.write(self.fd, text.encode())

    def key(self) -> str:
        """One key; an escape sequence (an arrow) comes back whole, starting with ESC."""
        import select

        char = ""
        while not char:
            char = self.decoder.decode(os.read(self.fd, 1))
        if char != ESC:
            return char
        sequence = char
        while select.select([self.fd], [], [], 0.03)[0]:
            sequence += self.decoder.decode(os.read(self.fd, 1))
        return sequence

    def erase_drawn(self) -> None:
        """Back to the first row written and clear to the end of the screen."""
        up = f"\x1b[{self.rows_drawn}A" if self.rows_drawn else ""
        os.write(self.fd, f"\r{up}\x1b[J".encode())
        self.rows_drawn = 0

    def read_line(self, prompt: str, columns: int, q_quits: bool = False) -> str:
        """A line typed after ``prompt``, with Backspace, Ctrl-U and Ctrl-W; raises Cancelled
        on Ctrl-C, Esc, Ctrl-D on an empty line, and ``q`` first when ``q_quits``."""
        self.write(fit(prompt, columns))
        typed = ""
        room = max(columns - min(len(prompt), columns - 1) - 1, 1)
        while True:
            key = self.key()
            if key in ("\r", "\n"):
                return typed
            if key in (CTRL_C, ESC) or (not typed and key in (CTRL_D, "q" if q_quits else "")):
                raise Cancelled
            typed = self._edit(typed, key, room)

    def _edit(self, typed: str, key: str, room: int) -> str:
        if key in BACKSPACES:
            cut = typed[:-1]
        elif key == CTRL_U:
            cut = ""
        elif key == CTRL_W:
            cut = typed.rstrip()
            cut = cut[: cut.rfind(" ") + 1]
        elif key.isprintable() and not key.startswith(ESC) and len(typed) + len(key) <= room:
            os.write(self.fd, key.encode())
            return typed + key
        else:
            return typed
        erased = typed[len(cut) :]
        width = sum(cell_width(char) for char in erased)
        os.write(self.fd, ("\b" * width + " " * width + "\b" * width).encode())
        return cut


# -- the menu ---------------------------------------------------------------------------------
def run_menu(
    above: str | None,
    words: list[str],
    records_for: Callable[[list[str]], list[Record]],
    copy: Callable[[str], str],
) -> tuple[int, str]:
    """Ask, page, pick; returns (exit status, text for stdout)."""
    try:
        terminal = Terminal()
    except OSError as error:
        from dotdbg.errors import DotdbgError

        raise DotdbgError(
            f"the numbered picker needs a terminal: {error.strerror}",
            hint="run it from an interactive shell, or use dotdbg cheat --pick with fzf",
        ) from None
    try:
        return _ask(terminal, above, words, records_for, copy)
    except Cancelled:
        terminal.erase_drawn()
        return EXIT_CANCELLED, ""
    finally:
        terminal.close()


def _ask(
    terminal: Terminal,
    above: str | None,
    words: list[str],
    records_for: Callable[[list[str]], list[Record]],
    copy: Callable[[str], str],
) -> tuple[int, str]:
    rows, columns = terminal.size()
    if above is not None:  # "": the shell keeps its line shown (fish): start below it
        terminal.write(above.replace("\x01", "").replace("\x02", "") + "\n")
        terminal.rows_drawn += rows_of(above, columns) - 1
    if not words:
        words = terminal.read_line("cheat: search words (Enter for every entry): ", columns).split()
        terminal.write("\n")
    records = records_for(words)
    if not records:  # said where the prompt was; bash draws the prompt again below it
        terminal.erase_drawn()
        terminal.write(fit(f"cheat: nothing matches {' '.join(words)}", columns) + "\n")
        return EXIT_CANCELLED, ""
    size = max(rows - terminal.rows_drawn - ROWS_AROUND_PAGE, 1)
    return _page_through(terminal, records, size, columns, copy)


def _page_through(
    terminal: Terminal,
    records: Sequence[Record],
    size: int,
    columns: int,
    copy: Callable[[str], str],
) -> tuple[int, str]:
    first = 0
    top = terminal.rows_drawn  # where each page starts
    while True:
        lines = page_lines(records, first, size, columns)
        terminal.write("\n".join(lines) + "\n")
        typed = terminal.read_line(question(first, size, len(records)), columns, q_quits=True)
        action, index = answer_action(typed, len(records))
        if action == "quit":
            raise Cancelled
        if action in ("pick", "copy"):
            terminal.erase_drawn()
            if action == "pick":
                return EXIT_PICKED, records[index][1]
            terminal.write(fit(copy(records[index][1]), columns) + "\n")
            return EXIT_COPIED, ""
        if action == "next":
            first = first + size if first + size < len(records) else 0
        elif action == "prev":
            first = max(first - size, 0)
        _clear_below(terminal, top)


def _clear_below(terminal: Terminal, top: int) -> None:
    """Erase the page and question drawn since row ``top``, to draw the next page there."""
    up = terminal.rows_drawn - top
    os.write(terminal.fd, (f"\r\x1b[{up}A\x1b[J" if up else "\r\x1b[J").encode())
    terminal.rows_drawn = top
