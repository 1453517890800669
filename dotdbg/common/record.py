"""Frozen records: what ``@dataclass(frozen=True)`` gave the home commands' types, without
importing ``dataclasses`` (it imports ``inspect``, and compiles code for each class it makes:
16 ms of `dotdbg status`'s imports for its 30 classes, issue 27).

``class Alias(Record)`` with annotated fields gets an ``__init__`` taking them in order, by
position or by name (one with a default may be left out); no assignment after it; ``==`` and
``hash`` over the fields, between records of the same class; a repr naming them.
``field(default=..., compare=False, repr=False)`` leaves a field out of ``==`` and ``hash``, or
out of the repr; ``replace(record, **changes)`` is a changed copy. Every annotation of the class
body is a field; a default is never copied, so it is an immutable value, as a dataclass's is.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar

    from typing_extensions import dataclass_transform

    _T = TypeVar("_T")
    _R = TypeVar("_R", bound="Record")
else:

    def dataclass_transform(**_options):
        return lambda decorated: decorated


class _Field:
    __slots__ = ("compare", "default", "repr")

    def __init__(self, default: object, compare: bool, repr: bool) -> None:
        self.default, self.compare, self.repr = default, compare, repr


def field(*, default: _T, compare: bool = True, repr: bool = True) -> _T:
    """A field's default, and whether ``==``/``hash`` and the repr take it in."""
    return _Field(default, compare, repr)  # type: ignore[return-value]


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Record:
    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _names: ClassVar[frozenset[str]] = frozenset()
    _defaults: ClassVar[dict[str, Any]] = {}
    _compared: ClassVar[tuple[str, ...]] = ()
    _shown: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls) -> None:
        # the class's own annotations (not inspect.get_annotations: importing inspect is the cost)
        annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063
        own = [name for name in annotations if name not in cls._names]
        defaults, compared, shown = dict(cls._defaults), list(cls._compared), list(cls._shown)
        for name in own:
            value = cls.__dict__.get(name, _Field)
            spec = value if isinstance(value, _Field) else _Field(value, True, True)
            if spec.default is not _Field:
                defaults[name] = spec.default
                setattr(cls, name, spec.default)
            elif defaults:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one")
            compared += [name] if spec.compare else []
            shown += [name] if spec.repr else []
        cls._fields = (*cls._fields, *own)
        cls._names = frozenset(cls._fields)
        cls._defaults, cls._compared, cls._shown = defaults, tuple(compared), tuple(shown)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kind = type(self)
        if len(args) > len(kind._fields):
            raise TypeError(f"{kind.__name__}() takes {len(kind._fields)} arguments")
        state = dict(zip(kind._fields, args, strict=False))
        if kwargs:
            for name in kwargs:
                if name not in kind._names or name in state:
                    raise TypeError(f"{kind.__name__}() got a wrong or second {name!r}")
            state.update(kwargs)
        if len(state) < len(kind._fields):
            state = {**kind._defaults, **state}
            missing = [name for name in kind._fields if name not in state]
            if missing:
                raise TypeError(f"{kind.__name__}() is missing {', '.join(missing)}")
        object.__setattr__(self, "__dict__", state)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a frozen {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a frozen {type(self).__name__}")

    def _key(self) -> tuple[object, ...]:
        state = self.__dict__
        return tuple([state[name] for name in self._compared])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        state = self.__dict__
        shown = ", ".join(f"{name}={state[name]!r}" for name in self._shown)
        return f"{type(self).__qualname__}({shown})"


def replace(record: _R, **changes: object) -> _R:
    """A copy of ``record`` with ``changes``: what ``dataclasses.replace`` did."""
    state = record.__dict__
    return type(record)(**{**{name: state[name] for name in record._fields}, **changes})
