"""Record classes that behave like slotted dataclasses without their import cost.

`@dataclass` writes each class's `__init__`, `__repr__`, `__eq__` (and, frozen,
`__hash__`, `__setattr__`, `__delattr__`, `__getstate__`, `__setstate__`) as source
text and compiles it with `exec` when the module is imported: about 1 ms a class,
paid by every `guidelint check` for the value types on its import path. A subclass
of `Record` lists its fields in `__slots__` and writes its own `__init__`; the
other methods are these, compiled once into bytecode, with dataclasses' semantics:
equal only to an instance of the same class with equal fields (in order), repr
`Name(field=value, ...)` without the fields named in `_no_repr` (`_no_compare`'s
are left out of equality and hash, as `field(compare=False)`), and for
`FrozenRecord` a hash of the fields, `dataclasses.FrozenInstanceError` on
assignment or deletion, and pickling by field values.
`tests/core/test_records.py` holds each converted class to its dataclass twin.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from typing_extensions import Self


def _as_tuple(fields: tuple[str, ...]) -> Any:
    """The fields' values as a tuple, for a record of none or one field."""
    return lambda record: tuple(getattr(record, name) for name in fields)


class Record:
    """A mutable record: equality and repr over the fields in `__slots__`."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _no_repr: ClassVar[tuple[str, ...]] = ()
    _no_compare: ClassVar[tuple[str, ...]] = ()  # left out of equality and hash
    _repr_fields: ClassVar[tuple[str, ...]] = ()
    _values: ClassVar[Any] = None  # the compared fields' values, as one tuple
    __match_args__: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        slots = cls.__dict__.get("__slots__", ())
        cls._fields = (slots,) if isinstance(slots, str) else tuple(slots)
        cls._repr_fields = tuple(name for name in cls._fields if name not in cls._no_repr)
        cls.__match_args__ = cls._fields  # type: ignore[misc]  # as dataclasses set it
        # attrgetter of one name returns the value itself; of several, a tuple.
        compared = tuple(name for name in cls._fields if name not in cls._no_compare)
        getter = attrgetter(*compared) if len(compared) > 1 else _as_tuple(compared)
        cls._values = staticmethod(getter)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._values(self) == self._values(other))

    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable, as eq=True dataclasses

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed, as `dataclasses.replace`."""
        values = {name: getattr(self, name) for name in self._fields}
        return type(self)(**{**values, **changes})

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._repr_fields)
        return f"{self.__class__.__qualname__}({shown})"


class FrozenRecord(Record):
    """An immutable record: hashable by its fields, not assignable after `__init__`
    (which sets its fields with `object.__setattr__`, as frozen dataclasses do)."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # Record's is None: unhashable
        return hash(self._values(self))

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self) -> list[object]:
        return [getattr(self, name) for name in self._fields]

    def __setstate__(self, state: list[object]) -> None:
        for name, value in zip(self._fields, state, strict=True):
            object.__setattr__(self, name, value)
