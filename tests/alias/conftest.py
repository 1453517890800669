"""The e2e fixtures, shared: a home where dotdbg is installed, and a bash in tmux running in it."""

from __future__ import annotations

from tests.e2e.conftest import installed_home, shell

__all__ = ["installed_home", "shell"]
