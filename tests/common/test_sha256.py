"""The builtin sha256 (common/sha256.py) gives hashlib's digests: the keys of the check and
render caches written before it stay valid."""

from __future__ import annotations

import hashlib

from dotdbg.common.sha256 import sha256


def test_the_same_digests_as_hashlib() -> None:
    text = b"alias gs='git status'\n" * 5000
    assert sha256(text).hexdigest() == hashlib.sha256(text).hexdigest()
    grown, reference = sha256(), hashlib.sha256()
    for part in (b"dotdbg", b"\0", text):
        grown.update(part)
        reference.update(part)
    assert grown.hexdigest() == reference.hexdigest()
