"""A TOML config file read from disk, kept with its path, parsed with errors at file:line:col."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from dotdbg.common.record import Record
from dotdbg.config import parsed
from dotdbg.config.position import locate
from dotdbg.errors import DotdbgError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def loads(text: str) -> dict[str, Any]:
    """The tables of ``text`` (a copy of its own): remembered ones (``parsed``), else those of
    the standard library's TOML reader (tomli before Python 3.11), imported only here so that
    a run whose config is remembered spares its import, and noted for the next lookup."""
    found = parsed.tables(text)
    if found is None:
        found = _reader().loads(text)
        parsed.note(text, found)
    return found


def is_toml_error(error: Exception) -> bool:
    """Whether ``error`` is the TOML reader's: a syntax error in the text."""
    return isinstance(error, _reader().TOMLDecodeError)


def _reader() -> Any:
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib
    import tomli  # type: ignore[import-not-found,unused-ignore]  # pragma: no cover

    return tomli  # pragma: no cover - Python 3.10 only


class Source(Record):
    """One TOML file: where it is and its text (``parse`` reads its tables)."""

    path: Path
    text: str

    def parse(self) -> dict[str, Any]:
        """The tables of the text (``loads``); a syntax error names its file:line:col."""
        try:
            return loads(self.text)
        except ValueError as error:  # TOMLDecodeError is one
            if not is_toml_error(error):
                raise
            raise _syntax_error(self, error) from None

    def where(self, key_path: Sequence[str]) -> str:
        line, column = locate(self.text, key_path)
        return f"{self.path}:{line}:{column}"


def _syntax_error(source: Source, error: Exception) -> DotdbgError:
    if source.text.startswith("\ufeff"):
        return DotdbgError(
            "the file starts with a byte-order mark (BOM), which TOML does not allow",
            hint="save it as plain UTF-8, without BOM (your editor's encoding setting)",
            location=f"{source.path}:1:1",
        )
    message = str(error)
    match = re.search(r"\(at line (\d+), column (\d+)\)", message)
    where = f"{source.path}:{match[1]}:{match[2]}" if match else str(source.path)
    if "(at end of document)" in message:  # point just after the last thing written
        written = source.text.rstrip()
        line = written.count("\n") + 1
        where = f"{source.path}:{line}:{len(written) - written.rfind(chr(10))}"
    what = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", message)
    what = re.sub(r"\(((?:'[^']*',? ?)+)\)", _table_name, what) or "invalid TOML"
    return DotdbgError(
        f"TOML syntax error: {what[0].lower()}{what[1:]}",
        hint="fix the TOML at that position (strings need quotes; see `dotdbg init` for examples)",
        location=where,
    )


def _table_name(match: re.Match[str]) -> str:
    """tomllib's ``('pdb', 'aliases')`` as the user wrote it: ``[pdb.aliases]``."""
    return "[" + ".".join(re.findall(r"'([^']*)'", match[1])) + "]"


def read_user_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise DotdbgError(
            f"config is not valid UTF-8 (byte {error.start})",
            hint="save the file as UTF-8",
            location=str(path),
        ) from None
    except OSError as error:
        raise DotdbgError(
            f"cannot read config: {error.strerror}",
            hint=f"check the file: ls -l {path}",
            location=str(path),
        ) from None
