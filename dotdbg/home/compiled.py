"""Compiled templates kept between runs, as Python keeps its .pyc files: without them jinja2
compiles each template to Python at every render (about as long as importing jinja2: 15-20 ms
of every install or alias edit that renders; issue 27). Imported by jinja2's render alone, which
runs only for templates edited since ``templatecode`` was compiled from them.

A compiled template is used only for the same template text (jinja2's checksum of the
source), the same jinja2 and Python (its magic header) and the same environment options
(``tag``): it is never stale. It lives in dotdbg's own ``__pycache__``, beside its .pyc files,
not in the home; where dotdbg cannot write there (a system-wide install), or where Python
writes no .pyc (PYTHONDONTWRITEBYTECODE, -B), it compiles each time.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
from pathlib import Path

# imported only by the render, which needs jinja2 anyway
import jinja2  # noqa: TID253
from jinja2.bccache import Bucket  # noqa: TID253

FOLDER = Path(__file__).resolve().parent.parent / "__pycache__" / "templates"


class CompiledTemplates(jinja2.BytecodeCache):
    def __init__(self, tag: str, folder: Path | None = None) -> None:
        self.tag, self.folder = tag, FOLDER if folder is None else folder

    def _file(self, bucket: Bucket) -> Path:
        return self.folder / f"{bucket.key}-{self.tag}.jinja"

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            data = self._file(bucket).read_bytes()
        except OSError:
            return
        try:
            bucket.bytecode_from_string(data)
        except (pickle.UnpicklingError, EOFError, ValueError, TypeError):
            bucket.reset()  # a damaged file: compiled again, and written again

    def dump_bytecode(self, bucket: Bucket) -> None:
        if sys.dont_write_bytecode:  # PYTHONDONTWRITEBYTECODE or -B: no .pyc, no compiled template
            return
        target = self._file(bucket)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(bucket.bytecode_to_string())
            os.replace(temporary, target)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()
