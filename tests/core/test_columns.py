"""Frozen dataclass instances made a field at a time (core.columns): the same objects as the constructor's."""

from __future__ import annotations

from dataclasses import FrozenInstanceError, dataclass
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.core import columns
from taikai.core.columns import instances
from taikai.core.pairing.types import PlayerState
from taikai.core.sheet import Line, Reached, Table
from taikai.core.standings import Standing

ids = st.one_of(st.integers(-5, 10**20), st.text(max_size=3))


@given(st.lists(st.tuples(ids, st.integers(-3, 40), st.lists(ids, max_size=4), st.integers(0, 3), st.booleans())))
def test_players_made_by_field_equal_the_constructors(rows: list[tuple[object, ...]]) -> None:
    columns = [list(c) for c in zip(*rows, strict=True)] if rows else [[], [], [], [], []]
    columns[2] = [tuple(o) for o in columns[2]]
    made = instances(PlayerState, *columns)
    assert made == [PlayerState(*row) for row in zip(*columns, strict=True)]
    assert all(type(p) is PlayerState for p in made)


def test_lines_tables_and_standings_equal_the_constructors() -> None:
    line = ("x", 9, 3, 1, 0, 1, 0, ("y", "z"), ("y",), False, False, 2, True, Reached.ELIMINATION)
    assert instances(Line, *([v] for v in line)) == [Line(*line)]
    assert instances(Table, ["a", "b"], ["c", None], ["draw", ""]) == [Table("a", "c", "draw"), Table("b")]
    row = (1, "x", 9, 3, 0, 0, 1, {"omw": Fraction(1, 3)}, 4, "09333000")
    (made,) = instances(Standing, *([v] for v in row))
    assert made == Standing(*row) and made.omw == Fraction(1, 3) and hash(Table("a")) == hash(Table("a"))


def test_the_instances_are_frozen() -> None:
    (table,) = instances(Table, ["a"], ["b"], ["a"])
    with pytest.raises(FrozenInstanceError):
        table.result = "b"  # type: ignore[misc]


@dataclass(frozen=True)
class _Unslotted:
    a: int


@dataclass(slots=True)
class _Mutable:
    a: int


@dataclass(frozen=True, slots=True)
class _Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@pytest.mark.parametrize("cls", [_Unslotted, _Mutable, _Checked, int])
def test_only_what_the_constructor_would_do_alone(cls: type) -> None:
    with pytest.raises(TypeError):
        instances(cls, [1])


def test_every_field_and_one_length() -> None:
    with pytest.raises(TypeError):
        instances(Table, ["a"], ["b"])
    with pytest.raises(ValueError):
        instances(Table, ["a", "b"], ["c"], ["a", "b"])


def _same(got: list[Fraction], numerators: list[int], denominator: int) -> bool:
    want = [Fraction(n, denominator) for n in numerators]
    return [(type(f), f.numerator, f.denominator, hash(f), str(f)) for f in got] == [
        (type(f), f.numerator, f.denominator, hash(f), str(f)) for f in want
    ]


@given(st.lists(st.integers(-(10**30), 10**30)), st.integers(1, 10**25))
def test_fractions_made_a_field_at_a_time_equal_fractions_built_directly(numerators: list[int], d: int) -> None:
    # the standings' shown tiebreaker values (OMW%, OOMW%): exact, in lowest terms, as Fraction(n, d) makes them
    assert _same(columns.fractions(numerators, d), numerators, d)
    repeated = [n % 7 for n in numerators]  # many values alike: one Fraction each value, shared
    assert _same(columns.fractions(repeated, d), repeated, d)
