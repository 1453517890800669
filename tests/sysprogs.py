"""Programs the tests start that a normal user's PATH does not reach (mkfs.ext4, sshd, slurmd).

A user's PATH is often /usr/local/bin:/usr/bin:/bin, without the sbin folders; run by bare name,
such a program is "not found" there although it is installed. Look it up by absolute path.
"""

from __future__ import annotations

import os
import shutil

import pytest

SBIN_DIRS = ("/usr/local/sbin", "/usr/sbin", "/sbin")


def system_program(name: str) -> str | None:
    """The absolute path of ``name``: on PATH, else in an sbin folder; None if not installed."""
    search = os.pathsep.join([os.environ.get("PATH", os.defpath), *SBIN_DIRS])
    return shutil.which(name, path=search)


def require_program(name: str, package: str) -> str:
    """The absolute path of ``name``, or skip the test naming the package that provides it."""
    found = system_program(name)
    if found is None:
        pytest.skip(f"{name} is not installed (apt-get install {package})")
    return found
