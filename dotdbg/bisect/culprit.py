"""Reading ``git bisect``'s answers and naming the culprit's pull request. Pure."""

from __future__ import annotations

import re

_FIRST_BAD = re.compile(r"^([0-9a-f]{7,64}) is the first bad commit", re.MULTILINE)
_ONLY_SKIPPED = "There are only 'skip'ped commits left to test."
_SHA_LINE = re.compile(r"^([0-9a-f]{40})\b", re.MULTILINE)
# GitHub's squash merges end the subject with (#123); its merge commits start with it
_SQUASHED = re.compile(r"\(#(\d+)\)\s*$")
_MERGED = re.compile(r"^Merge pull request #(\d+)")
_GITLAB = re.compile(r"See merge request [\w./-]*!(\d+)")
_REMOTE = re.compile(
    r"^(?:https?://|ssh://)?(?:[^@/]+@)?(?P<host>[^:/]+)[:/](?P<path>.+?)(?:\.git)?/?$"
)


def finished(output: str) -> tuple[str | None, list[str]]:
    """After a ``git bisect`` mark: (the first bad commit, or None; the candidates when only
    skipped commits are left). Both empty: not finished."""
    first = _FIRST_BAD.search(output)
    if first is not None:
        return first.group(1), []
    if _ONLY_SKIPPED in output:
        return None, _SHA_LINE.findall(output.split(_ONLY_SKIPPED, 1)[1])
    return None, []


def pull_request(subject: str, merge_subjects: list[str]) -> int | None:
    """The PR number in the culprit's subject (a squash merge), else in the first merge
    commit that brought it into the bad line."""
    found = _SQUASHED.search(subject) or _MERGED.match(subject)
    if found is not None:
        return int(found.group(1))
    for merge in merge_subjects:
        found = _MERGED.match(merge) or _GITLAB.search(merge)
        if found is not None:
            return int(found.group(1))
    return None


def web_base(remote_url: str) -> str | None:
    """``git@github.com:owner/repo.git`` → ``https://github.com/owner/repo``."""
    found = _REMOTE.match(remote_url.strip())
    if found is None or found["host"] in ("", "localhost") or remote_url.startswith(("/", ".")):
        return None
    return f"https://{found['host']}/{found['path']}"
