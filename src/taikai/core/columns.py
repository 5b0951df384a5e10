"""Many frozen dataclass instances at once, from one sequence per field.

``instances(Line, ids, points, ...)`` gives the same objects as ``[Line(*row) for row in zip(ids, points, ...)]``.
A frozen dataclass's generated ``__init__`` runs a Python frame and one ``object.__setattr__`` per field for each
instance; here each field is set on every instance by its slot's own descriptor, in one C-level loop per field,
which at thousands of entrants costs half as much (the sheet's lines, the standings, a pairing request's
players). Core computes on plain lists inside and builds its frozen results once, at its boundary, this way.

``fractions(numerators, denominator)`` builds the ``Fraction`` of each distinct value once where values repeat (a
match-win percentage is shared by many entrants) and shares it: a Fraction is immutable. The fractions themselves
are made by ``Fraction``'s own constructor; setting its private slots was measured faster and left out, as a
detail of the standard library's implementation that core should not lean on.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from fractions import Fraction
from itertools import repeat
from typing import Any, TypeVar

T = TypeVar("T")

_SETTERS: dict[type, tuple[Callable[[Any, Any], None], ...]] = {}


def instances(cls: type[T], *columns: Sequence[Any]) -> list[T]:
    """One instance of ``cls`` per row of ``columns`` (a column per field, in field order, all one length)."""
    setters = _SETTERS.get(cls) or _setters(cls)
    if len(columns) != len(setters):
        raise TypeError(f"{cls.__name__} has {len(setters)} fields, not {len(columns)}")
    size = len(columns[0]) if columns else 0
    if any(len(column) != size for column in columns):
        raise ValueError(f"{cls.__name__}: every column must have the same length")
    made: list[T] = list(map(object.__new__, repeat(cls, size)))
    for set_field, column in zip(setters, columns, strict=True):
        deque(map(set_field, made, column), maxlen=0)  # runs the map without keeping its Nones
    return made


def _setters(cls: type) -> tuple[Callable[[Any, Any], None], ...]:
    """Each field's slot setter; only for what ``__init__`` would do alone (frozen, slotted, every field given,
    no ``__post_init__``), so the instances are exactly the constructor's."""
    params = getattr(cls, "__dataclass_params__", None)
    if not is_dataclass(cls) or params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass")
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields(cls)):
        raise TypeError(f"{cls.__name__} does more in __init__ than set its fields")
    setters = tuple(cls.__dict__[f.name].__set__ for f in fields(cls))
    _SETTERS[cls] = setters
    return setters


def fractions(numerators: Sequence[int], denominator: int) -> list[Fraction]:
    """``[Fraction(n, denominator) for n in numerators]``; ``denominator`` is positive. Where many values repeat,
    one Fraction per distinct value, shared (a Fraction is immutable); where few do (an OOMW% is nearly each
    entrant's own), one each, without the look-up."""
    distinct = set(numerators)
    if len(distinct) * 4 > len(numerators) * 3:
        return _fractions(numerators, denominator)
    values = list(distinct)
    return list(map(dict(zip(values, _fractions(values, denominator), strict=True)).__getitem__, numerators))


def _fractions(numerators: Sequence[int], denominator: int) -> list[Fraction]:
    return [Fraction(n, denominator) for n in numerators]
