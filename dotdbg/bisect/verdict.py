"""What a step's exit says about its commit. Pure.

``git bisect run`` counts every exit from 1 to 127 but 125 as "bad". pytest exits 2 when
collection failed (a test module that does not import at that commit), 3 on an internal
error, 4 on a usage error (an option that version does not know) and 5 when it collected no
tests: none of them says the bug is there, and counting them as bad blames the wrong commit.
"""

from __future__ import annotations

import itertools
import os

GOOD, BAD, SKIP = "good", "bad", "skip"
GIT_SKIP = 125
PYTEST_UNTESTABLE = {
    2: "pytest was interrupted (a collection error?)",
    3: "pytest's internal error",
    4: "pytest usage error",
    5: "pytest collected no tests",
}


def runs_pytest(command: list[str]) -> bool:
    names = [os.path.basename(word) for word in command]
    if any(name in ("pytest", "py.test") for name in names):
        return True
    return any(a == "-m" and b == "pytest" for a, b in itertools.pairwise(command))


def verdict(
    exit_code: int | None, pytest: bool, skip_codes: frozenset[int], on_timeout: str
) -> tuple[str, str]:
    """(good, bad or skip; why). ``exit_code`` None: the step ran out of time."""
    if exit_code is None:
        return on_timeout, "timed out"
    if exit_code == 0:
        return GOOD, "exit 0"
    if exit_code == GIT_SKIP or exit_code in skip_codes:
        return SKIP, f"exit {exit_code}, counted as skip"
    if pytest and exit_code in PYTEST_UNTESTABLE:
        return SKIP, f"exit {exit_code}: {PYTEST_UNTESTABLE[exit_code]}"
    return BAD, f"exit {exit_code}"
