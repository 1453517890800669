"""A job script's ``#SBATCH`` options, and the ``salloc`` command line they make. Pure.

sbatch reads ``#SBATCH`` lines up to the first line that is neither a comment nor blank, and
stops reading a line's options at a ``#`` that follows whitespace. Options that only mean
something to a batch job (where its output goes, arrays, mail) are dropped; every other one
salloc takes the same way.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

SHORT = {
    "-N": "nodes", "-n": "ntasks", "-c": "cpus-per-task", "-p": "partition", "-t": "time",
    "-G": "gpus", "-A": "account", "-q": "qos", "-C": "constraint", "-w": "nodelist",
    "-x": "exclude", "-J": "job-name", "-o": "output", "-e": "error", "-i": "input",
    "-a": "array", "-D": "chdir", "-d": "dependency", "-M": "clusters", "-L": "licenses",
    "-s": "oversubscribe", "-Q": "quiet", "-v": "verbose", "-W": "wait", "-H": "hold",
    "-k": "no-kill", "-S": "core-spec",
}  # fmt: skip
FLAGS = {"exclusive", "oversubscribe", "quiet", "verbose", "hold", "no-kill", "contiguous",
         "overcommit", "requeue", "no-requeue", "parsable", "wait", "test-only", "spread-job",
         "use-min-nodes", "nice"}  # fmt: skip
BATCH_ONLY = {"output", "error", "input", "open-mode", "array", "wrap", "parsable", "requeue",
              "no-requeue", "export-file", "mail-type", "mail-user", "wait", "chdir",
              "kill-on-invalid-dep", "ignore-pbs", "batch"}  # fmt: skip


@dataclass
class Directives:
    options: list[tuple[str, str | None]] = field(default_factory=list)  # (long name, value)
    unknown: list[tuple[int, str]] = field(default_factory=list)  # (line, word)


def read_directives(text: str) -> Directives:
    found = Directives()
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if number == 1 and stripped.startswith("#!"):
            continue
        if stripped and not stripped.startswith("#"):
            break  # the first command: sbatch reads no further
        if stripped.startswith("#SBATCH"):
            _read_line(stripped[len("#SBATCH") :], number, found)
    return found


def _read_line(rest: str, number: int, found: Directives) -> None:
    try:
        words = shlex.split(rest, comments=True)
    except ValueError:
        found.unknown.append((number, rest.strip()))
        return
    while words:
        word = words.pop(0)
        if word.startswith("--"):
            name, has_value, value = word[2:].partition("=")
            if not has_value and name not in FLAGS and words and not words[0].startswith("-"):
                value, has_value = words.pop(0), "="
            found.options.append((name, value if has_value else None))
        elif word[:2] in SHORT:
            name = SHORT[word[:2]]
            value = word[2:] or (words.pop(0) if name not in FLAGS and words else "")
            found.options.append((name, value or None))
        else:
            found.unknown.append((number, word))


def salloc_argv(found: Directives, command: list[str]) -> tuple[list[str], list[str]]:
    """(salloc's argv, the options dropped as batch-only)."""
    argv, dropped = ["salloc"], []
    for name, value in found.options:
        if name in BATCH_ONLY:
            dropped.append(name if value is None else f"{name}={value}")
        else:
            argv.append(f"--{name}" if value is None else f"--{name}={value}")
    return argv + command, dropped
