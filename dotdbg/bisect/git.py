"""The git commands bisect needs, each in its own session so that Ctrl-C in the terminal
reaches dotdbg alone and never stops git half-way through a checkout."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass

from dotdbg.errors import DotdbgError


@dataclass(frozen=True)
class Place:
    """Where the repository stands: its branch (None when detached) and commit."""

    branch: str | None
    head: str


class Git:
    def __init__(self, folder: str) -> None:
        self.folder = folder

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            ["git", "-C", self.folder, *args],
            capture_output=True,
            text=True,
            errors="replace",
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        if check and done.returncode != 0:
            said = (done.stderr.strip().splitlines() or ["no message"])[-1]
            raise DotdbgError(f"git {' '.join(args)} failed: {said}", location=self.folder)
        return done

    def out(self, *args: str) -> str:
        return self.run(*args).stdout.strip()

    def place(self) -> Place:
        branch = self.run("symbolic-ref", "-q", "--short", "HEAD", check=False).stdout.strip()
        return Place(branch or None, self.out("rev-parse", "HEAD"))

    def commit(self, name: str) -> str:
        done = self.run("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}", check=False)
        if done.returncode != 0:
            raise DotdbgError(f"no commit {name!r} in this repository", hint="see `git log`")
        return done.stdout.strip()

    def is_ancestor(self, older: str, newer: str) -> bool:
        return self.run("merge-base", "--is-ancestor", older, newer, check=False).returncode == 0

    def bisecting(self) -> bool:
        return os.path.exists(self._git_path("BISECT_START"))

    def _git_path(self, name: str) -> str:
        path = self.out("rev-parse", "--git-path", name)
        return path if os.path.isabs(path) else os.path.join(self.folder, path)

    def changed_files(self) -> list[str]:
        status = self.run("status", "--porcelain", "--untracked-files=no").stdout
        return status.splitlines()

    def subject(self, commit: str) -> str:
        return self.out("log", "-1", "--format=%s", commit)

    def has_submodules(self) -> bool:
        return os.path.exists(os.path.join(self.folder, ".gitmodules"))
