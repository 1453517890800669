"""sha256 from Python's builtin module (``_sha2``, ``_sha256`` before 3.12), not hashlib:
hashlib loads OpenSSL first, 3-4 ms of every `dotdbg status` that digests a few files (issue
27). The digests are the same; hashlib is the fallback of a Python built without the module."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hashlib import sha256
else:
    try:
        from _sha2 import sha256
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:
            from hashlib import sha256

__all__ = ["sha256"]
