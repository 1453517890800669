"""The frame two processes are said to share: what the merge compares instead of the raw frame.

A Python frame is its own key. A native frame is keyed by its function and the library (or
source file) it is in, without what differs between two runs of one program: an unresolved
frame's address (py-spy names it ``0x7f3a…``, gdb ``??``, and ASLR moves it in every process),
an offset (``foo+0x1a``), a symbol version (``clock_nanosleep@GLIBC_2.2.5``), the directory of
a library and its version suffix (``/usr/lib/…/libffi.so.8.1.2`` in a live process,
``libffi.so.8`` in its core). Without this, ranks waiting in the very same C call never merge.
"""

from __future__ import annotations

import re

from dotdbg.stacks.record import Frame

UNKNOWN = "??"
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+|\?+")
_OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")
_SO_VERSION = re.compile(r"(\.so)(\.[0-9]+)+$")

_keys: dict[Frame, Frame] = {}
_KEY_CACHE_LIMIT = 200_000


def function_name(name: str) -> str:
    name = _OFFSET.sub("", name.split("@", 1)[0])
    return UNKNOWN if _ADDRESS.fullmatch(name) else name


def where(path: str | None) -> str | None:
    """A library or source file by its base name, a library without its version suffix."""
    if not path:
        return None
    return _SO_VERSION.sub(r"\1", path.rsplit("/", 1)[-1])


def key(frame: Frame) -> Frame:
    """The frame as merged (and shown in a merged tree)."""
    if not frame.native:
        return frame
    found = _keys.get(frame)
    if found is None:
        found = Frame(function_name(frame.function), where(frame.file), frame.line, True)
        if len(_keys) < _KEY_CACHE_LIMIT:
            _keys[frame] = found
    return found
