"""A bisection's result as text and as JSON. Pure; commit subjects are the repository's text
and go through ``dotdbg.visible``."""

from __future__ import annotations

from dotdbg.bisect.session import Result
from dotdbg.visible import one_line


def as_json(result: Result) -> dict[str, object]:
    web = result.web
    return {
        "culprit": result.culprit,
        "subject": result.subject or None,
        "author": result.author or None,
        "pull_request": result.pull_request,
        "commit_url": f"{web}/commit/{result.culprit}" if web and result.culprit else None,
        "pull_request_url": _pr_url(result),
        "confirmed": result.confirmed if result.culprit else None,
        "confirmation": [step.as_json() for step in result.confirmation],
        "candidates": result.candidates,
        "steps": [step.as_json() for step in result.steps],
        "restored": _place(result),
    }


def lines(result: Result) -> list[str]:
    if result.culprit is None:
        return _unresolved(result)
    out = [f"first bad commit: {result.culprit}", f"  {one_line(result.subject)}"]
    out.append(f"  {one_line(result.author)}")
    if result.pull_request is not None:
        out.append(f"  pull request: #{result.pull_request}" + _suffix(_pr_url(result)))
    if result.web:
        out.append(f"  {result.web}/commit/{result.culprit}")
    out.append(_confirmation(result))
    last = result.confirmation[-1] if result.confirmation else None
    if last is not None and last.tail.strip():
        out.append("  the culprit's output ends with:")
        out += [f"    {one_line(line)}" for line in last.tail.strip().splitlines()[-8:]]
    return out


def _unresolved(result: Result) -> list[str]:
    if not result.candidates:
        return ["no answer: the bisection ended without a first bad commit"]
    skipped = {step.commit: step.why for step in result.steps if step.verdict == "skip"}
    out = ["the first bad commit is one of these (the others could not be tested):"]
    for commit in result.candidates:
        why = f"  (skipped: {skipped[commit]})" if commit in skipped else ""
        out.append(f"  {commit}{one_line(why)}")
    return out


def _confirmation(result: Result) -> str:
    verdicts = ", ".join(f"{s.commit[:10]} {s.verdict}" for s in result.confirmation)
    if result.confirmed:
        return f"  confirmed: the parent passes and the culprit fails again ({verdicts})"
    return f"  NOT confirmed on a second run ({verdicts}): a flaky test or a setup problem?"


def _pr_url(result: Result) -> str | None:
    if result.web is None or result.pull_request is None:
        return None
    kind = "merge_requests" if "gitlab" in result.web else "pull"
    return f"{result.web}/{kind}/{result.pull_request}"


def _place(result: Result) -> dict[str, str | None] | None:
    if result.restored is None:
        return None
    return {"branch": result.restored.branch, "head": result.restored.head}


def _suffix(url: str | None) -> str:
    return f"  {url}" if url else ""
