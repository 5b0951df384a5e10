"""Many frozen dataclass instances at once, from one sequence per field.

``instances(Line, ids, points, ...)`` gives the same objects as ``[Line(*row) for row in zip(ids, points, ...)]``.
A frozen dataclass's generated ``__init__`` runs a Python frame and one ``object.__setattr__`` per field for each
instance; here each field is set on every instance by its slot's own descriptor, in one C-level loop per field,
which at thousands of entrants costs half as much (the sheet's lines, the standings, a pairing request's
players). Core computes on plain lists inside and builds its frozen results once, at its boundary, this way.

``fractions(numerators, denominator)`` does the same for the ``Fraction`` of each distinct value of many: the
fraction's own two slots are set to the value reduced (by ``gcd``, as ``Fraction.__new__`` reduces it), so each is
exactly ``Fraction(n, denominator)``; at thousands of distinct tiebreaker values, ``Fraction.__new__``'s Python
frame per value cost more than ranking them. Should ``Fraction`` not keep its value in those two slots (another
Python), ``Fraction(n, denominator)`` is called as usual.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from fractions import Fraction
from itertools import repeat
from math import gcd
from operator import floordiv
from types import MemberDescriptorType
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
    if _FRACTION_SLOTS is None or denominator <= 0:
        return [Fraction(n, denominator) for n in numerators]
    common = list(map(gcd, numerators, repeat(denominator)))  # as Fraction.__new__ reduces: both by their gcd
    made = list(map(object.__new__, repeat(Fraction, len(numerators))))
    set_numerator, set_denominator = _FRACTION_SLOTS
    deque(map(set_numerator, made, map(floordiv, numerators, common)), maxlen=0)
    deque(map(set_denominator, made, map(floordiv, repeat(denominator), common)), maxlen=0)
    return made


def _fraction_slots() -> tuple[Callable[[Any, Any], None], Callable[[Any, Any], None]] | None:
    """The setters of ``Fraction``'s two slots, if it keeps its value there and made so a fraction is the same
    as ``Fraction.__new__``'s (checked on a few values); else None."""
    numerator, denominator = (Fraction.__dict__.get(name) for name in ("_numerator", "_denominator"))
    if not isinstance(numerator, MemberDescriptorType) or not isinstance(denominator, MemberDescriptorType):
        return None
    if getattr(Fraction, "__slots__", None) != ("_numerator", "_denominator"):
        return None
    setters = (numerator.__set__, denominator.__set__)
    for n, d in ((6, 4), (0, 9), (-3, 12), (7, 1)):
        made = object.__new__(Fraction)
        g = gcd(n, d)
        setters[0](made, n // g)
        setters[1](made, d // g)
        plain = Fraction(n, d)
        if (made.numerator, made.denominator, hash(made), str(made)) != (
            plain.numerator,
            plain.denominator,
            hash(plain),
            str(plain),
        ) or made != plain:
            return None
    return setters


_FRACTION_SLOTS = _fraction_slots()
