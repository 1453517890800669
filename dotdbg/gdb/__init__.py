"""``dotdbg gdb``: mixed Python and C/C++ stacks of a live process or a core file.

``target`` finds what to dump, ``pystack_dump`` reads it through pystack (the fast way),
``driver`` runs gdb with CPython's extension (the fallback, ``-i``, ``--tui``, ``--break-in``),
``ingdb`` is the script gdb itself runs, ``frames`` is what both engines share, ``extension``,
``interpreter`` and ``elf`` find what gdb needs, ``tracee`` makes sure no target stays stopped
(``keeper``, a process of its own, when dotdbg is killed with kill -9),
``render`` prints the result, ``dump`` ties them together.
"""

DEFAULT_TIMEOUT = 30.0  # seconds per engine; a process in the kernel (state D) may not stop sooner
