"""One bisection from start to clean-up: refuse what would lose work, mark each step, confirm
the culprit on itself and its parent, and always end with ``git bisect reset``.

The repository is put back (its branch, or its detached commit, and the submodules) on every
way out: the answer, an error, Ctrl-C, SIGTERM. Only SIGKILL cannot be answered; the next
``dotdbg bisect`` then says a bisection is in progress and how to end it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from dotdbg.bisect import culprit as answers
from dotdbg.bisect.git import Git, Place
from dotdbg.bisect.steps import Plan, Step, Stopper, run_limited, test_commit
from dotdbg.bisect.verdict import BAD, GOOD
from dotdbg.errors import DotdbgError, Stopped


@dataclass
class Result:
    culprit: str | None = None
    candidates: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    confirmation: list[Step] = field(default_factory=list)  # the parent's run, the culprit's
    subject: str = ""
    author: str = ""
    pull_request: int | None = None
    web: str | None = None
    restored: Place | None = None

    @property
    def confirmed(self) -> bool:
        verdicts = [step.verdict for step in self.confirmation]
        return self.culprit is not None and verdicts in ([GOOD, BAD], [BAD])


def bisect(git: Git, good: str, bad: str, plan: Plan) -> Result:
    good_sha, bad_sha = _check(git, good, bad)
    before = git.place()
    result = Result()
    with Stopper().installed() as stopper:
        try:
            _search(git, good_sha, bad_sha, plan, stopper, result)
            if result.culprit is not None:
                _confirm(git, result, plan, stopper)
                _describe(git, result, bad_sha)
        finally:
            result.restored = _put_back(git, before, plan, stopper)
    return result


def _check(git: Git, good: str, bad: str) -> tuple[str, str]:
    if git.bisecting():
        raise DotdbgError(
            "a bisection is already in progress in this repository",
            hint="end it with `git bisect reset` (it puts back the branch you started on)",
        )
    changed = git.changed_files()
    if changed:
        raise DotdbgError(
            f"uncommitted changes ({len(changed)} files, e.g. {changed[0][3:]})",
            hint="commit or `git stash` them: bisect checks out other commits",
        )
    good_sha, bad_sha = git.commit(good), git.commit(bad)
    if not git.is_ancestor(good_sha, bad_sha):
        raise DotdbgError(
            f"GOOD {good} is not an ancestor of BAD {bad}",
            hint="give the older, working commit first: dotdbg bisect GOOD BAD -- CMD",
        )
    return good_sha, bad_sha


def _search(git: Git, good: str, bad: str, plan: Plan, stopper: Stopper, result: Result) -> None:
    done = git.run("bisect", "start", bad, good, "--")
    result.culprit, result.candidates = answers.finished(done.stdout)
    most = int(git.out("rev-list", "--count", f"{good}..{bad}")) + 1
    while result.culprit is None and not result.candidates and len(result.steps) < most:
        _stop_if_asked(stopper)
        step = test_commit(git, git.out("rev-parse", "HEAD"), plan, stopper)
        _stop_if_asked(stopper)
        result.steps.append(step)
        _progress(
            f"[{len(result.steps)}] {step.commit[:10]} {step.subject} -> "
            f"{step.verdict} ({step.why}, {step.seconds:.1f}s)"
        )
        result.culprit, result.candidates = _mark(git, step.verdict)


def _mark(git: Git, verdict: str) -> tuple[str | None, list[str]]:
    """git exits non-zero when only skipped commits are left: that is an answer too."""
    done = git.run("bisect", verdict, check=False)
    culprit, candidates = answers.finished(done.stdout)
    if done.returncode != 0 and culprit is None and not candidates:
        said = (done.stderr.strip() or done.stdout.strip() or "no message").splitlines()[-1]
        raise DotdbgError(f"git bisect {verdict} failed: {said}", location=git.folder)
    return culprit, candidates


def _confirm(git: Git, result: Result, plan: Plan, stopper: Stopper) -> None:
    """Run the command again on the culprit's (first) parent and on the culprit itself."""
    assert result.culprit is not None
    parents = git.out("rev-list", "--parents", "-n", "1", result.culprit).split()[1:]
    for commit in [*parents[:1], result.culprit]:
        git.run("checkout", "-q", commit)
        step = test_commit(git, commit, plan, stopper)
        _stop_if_asked(stopper)
        result.confirmation.append(step)
        role = "culprit" if commit == result.culprit else "its parent"
        _progress(f"confirm {role} {commit[:10]} -> {step.verdict} ({step.why})")


def _describe(git: Git, result: Result, bad: str) -> None:
    assert result.culprit is not None
    result.subject = git.subject(result.culprit)
    result.author = git.out("log", "-1", "--format=%an <%ae>, %ad", "--date=short", result.culprit)
    path = f"{result.culprit}..{bad}"
    log = git.out("log", "--ancestry-path", "--merges", "--reverse", "--format=%B%x00", path)
    merges = [message.strip() for message in log.split("\0") if message.strip()]
    result.pull_request = answers.pull_request(result.subject, merges)
    remote = git.run("remote", "get-url", "origin", check=False).stdout
    result.web = answers.web_base(remote) if remote else None


def _put_back(git: Git, before: Place, plan: Plan, stopper: Stopper) -> Place:
    """git bisect reset, then make sure: the branch or commit of before, and its submodules."""
    git.run("bisect", "reset", check=False)
    now = git.place()
    if now != before:
        git.run("checkout", "-q", before.branch or before.head, check=False)
    if git.has_submodules():
        git.run("submodule", "update", "--init", "--recursive", check=False)
    if plan.setup is not None and stopper.requested is None:
        _progress("setup again at the commit you started on")
        run_limited(plan.setup, None, stopper)
    elif plan.setup is not None:
        _progress(f"interrupted: run the setup again ({' '.join(plan.setup)})")
    return git.place()


def _stop_if_asked(stopper: Stopper) -> None:
    if stopper.requested is not None:
        raise Stopped(stopper.requested)


def _progress(text: str) -> None:
    from dotdbg.visible import one_line

    print(f"dotdbg bisect: {one_line(text)}", file=sys.stderr, flush=True)
