"""The layout issue 22 asked for: no import cycle between dotdbg's modules (imports inside
functions count too: they are what a newcomer must untangle), and packages that name what they
hold, with only the modules every package needs left at the top."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dotdbg"
TOP_LEVEL = {"__init__", "__main__", "errors", "paths", "visible"}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


def owner(name: str) -> str:
    """The module ``name`` is, or the one it is an attribute of."""
    while name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("dotdbg"):
            assert node.module is not None
            for alias in node.names:
                yield owner(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            yield from (owner(a.name) for a in node.names if a.name.startswith("dotdbg"))


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = stack[stack.index(node) :]
                del stack[stack.index(node) :]
                if len(members) > 1:
                    found.append(sorted(members))
    return found


def test_no_import_cycle() -> None:
    graph = {name: set(imports(path)) - {name} for name, path in MODULES.items()}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_only_shared_modules_stay_at_the_top() -> None:
    top = {path.stem for path in PACKAGE.glob("*.py")}
    assert top <= TOP_LEVEL
    packages = [folder for folder in PACKAGE.iterdir() if (folder / "__init__.py").is_file()]
    for folder in packages:  # each package's first lines say what it holds
        assert ast.get_docstring(ast.parse((folder / "__init__.py").read_text())), folder.name
