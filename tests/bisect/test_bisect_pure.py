"""bisect's pure parts: what an exit means, git's answers, the pull request and its address."""

from __future__ import annotations

import pytest

from dotdbg.bisect.culprit import finished, pull_request, web_base
from dotdbg.bisect.verdict import runs_pytest, verdict

SHA = "3150bc1157488b4db9264779ada1843fc2fa8cbb"


@pytest.mark.parametrize(
    ("code", "pytest_run", "expected"),
    [
        (0, True, "good"),
        (1, True, "bad"),
        (2, True, "skip"),
        (5, True, "skip"),
        (2, False, "bad"),  # not pytest: exit 2 is the program's own failure
        (125, False, "skip"),
        (139, False, "bad"),  # a segfault is a bug too
        (None, False, "bad"),  # timed out, counted as the user said
    ],
)
def test_verdicts(code: int | None, pytest_run: bool, expected: str) -> None:
    assert verdict(code, pytest_run, frozenset(), "bad")[0] == expected


def test_a_user_skip_code_wins() -> None:
    assert verdict(3, False, frozenset({3}), "skip") == ("skip", "exit 3, counted as skip")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["pytest", "-x"], True),
        (["/venv/bin/py.test"], True),
        (["python", "-m", "pytest", "tests"], True),
        (["python", "-m", "unittest"], False),
        (["sh", "-c", "pytest -x && ./check"], False),  # the shell's exit: say --skip-exit
    ],
)
def test_runs_pytest(command: list[str], expected: bool) -> None:
    assert runs_pytest(command) is expected


def test_git_answers() -> None:
    assert finished(f"{SHA} is the first bad commit\ncommit {SHA}\n") == (SHA, [])
    skipped = (
        "There are only 'skip'ped commits left to test.\nThe first bad commit could be any of:\n"
        f"{SHA}\n{'a' * 40}\nWe cannot bisect more!\n"
    )
    assert finished(skipped) == (None, [SHA, "a" * 40])
    assert finished("Bisecting: 3 revisions left to test after this (roughly 2 steps)\n") == (
        None,
        [],
    )


@pytest.mark.parametrize(
    ("subject", "merges", "number"),
    [
        ("Speed up padding (#18998)", [], 18998),
        ("Merge pull request #7 from a/b", [], 7),
        ("faster add", ["docs", "Merge pull request #12 from ada/add"], 12),
        ("faster add", ["Merge branch 'x'\n\nSee merge request group/calc!31"], 31),
        ("faster add (#3) and more", [], None),
    ],
)
def test_pull_request(subject: str, merges: list[str], number: int | None) -> None:
    assert pull_request(subject, merges) == number


@pytest.mark.parametrize(
    ("remote", "base"),
    [
        (
            "git@github.com:huggingface/transformers.git",
            "https://github.com/huggingface/transformers",
        ),
        (
            "https://github.com/huggingface/transformers",
            "https://github.com/huggingface/transformers",
        ),
        ("ssh://git@gitlab.com/g/calc.git\n", "https://gitlab.com/g/calc"),
        ("/srv/git/calc.git", None),
        ("../origin.git", None),
    ],
)
def test_web_base(remote: str, base: str | None) -> None:
    assert web_base(remote) == base
