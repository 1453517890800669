"""What an entry's command lines hold: where they are typed, and how many commands they are.

An entry's comment may end its first line with tags in brackets, ``# dump the stack [pdb]``:
a word naming where the command is typed when that differs from the sheet's ``syntax``
(``bash``, ``python``, ``pdb``, ``pdbrc``, ``gdb``), and words naming what it needs that a
plain offline machine lacks (``net``, ``gpu``, ``slurm``, ``tty``, ``system``, ``extra``,
``py3.12``...). The sheets' executed-entries test runs every entry that needs nothing.

One entry should hold one command; ``split`` finds the commands in an entry's lines so the
picker offers each alone and ``--lint`` can say when an entry holds two. It scans the text
(quotes, ``\\`` continuations, here-documents, brackets and compound commands) rather than
parsing it: a picker must stay fast and work without bash.
"""

from __future__ import annotations

SHELL = "bash"
WHERE_TAGS = ("bash", "python", "pdb", "pdbrc", "gdb")
NEED_TAGS = ("net", "gpu", "slurm", "tty", "system", "extra")
SHELL_SYNTAXES = ("", "bash", "sh", "shell", "zsh", "console")


def is_tag(word: str) -> bool:
    if word in WHERE_TAGS or word in NEED_TAGS:
        return True
    return word.startswith("py3.") and word[4:].isdigit()


def entry_tags(comment: str) -> list[str]:
    """The bracketed tags ending the comment's first line; none unless every word is one."""
    first = comment.split("\n", 1)[0].rstrip()
    if not first.endswith("]") or "[" not in first:
        return []
    words = first[first.rindex("[") + 1 : -1].replace(",", " ").split()
    return words if words and all(is_tag(word) for word in words) else []


def entry_syntax(comment: str, sheet_syntax: str) -> str:
    """Where the entry is typed: its tag, else the sheet's syntax (empty means a shell)."""
    for tag in entry_tags(comment):
        if tag in WHERE_TAGS:
            return tag
    return SHELL if sheet_syntax.lower() in SHELL_SYNTAXES else sheet_syntax.lower()


def split(command: str, syntax: str) -> list[str]:
    """The separate commands of an entry's command lines, each in its own string."""
    if syntax == SHELL:
        return split_shell(command)
    if syntax == "python":
        return split_python(command)
    if syntax in ("pdb", "gdb"):
        return split_prompt(command, syntax)
    return [command]


TABLE_COMMENT = "  # "


def is_table(commands: list[str]) -> bool:
    """Alternatives laid out as a table, each command with its own aligned trailing comment
    (``t.half()   # torch.float16``): the picker offers each line alone, with its comment."""
    return all(TABLE_COMMENT in command.rstrip().split("\n")[-1] for command in commands)


# -- python -----------------------------------------------------------------------------------
def split_python(code: str) -> list[str]:
    """Top-level statements; code that does not parse stays whole."""
    import ast  # only for python entries: a few milliseconds the shell sheets do not pay

    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError):
        return [code]
    if len(body) <= 1:
        return [code]
    lines = code.split("\n")
    starts = [_first_line(statement) for statement in body]
    spans = list(zip(starts, [*starts[1:], len(lines)]))  # noqa: B905 (no strict= in 3.8)
    if any(start == end for start, end in spans):  # `a; b` on one line is one command
        return [code]
    return ["\n".join(lines[start:end]).strip("\n") for start, end in spans]


def _first_line(statement: object) -> int:
    decorators = getattr(statement, "decorator_list", [])
    lines: list[int] = [node.lineno for node in decorators] + [getattr(statement, "lineno", 1)]
    return min(lines) - 1


# -- debugger prompts -------------------------------------------------------------------------
# A block these open runs until `end` (pdb's `commands` also ends at a command that resumes).
BLOCK_OPENERS = {"commands", "define", "document", "python", "python-interactive", "if", "while"}
PDB_RESUMING = {"c", "cont", "continue", "s", "step", "n", "next", "r", "return", "j", "jump", "q"}


def split_prompt(text: str, syntax: str) -> list[str]:
    commands: list[str] = []
    block: list[str] = []
    for line in text.split("\n"):
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if block:
            block.append(line)
            ends_pdb_block = syntax == "pdb" and word in PDB_RESUMING
            if word == "end" or ends_pdb_block:
                commands.append("\n".join(block))
                block = []
        elif word in BLOCK_OPENERS and (syntax == "gdb" or word == "commands"):
            block = [line]
        elif line.strip():
            commands.append(line)
    if block:
        commands.append("\n".join(block))
    return commands or [text]


