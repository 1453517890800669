"""Incompressible bytes at little CPU cost, for fillers that zram, zswap or ZFS must not shrink.

One random seed block from the kernel, rotated by a different odd offset for every block: each
4 KiB page is random and no two pages are equal, so neither compression nor same-page merging
gets the memory or disk space back.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

BLOCK_SIZE = 1 << 20
_ROTATION_STEP = 4099  # odd and not a page multiple, so pages never line up between blocks


class Noise:
    def __init__(self, block_size: int = BLOCK_SIZE) -> None:
        self.seed = os.urandom(block_size)

    def block(self, index: int) -> bytes:
        shift = (index * _ROTATION_STEP) % len(self.seed)
        return self.seed[shift:] + self.seed[:shift]

    def chunks(self, size: int, start: int = 0) -> Iterator[tuple[int, bytes]]:
        """(offset, bytes) pieces covering ``size`` bytes from ``start``, made one at a time."""
        block_size = len(self.seed)
        for offset in range(start, start + size, block_size):
            yield offset, self.block(offset // block_size)[: min(block_size, start + size - offset)]
