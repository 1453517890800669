"""C++ function names as a reader needs them: template arguments cut to ``<…>``, and the
signature of an enclosing function to ``(…)``.

A demangled name carries every template argument, nested, and the whole signature of the
function a lambda is in: a pybind11 binding's name runs to kilobytes in every PyTorch stack
(``pybind11::cpp_function::initialize<…>(…)::{lambda(pybind11::detail::function_call&)#1}::_FUN``
once cut). Text output shows the cut name; ``--json`` keeps the whole one.
"""

from __future__ import annotations

TEMPLATE_CUT = "<…>"
SIGNATURE_CUT = "(…)"
ANONYMOUS = "(anonymous namespace)"
_OPERATOR = "operator"
# operators whose own name holds brackets: kept as they are, never taken for a template
_OPERATORS = ("<=>", "<<=", ">>=", "<<", ">>", "<=", ">=", "->*", "->", "<", ">", "()")


def cut(name: str) -> str:
    """``name`` with each outermost template argument list shown as ``<…>`` and each
    signature followed by ``::`` (a lambda's or local class's enclosing function) as ``(…)``;
    a name with unbalanced brackets is not one this understands, and is kept whole."""
    if "<" not in name and ")::" not in name:
        return name
    out: list[str] = []
    at = 0
    while at < len(name):
        if name.startswith(_OPERATOR, at):
            end = at + len(_OPERATOR)
            end += len(next((s for s in _OPERATORS if name.startswith(s, end)), ""))
        elif name[at] in "<(":
            end = _closing(name, at)
            if end < 0:
                return name
            out.append(_group(name[at:end], followed_by_scope=name.startswith("::", end)))
            at = end
            continue
        else:
            end = at + 1
        out.append(name[at:end])
        at = end
    return "".join(out)


def _group(text: str, followed_by_scope: bool) -> str:
    """A bracketed group: a template's arguments cut, an enclosing function's signature cut,
    a function's own parameters kept with their templates cut."""
    if text[0] == "<":
        return TEMPLATE_CUT
    if followed_by_scope and text != ANONYMOUS:
        return SIGNATURE_CUT
    return f"({cut(text[1:-1])})"


def _closing(name: str, start: int) -> int:
    """The index after the bracket that closes the one at ``start``; -1 when none does."""
    depth = 0
    at = start
    while at < len(name):
        if name.startswith(_OPERATOR, at):
            at += len(_OPERATOR)
            at += len(next((s for s in _OPERATORS if name.startswith(s, at)), ""))
            continue
        if name[at] in "<(":
            depth += 1
        elif name[at] in ">)":
            depth -= 1
            if depth == 0:
                return at + 1
        at += 1
    return -1
