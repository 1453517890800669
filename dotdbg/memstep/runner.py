"""``python runner.py SCRIPT ARGS...``: the script run step by step, each measured.

Started by ``dotdbg memstep`` with the user's interpreter in place of ``python SCRIPT``; not
imported by dotdbg. A step is a ``# %%`` cell when the script has them, else a top-level
statement; the body of ``if __name__ == "__main__":`` is stepped into. The script runs as
``__main__`` with its own folder first on sys.path and its own argv, as ``python SCRIPT``
would run it. Standard library only.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load_meter() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("_dotdbg_memstep_meter", HERE / "meter.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclass-free, but functools.wraps wants it findable
    spec.loader.exec_module(module)
    return module


def is_main_guard(node: ast.stmt) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and len(test.comparators) == 1
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def cell_starts(source: str) -> list[int]:
    return [n for n, line in enumerate(source.splitlines(), 1) if line.lstrip().startswith("# %%")]


def steps(tree: ast.Module, source: str) -> list[list[ast.stmt]]:
    """Statements grouped into steps: by cell, else one statement each (the main guard's body
    stepped into)."""
    starts = cell_starts(source)
    body: list[ast.stmt] = []
    for node in tree.body:
        body += node.body if is_main_guard(node) else [node]  # type: ignore[attr-defined]
    if not starts:
        return [[node] for node in body]
    groups: dict[int, list[ast.stmt]] = {}
    for node in body:
        cell = max((s for s in starts if s <= node.lineno), default=0)
        groups.setdefault(cell, []).append(node)
    return list(groups.values())


def label(script: str, nodes: list[ast.stmt], lines: list[str]) -> str:
    first, last = nodes[0].lineno, nodes[-1].end_lineno or nodes[-1].lineno
    where = f"{os.path.basename(script)}:{first}" + (f"-{last}" if last != first else "")
    text = lines[first - 1].strip()
    return f"{where} {text[:50]}"


def main() -> int:
    script = sys.argv[1]
    source = Path(script).read_text()
    tree = ast.parse(source, script)
    meter = load_meter().Meter()
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    module = types.ModuleType("__main__")
    module.__file__ = os.path.abspath(script)
    module.__builtins__ = __builtins__  # type: ignore[attr-defined]
    sys.modules["__main__"] = module
    lines = source.splitlines()
    try:
        for nodes in steps(tree, source):
            code = compile(ast.Module(body=nodes, type_ignores=[]), script, "exec")
            with meter.step(label(script, nodes, lines)):
                exec(code, module.__dict__)
    finally:
        out = os.environ.get("DOTDBG_MEMSTEP_OUT")
        if out:
            with open(out, "w") as file:
                json.dump([reading.as_json() for reading in meter.readings], file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
