"""Calling a function in a forked child, with a deadline.

pystack attaches and unwinds inside a C++ call that Python cannot interrupt: a target stuck in
the kernel (state D, a GPU driver call) would hold dotdbg forever. In a child, the call can be
abandoned at its deadline (SIGKILL; ``tracee`` then continues the target). A fork costs about
1 ms and imports nothing again, where a new interpreter would cost a whole start-up.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
import traceback
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

T = TypeVar("T")


class ChildTimeout(Exception):
    pass


def call(function: Callable[..., T], *args: Any, timeout: float) -> T:
    """``function(*args)`` run in a child; its exception is raised here, as if called here."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child; the tests see what it sends
        os.close(read_end)
        _child(write_end, function, args)
    os.close(write_end)
    try:
        payload = _read_all(read_end, time.monotonic() + timeout)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(read_end)
        os.waitpid(pid, 0)
    ok, value = pickle.loads(payload)
    if ok:
        return value  # type: ignore[no-any-return]
    raise value


def _read_all(fd: int, deadline: float) -> bytes:
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            raise ChildTimeout
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _child(fd: int, function: Callable[..., Any], args: tuple[Any, ...]) -> NoReturn:
    # pystack's C++ layer logs every failed attach to stderr: dotdbg words its own message.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    try:
        data = pickle.dumps((True, function(*args)))
    except Exception as error:
        data = _pickled_failure(error)
    except BaseException:  # Ctrl-C: the parent is interrupted too and stops waiting
        os._exit(1)
    try:
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(data)
    finally:  # a parent killed meanwhile (EPIPE): the child must not run on as the parent
        os._exit(0)


def _pickled_failure(error: Exception) -> bytes:
    try:
        return pickle.dumps((False, error))
    except Exception:  # an exception that does not pickle: its traceback, as a bug
        return pickle.dumps((False, RuntimeError("".join(traceback.format_exception(error)))))
