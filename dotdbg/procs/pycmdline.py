"""What a process's executable, argv and kernel name say about it: is it Python, what was run.

Pure functions of strings, so the rules are tested without processes. The kernel name of a
shebang script is the script's (``torchrun``) and PyTorch renames its helpers (``pt_data_worker``),
which is why ``ps auxc | grep python`` misses them and why the executable is checked first.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

_PYTHON_NAME = re.compile(r"python[\d.]*[a-z]{0,2}(-dbg|-debug)?$")
_RENAMED_BY_TORCH = "pt_"

# Interpreter options that swallow the next argument.
_OPTIONS_WITH_VALUE = frozenset({"-W", "-X", "--check-hash-based-pycs"})

# What a launcher looks like as a script basename (shebang) or as a ``-m`` module.
_LAUNCHER_SCRIPTS = {
    "torchrun": "torchrun",
    "accelerate": "accelerate",
    "deepspeed": "deepspeed",
    "pytest": "pytest",
    "py.test": "pytest",
    "jupyter": "jupyter",
    "jupyter-lab": "jupyter",
    "jupyter-notebook": "jupyter",
    "ipykernel_launcher.py": "ipykernel",
}
_LAUNCHER_MODULES = {
    "torch.distributed.run": "torchrun",
    "torch.distributed.launch": "torchrun",
    "accelerate.commands.launch": "accelerate",
    "accelerate.commands.accelerate_cli": "accelerate",
    "deepspeed.launcher.runner": "deepspeed",
    "deepspeed.launcher.launch": "deepspeed",
    "pytest": "pytest",
    "ipykernel_launcher": "ipykernel",
    "ipykernel": "ipykernel",
    "jupyter": "jupyter",
    "notebook": "jupyter",
    "jupyterlab": "jupyter",
}

CODE_WIDTH = 40


def is_python_name(name: str) -> bool:
    """``python``, ``python3.11``, ``python3.13td`` (free-threaded debug), ``python3-dbg``."""
    return _PYTHON_NAME.match(name) is not None


def is_python(exe: str | None, argv: tuple[str, ...], name: str | None) -> bool:
    """The detection rule: executable, else argv[0], else the kernel name (``python*``/``pt_*``)."""
    if exe and is_python_name(os.path.basename(exe)):
        return True
    if argv and is_python_name(os.path.basename(argv[0])):
        return True
    return name is not None and (is_python_name(name) or name.startswith(_RENAMED_BY_TORCH))


def split_invocation(argv: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """How it ran: ``("-m", (module, *args))``, ``("script", (path, *args))``, ``("-c", …)``.

    The interpreter and its options are dropped. ``("", ())`` when nothing follows them (a REPL),
    and ``("argv", argv)`` when argv[0] is not a Python interpreter (a renamed process).
    """
    if not argv or not is_python_name(os.path.basename(argv[0])):
        return "argv", argv
    index = 1
    while index < len(argv):
        arg = argv[index]
        if arg in ("-m", "-c"):
            return arg, argv[index + 1 :]
        if arg.startswith(("-m", "-c")) and not arg.startswith("--"):
            return arg[:2], (arg[2:], *argv[index + 1 :])
        if arg in _OPTIONS_WITH_VALUE:
            index += 2
            continue
        if arg.startswith("-") and arg != "-":
            index += 1
            continue
        return "script", argv[index:]
    return "", ()


# dotdbg's commands that look at processes: a concurrent one (a ``stacks --job`` helper on a
# node) is a tool, not part of what is looked at. The fillers stay visible: they are the load.
_INSPECTORS = frozenset({"stacks", "pyspy", "watch-python", "gdb"})


def is_dotdbg_inspector(argv: tuple[str, ...]) -> bool:
    """``dotdbg stacks …`` (``pyspy``, ``gdb``, ``watch-python``), its ``watch-python`` script,
    or the same through ``python -m dotdbg``."""
    kind, rest = split_invocation(argv)
    program = os.path.basename(rest[0]) if kind == "script" and rest else ""
    if program == "watch-python":
        return True
    if program != "dotdbg" and (kind != "-m" or rest[:1] != ("dotdbg",)):
        return False
    return any(word in _INSPECTORS for word in rest[1:4])  # after options such as --home DIR


@lru_cache(maxsize=1024)
def launcher_of(argv: tuple[str, ...]) -> str | None:
    """``torchrun``, ``accelerate``, ``deepspeed``, ``pytest``, ``ipykernel`` or ``jupyter``."""
    kind, rest = split_invocation(argv)
    if not rest:
        return None
    if kind == "-m":
        return _LAUNCHER_MODULES.get(rest[0])
    if kind in ("script", "argv"):
        return _LAUNCHER_SCRIPTS.get(os.path.basename(rest[0]))
    return None


@lru_cache(maxsize=1024)
def short_command(argv: tuple[str, ...], name: str | None = None) -> str:
    """What was run, without the interpreter: ``train.py --lr 1``, ``-m pytest -x``, ``-c code``.

    A process PyTorch renamed (``pt_data_worker``) is prefixed with its kernel name, since its argv
    is its parent's. A zombie has no argv left and shows its kernel name.
    """
    if not argv:
        return f"[{name}] <defunct>" if name else "<defunct>"
    kind, rest = split_invocation(argv)
    if kind == "-c":
        code = "; ".join(line.strip() for line in "".join(rest[:1]).splitlines() if line.strip())
        text = "-c " + (code if len(code) <= CODE_WIDTH else code[: CODE_WIDTH - 1] + "…")
    elif kind == "-m":
        text = " ".join(("-m", *rest))
    elif kind == "script":
        text = " ".join((os.path.basename(rest[0]), *rest[1:]))
    elif kind == "argv":
        text = " ".join(argv)
    else:
        text = os.path.basename(argv[0])
    if name and name.startswith(_RENAMED_BY_TORCH):
        return f"[{name}] {text}"
    return text


_GENERIC_ENV_DIRS = frozenset({".venv", "venv", "env", ".env", ".tox"})


def env_label(prefix: str) -> str:
    """A readable name for an environment directory: ``myproj/.venv`` rather than ``.venv``."""
    prefix = prefix.rstrip("/")
    base = os.path.basename(prefix)
    if base in _GENERIC_ENV_DIRS:
        return f"{os.path.basename(os.path.dirname(prefix))}/{base}"
    return base


def env_from_environ(virtual_env: str | None, conda_env: str | None) -> str | None:
    """The env name a shell's ``activate`` left in the process's environment."""
    if virtual_env:
        return env_label(virtual_env)
    return conda_env or None


def env_prefix_of(interpreter: str) -> str | None:
    """The environment an interpreter path is in: ``…/envs/x/bin/python`` → ``…/envs/x``.

    Only the path is inspected; a caller checks for ``pyvenv.cfg`` or ``conda-meta`` on disk.
    """
    bindir = os.path.dirname(interpreter)
    if os.path.basename(bindir) != "bin":
        return None
    return os.path.dirname(bindir)
