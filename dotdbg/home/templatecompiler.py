"""The templates compiled ahead of time to plain Python: ``home/templatecode.py``.

Importing jinja2 and setting up its environment was 35-50 ms of every render, most of a new
`dotdbg alias add` (issue 27). This compiler reads each template's syntax tree with jinja2 (the
same lexer options as ``render``: the text between the tags is exactly jinja2's) and writes one
Python function per template that appends the text, with the lookups, filters and scopes of
jinja2 (``templaterun``). A construct it does not know is an error here, at build time, never a
different text at run time. ``render`` uses the code only while each template's text is the
one it was compiled from; tests/test_template_code.py renders both ways and fails when the file
is not the compiler's output (``pytest tests/test_template_code.py --update-golden`` writes it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import jinja2  # noqa: TID253 (only the tests and the golden update run the compiler)
from jinja2 import nodes  # noqa: TID253

from dotdbg.home.render import template_digests

HEADER = '''\
"""Written by dotdbg/home/templatecompiler.py from templates/*.j2: do not edit.

Each template as a function that appends its text; ``render`` calls them while ``SOURCES``
(each template's sha256) matches the templates, and jinja2 otherwise.
`pytest tests/test_template_code.py --update-golden` writes this file again.
"""

from __future__ import annotations

from dotdbg.home.templaterun import Filters, Scope, Undefined, Write, attr, concat, item, name
'''

OPERATORS = {
    "eq": "==",
    "ne": "!=",
    "gt": ">",
    "gteq": ">=",
    "lt": "<",
    "lteq": "<=",
    "in": "in",
    "notin": "not in",
}


class Unsupported(Exception):
    """A template construct this compiler does not translate."""


def compile_templates(env: jinja2.Environment, folder: Path) -> str:
    """The module's text: a function per template in ``folder``, ``SOURCES``, ``TEMPLATES``."""
    texts = {path.name: path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.j2"))}
    parts = [HEADER]
    for template, text in texts.items():
        tree = env.parse(text, template)
        parts.append("\n\n" + "\n".join(_Function(template).lines(tree)) + "\n")
    sources = "".join(f"    {name!r}: {sha!r},\n" for name, sha in template_digests(texts).items())
    functions = "".join(f"    {name!r}: {function_name(name)},\n" for name in texts)
    parts.append(f"\n\nSOURCES = {{\n{sources}}}\n\nTEMPLATES = {{\n{functions}}}\n")
    return "".join(parts)


def function_name(template: str) -> str:
    return "t_" + "".join(char if char.isalnum() else "_" for char in template)


class _Function:
    """One template's function. Scopes are dicts, as jinja2's: ``s0`` the template's own (the
    render's variables and its top-level ``set``), a new one for each loop pass and ``with``."""

    def __init__(self, template: str) -> None:
        self.template, self.depth = template, 0

    def lines(self, tree: nodes.Template) -> Iterator[str]:
        yield f"def {function_name(self.template)}(s0: Scope, f: Filters, w: Write) -> None:"
        yield from self._body(tree.body, 1)

    # -- statements

    def _body(self, body: list[nodes.Node], level: int) -> Iterator[str]:
        written = [line for node in body for line in self._statement(node, level)]
        yield from written or ["    " * level + "pass"]

    def _statement(self, node: nodes.Node, level: int) -> Iterator[str]:
        pad, scope = "    " * level, f"s{self.depth}"
        if isinstance(node, nodes.Output):
            for child in node.nodes:
                if isinstance(child, nodes.TemplateData):
                    yield f"{pad}w({child.data!r})"
                else:
                    yield f"{pad}w(str({self._expr(child)}))"
        elif isinstance(node, nodes.If):
            yield from self._if(node, level)
        elif isinstance(node, nodes.For):
            yield from self._for(node, level)
        elif isinstance(node, nodes.Assign) and isinstance(node.target, nodes.Name):
            yield f"{pad}{scope}[{node.target.name!r}] = {self._expr(node.node)}"
        elif isinstance(node, nodes.With):
            yield from self._with(node, level)
        elif isinstance(node, nodes.Include):
            yield from self._include(node, level)
        else:
            raise self._unsupported(node)

    def _if(self, node: nodes.If, level: int) -> Iterator[str]:
        pad = "    " * level
        yield f"{pad}if {self._expr(node.test)}:"
        yield from self._body(node.body, level + 1)
        for branch in node.elif_:
            yield f"{pad}elif {self._expr(branch.test)}:"
            yield from self._body(branch.body, level + 1)
        if node.else_:
            yield f"{pad}else:"
            yield from self._body(node.else_, level + 1)

    def _for(self, node: nodes.For, level: int) -> Iterator[str]:
        if node.else_ or node.test or node.recursive:
            raise self._unsupported(node, "a for loop with else, if or recursive")
        targets = node.target.items if isinstance(node.target, nodes.Tuple) else [node.target]
        if not all(isinstance(target, nodes.Name) for target in targets):
            raise self._unsupported(node, "a loop target other than names")
        names = [target.name for target in targets if isinstance(target, nodes.Name)]
        if "loop" in {found.name for found in node.find_all(nodes.Name)}:
            raise self._unsupported(node, "the loop variable")
        pad, outer = "    " * level, f"s{self.depth}"
        values = [f"v{self.depth + 1}_{index}" for index in range(len(names))]
        yield f"{pad}for {', '.join(values)} in {self._expr(node.iter)}:"
        self.depth += 1
        bound = ", ".join(f"{n!r}: {v}" for n, v in zip(names, values, strict=True))
        yield f"{pad}    s{self.depth} = {{**{outer}, {bound}}}"
        yield from self._body(node.body, level + 1)
        self.depth -= 1

    def _with(self, node: nodes.With, level: int) -> Iterator[str]:
        if not all(isinstance(target, nodes.Name) for target in node.targets):
            raise self._unsupported(node, "a with target other than a name")
        pad, outer = "    " * level, f"s{self.depth}"
        bound = ", ".join(
            f"{target.name!r}: {self._expr(value)}"  # type: ignore[attr-defined]
            for target, value in zip(node.targets, node.values, strict=True)
        )
        self.depth += 1
        yield f"{pad}s{self.depth} = {{**{outer}, {bound}}}"
        yield from self._body(node.body, level)
        self.depth -= 1

    def _include(self, node: nodes.Include, level: int) -> Iterator[str]:
        if not isinstance(node.template, nodes.Const) or not node.with_context:
            raise self._unsupported(node, "an include other than of a named template")
        if node.ignore_missing:
            raise self._unsupported(node, "ignore missing")
        callee = function_name(node.template.value)
        yield f"{'    ' * level}{callee}(dict(s{self.depth}), f, w)"

    # -- expressions

    def _expr(self, node: nodes.Node) -> str:
        scope = f"s{self.depth}"
        if isinstance(node, nodes.Name):
            return f"name({scope}, {node.name!r})"
        if isinstance(node, nodes.Const):
            return repr(node.value)
        if isinstance(node, (nodes.Tuple, nodes.List)):
            items = [self._expr(child) for child in node.items]
            if isinstance(node, nodes.List):
                return f"[{', '.join(items)}]"
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
        if isinstance(node, nodes.Getattr):
            return f"attr({self._expr(node.node)}, {node.attr!r})"
        if isinstance(node, nodes.Getitem):
            return f"item({self._expr(node.node)}, {self._expr(node.arg)})"
        if isinstance(node, nodes.Filter):
            return self._filter(node)
        if isinstance(node, nodes.Compare):
            parts = [self._expr(node.expr)]
            parts += [f"{OPERATORS[op.op]} {self._expr(op.expr)}" for op in node.ops]
            return f"({' '.join(parts)})"
        if isinstance(node, nodes.Concat):
            return f"concat({', '.join(self._expr(child) for child in node.nodes)})"
        if isinstance(node, nodes.CondExpr):
            otherwise = (
                self._expr(node.expr2)
                if node.expr2 is not None
                else f"Undefined('the if expression of {self.template}:{node.lineno}')"
            )
            return f"({self._expr(node.expr1)} if {self._expr(node.test)} else {otherwise})"
        if isinstance(node, nodes.Not):
            return f"(not {self._expr(node.node)})"
        if isinstance(node, (nodes.And, nodes.Or)):
            word = "and" if isinstance(node, nodes.And) else "or"
            return f"({self._expr(node.left)} {word} {self._expr(node.right)})"
        raise self._unsupported(node)

    def _filter(self, node: nodes.Filter) -> str:
        if node.dyn_args is not None or node.dyn_kwargs is not None or node.node is None:
            raise self._unsupported(node, "a filter with *args, **kwargs or a filter block")
        arguments = [self._expr(node.node), *(self._expr(arg) for arg in node.args)]
        arguments += [f"{keyword.key}={self._expr(keyword.value)}" for keyword in node.kwargs]
        return f"f[{node.name!r}]({', '.join(arguments)})"

    def _unsupported(self, node: nodes.Node, what: str = "") -> Unsupported:
        return Unsupported(
            f"{self.template}:{node.lineno}: {what or type(node).__name__} is not compiled "
            "to Python (dotdbg/home/templatecompiler.py): write it with what the compiler "
            "knows, or teach it"
        )
