"""A home file read without dotdbg's PATH block (``blocks.PATH``, first in ~/.bashrc whenever
the dotdbg running the tests, a venv's, is not on a standard PATH)."""

from __future__ import annotations

from dotdbg.home import blocks


def without_path_block(data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    return blocks.remove(text, "", markers=blocks.PATH).encode("utf-8", "surrogateescape")
