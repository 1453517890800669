"""The signal functions and numbers, without the enums the signal module builds at import.

``import signal`` makes its Signals, Handlers and Sigmasks enums on import: with enum,
functools and collections behind them, 5-6 ms of a start measured side by side (issue 27:
memlimit's whole budget over a cgroup written by hand is 15 ms). ``_signal``, the C module the
signal module wraps, has the same functions and the same numbers as plain ints; where it is
missing (an interpreter other than CPython) this is the signal module itself.

Use it as ``from dotdbg.common.rawsignal import signal``. The numbers have no ``.name``: where
a signal is named to the user, ``signal.Signals(number).name`` of the real module does that.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
else:
    try:
        import _signal as signal
    except ImportError:  # not CPython: the documented module, enums and all
        import signal

__all__ = ["signal"]
