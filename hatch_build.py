"""The wheel's man pages, written at build time from the command registry (dotdbg.cli.manpage):
a page per command, always the commands' own, as shared data in share/man/man1, which pip and
pipx put beside the venv's bin/ where man finds it through PATH."""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class ManPages(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self._folder = Path(tempfile.mkdtemp(prefix="dotdbg-man-"))
        for name, text in _pages(self.root).items():
            page = self._folder / name
            page.write_text(text, encoding="utf-8")
            build_data["shared_data"][str(page)] = f"share/man/man1/{name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        folder = getattr(self, "_folder", None)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _pages(root: str) -> dict[str, str]:
    """dotdbg.cli.manpage.pages() of the source tree being built (standard library only)."""
    sys.path.insert(0, root)
    try:
        from dotdbg.cli import manpage

        return manpage.pages()
    finally:
        sys.path.remove(root)