# -- shell ------------------------------------------------------------------------------------
OPENERS = {"if": "fi", "case": "esac", "do": "done", "{": "}"}
# Words after which the next word is again in command position.
LEADING = {"then", "do", "else", "elif", "if", "while", "until", "!", "{", "time"}
CONTINUES = ("|", "&&", "||", "|&")


class _Scanner:
    """Shell text read line by line: does a command end at this line's end?"""

    def __init__(self) -> None:
        self.quote = ""  # "'", '"' or "$'" while inside such a quote
        self.open: list[str] = []  # what must close first: ")", "}" of ${, fi, esac, done, }
        self.heredocs: list[tuple[str, bool]] = []  # (delimiter, strip tabs) still to read
        self.in_heredoc: tuple[str, bool] | None = None

    def line_ends_command(self, line: str) -> bool:
        if self.in_heredoc is not None:
            self._heredoc_line(line)
        else:
            tail = self._scan(line)
            if self.heredocs and not self.quote:
                self.in_heredoc = self.heredocs.pop(0)
                return False
            if self.quote or tail.endswith("\\") or tail.endswith(CONTINUES):
                return False
        return self.in_heredoc is None and not self.open and not self.quote

    def _heredoc_line(self, line: str) -> None:
        assert self.in_heredoc is not None
        delimiter, strip_tabs = self.in_heredoc
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            self.in_heredoc = self.heredocs.pop(0) if self.heredocs else None

    def _close(self, closer: str) -> None:
        if closer in self.open:  # a stray closer (`echo done`) closes nothing
            del self.open[len(self.open) - 1 - self.open[::-1].index(closer) :]

    def _scan(self, line: str) -> str:
        """Walk one line; returns the line without a trailing comment, right-stripped."""
        index, at_start, word = 0, True, ""
        while index < len(line):
            char = line[index]
            if self.quote:
                index = self._in_quote(line, index)
                continue
            if char == "\\":
                index += 2
                word += "\\"
                continue
            if char == "#" and not word:
                return line[:index].rstrip()
            if char in " \t;&|()<":
                at_start = self._end_word(word, at_start)
                word = ""
                index, at_start = self._operator(line, index, at_start)
                continue
            if char in "'\"":
                self.quote = "$'" if char == "'" and word.endswith("$") else char
            elif char == "{" and word.endswith("$"):
                self.open.append("${")
            elif char == "}" and self.open and self.open[-1] == "${":
                self.open.pop()
            word += char
            index += 1
        self._end_word(word, at_start)
        return line.rstrip()

    def _in_quote(self, line: str, index: int) -> int:
        char = line[index]
        if char == "\\" and self.quote != "'":
            return index + 2
        if char == self.quote[-1]:
            self.quote = ""
        return index + 1

    def _end_word(self, word: str, at_start: bool) -> bool:
        """Note a keyword in command position; returns whether the next word is in one."""
        if not word:
            return at_start
        if not at_start:
            return False
        if word in OPENERS:
            self.open.append(OPENERS[word])
        elif word in ("fi", "esac", "done", "}"):
            self._close(word)
            return False
        return word in LEADING

    def _operator(self, line: str, index: int, at_start: bool) -> tuple[int, bool]:
        char = line[index]
        if char in " \t":
            return index + 1, at_start
        if char == "(":
            self.open.append(")")
            return index + 1, True
        if char == ")":
            if self.open and self.open[-1] == "esac":  # a case pattern: `start)`
                return index + 1, True
            self._close(")")
            return index + 1, False
        if char == "<":
            return self._redirect(line, index), False
        return index + 1, True  # ; & |

    def _redirect(self, line: str, index: int) -> int:
        """A `<`: note a here-document's delimiter (`<<EOF`, `<<-'EOF'`); `<<<` is not one."""
        if not line.startswith("<<", index) or line.startswith("<<<", index):
            return index + 1
        index += 2
        strip_tabs = line.startswith("-", index)
        index += strip_tabs
        while index < len(line) and line[index] in " \t":
            index += 1
        end = index
        while end < len(line) and line[end] not in " \t;&|()<>":
            end += 1
        delimiter = line[index:end].replace("'", "").replace('"', "").replace("\\", "")
        if delimiter:
            self.heredocs.append((delimiter, strip_tabs))
        return end


def split_shell(text: str) -> list[str]:
    """Commands of shell text: a line ends one unless something keeps it open."""
    scanner = _Scanner()
    commands: list[str] = []
    current: list[str] = []
    for line in text.split("\n"):
        current.append(line)
        if scanner.line_ends_command(line):
            if any(part.strip() for part in current):
                commands.append("\n".join(current))
            current = []
    if current and any(part.strip() for part in current):
        commands.append("\n".join(current))
    return commands or [text]
