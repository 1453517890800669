"""The names of the readline functions a key can be bound to, asked of bash (``bind -l``).

Asked only while a config with [readline] bindings is validated (install, diff, alias add…), once
per process; never when a shell starts. bash is asked rather than a list kept here because each
readline release adds functions (and bash adds its own, like shell-expand-line): the bash that will
read the inputrc is the one that knows.
"""

from __future__ import annotations

import functools
import os


@functools.cache
def readline_functions() -> frozenset[str] | None:
    """What ``bind -l`` lists, lower-cased (readline ignores case in names); None without bash."""
    import shutil

    return bind_l(shutil.which("bash"))


def _without_startup_files(env: os._Environ[str]) -> dict[str, str]:
    """The environment less BASH_ENV and ENV: the files a non-interactive bash would run."""
    return {key: value for key, value in env.items() if key not in ("BASH_ENV", "ENV")}


def bind_l(bash: str | None) -> frozenset[str] | None:
    """The names ``bash`` lists with ``bind -l``; None when it cannot say."""
    if bash is None:
        return None
    import subprocess  # only here: a config without [readline] bindings never asks

    try:
        listed = subprocess.run(
            # Not -i: an interactive bash would try to take the terminal from us. bind -l works
            # without line editing (it warns, on stderr). INPUTRC: the user's is not needed.
            [bash, "--norc", "--noprofile", "-c", "bind -l"],
            env={**_without_startup_files(os.environ), "INPUTRC": "/dev/null"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    names = frozenset(line.strip().lower() for line in listed.stdout.splitlines() if line.strip())
    return names if listed.returncode == 0 and names else None
