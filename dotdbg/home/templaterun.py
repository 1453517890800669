"""What the compiled templates (``templatecode``) call: jinja2's lookups, undefined values and
the built-in filters the templates use, with jinja2's rules (StrictUndefined, no autoescape),
without importing jinja2. tests/test_template_code.py renders every template both ways."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

Scope = dict[str, Any]
Filters = Mapping[str, Callable[..., Any]]
Write = Callable[[str], object]


class TemplateError(Exception):
    """A template used a value that is not there (jinja2's UndefinedError): a bug in dotdbg."""


class Undefined:
    """A name or attribute that is not there: any use but ``default`` is an error, as with
    jinja2's StrictUndefined."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def _fail(self, *_: object) -> Any:
        raise TemplateError(f"{self.what} is undefined")

    __str__ = __iter__ = __len__ = __bool__ = __contains__ = __call__ = _fail
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __getitem__ = __hash__ = _fail

    def __getattr__(self, attribute: str) -> Any:
        return self._fail()


def name(scope: Scope, key: str) -> Any:
    return scope[key] if key in scope else Undefined(repr(key))


def attr(value: Any, attribute: str) -> Any:
    """``value.attribute``: the attribute first, then the item (jinja2's ``getattr``)."""
    try:
        return getattr(value, attribute)
    except AttributeError:
        pass
    try:
        return value[attribute]
    except (TypeError, LookupError, AttributeError):
        return Undefined(f"{attribute!r} of {type(value).__name__}")


def item(value: Any, key: Any) -> Any:
    """``value[key]``: the item first, then the attribute (jinja2's ``getitem``)."""
    try:
        return value[key]
    except (AttributeError, TypeError, LookupError):
        if isinstance(key, str):
            try:
                return getattr(value, key)
            except AttributeError:
                pass
        return Undefined(f"{key!r} of {type(value).__name__}")


def concat(*values: Any) -> str:
    return "".join(map(str, values))


# -- the built-in filters and tests the templates use -----------------------------------------

TESTS: dict[str, Callable[..., bool]] = {
    "in": lambda value, seq: value in seq,
    "defined": lambda value: not isinstance(value, Undefined),
    "undefined": lambda value: isinstance(value, Undefined),
    "none": lambda value: value is None,
}


def _getter(attribute: str | int, default: Any = None) -> Callable[[Any], Any]:
    """jinja2's ``make_attrgetter``: dotted parts, digits as indexes, each looked up as an item
    first; ``default`` for a part that is not there."""
    parts: list[str | int] = (
        [int(part) if part.isdigit() else part for part in attribute.split(".")]
        if isinstance(attribute, str)
        else [attribute]
    )

    def get(value: Any) -> Any:
        for part in parts:
            value = item(value, part)
            if default is not None and isinstance(value, Undefined):
                value = default
        return value

    return get


def _test(args: tuple[Any, ...]) -> Callable[[Any], Any]:
    if not args:
        return bool
    test, rest = TESTS[args[0]], args[1:]
    return lambda value: test(value, *rest)


def builtin_filters(filters: Filters) -> dict[str, Callable[..., Any]]:
    """The built-in filters; ``map`` applies one of ``filters`` by name."""

    def do_map(value: Iterable[Any], *args: Any, **kwargs: Any) -> Iterator[Any]:
        if not args and "attribute" in kwargs:
            yield from map(_getter(kwargs["attribute"], kwargs.get("default")), value)
            return
        apply, rest = filters[args[0]], args[1:]
        for each in value:
            yield apply(each, *rest, **kwargs)

    def select(keep: bool, by_attribute: bool) -> Callable[..., Iterator[Any]]:
        def chosen(value: Iterable[Any], *args: Any) -> Iterator[Any]:
            get = _getter(args[0]) if by_attribute else (lambda found: found)
            test = _test(args[1:] if by_attribute else args)
            if value:
                for each in value:
                    if bool(test(get(each))) == keep:
                        yield each

        return chosen

    return {
        "join": lambda value, d="", attribute=None: str(d).join(
            map(str, value if attribute is None else map(_getter(attribute), value))
        ),
        "list": list,
        "default": lambda value, default_value="", boolean=False: (
            default_value if isinstance(value, Undefined) or (boolean and not value) else value
        ),
        "map": do_map,
        "select": select(True, False),
        "reject": select(False, False),
        "selectattr": select(True, True),
        "rejectattr": select(False, True),
    }
