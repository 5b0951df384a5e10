from __future__ import annotations

import pytest

from taikai.core.rng import SeededRandom


def test_same_seed_same_sequence() -> None:
    a, b = SeededRandom(42), SeededRandom(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]


def test_shuffle_is_a_permutation_and_seed_dependent() -> None:
    items = list(range(50))
    x, y = items[:], items[:]
    SeededRandom(1).shuffle(x)
    SeededRandom(2).shuffle(y)
    assert sorted(x) == items and sorted(y) == items and x != y


def test_below_covers_the_range() -> None:
    r = SeededRandom("event-7")
    seen = {r.below(6) for _ in range(500)}
    assert seen == set(range(6))


@pytest.mark.parametrize("seed", [0, 1, 2**64 - 1, "event-7"])
@pytest.mark.parametrize("count", [0, 1, 15, 16, 17, 255, 256, 257, 4097])
def test_outputs_at_once_are_the_outputs_one_at_a_time(seed: int | str, count: int) -> None:
    one, many = SeededRandom(seed), SeededRandom(seed)
    assert many.next_u64s(count) == [one.next_u64() for _ in range(count)]
    assert many.next_u64() == one.next_u64()  # and the state goes on from the same place


@pytest.mark.parametrize("n", [1, 2, 6, 1 << 24, 1000003, 2**64 - 1, 2**64])
@pytest.mark.parametrize("count", [1, 40, 600])
def test_draws_at_once_are_the_draws_one_at_a_time(n: int, count: int) -> None:
    one, many = SeededRandom(99), SeededRandom(99)
    assert many.belows(n, count) == [one.below(n) for _ in range(count)]
    assert many.next_u64() == one.next_u64()


def _fisher_yates(seed: int | str, items: list[int]) -> list[int]:
    r, out = SeededRandom(seed), items[:]
    for i in range(len(out) - 1, 0, -1):
        j = r.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("size", [0, 1, 2, 17, 300, 5000])
def test_shuffle_is_fisher_yates_drawn_one_at_a_time(size: int) -> None:
    items = list(range(size))
    r = SeededRandom("seed")
    r.shuffle(items)
    assert items == _fisher_yates("seed", list(range(size)))


class _Refusing(SeededRandom):
    """Pretends a block holds a value below() refuses (at most 1 in 2^52 for these sizes), to reach the slow path."""

    def next_u64s(self, count: int) -> list[int]:
        super().next_u64s(count)
        return [2**64 - 1] * count


def test_a_refused_draw_falls_back_to_one_draw_at_a_time() -> None:
    items = list(range(50))
    r = _Refusing(5)
    r.shuffle(items)
    assert items == _fisher_yates(5, list(range(50)))
    one = SeededRandom(5)
    assert _Refusing(5).belows(6, 30) == [one.below(6) for _ in range(30)]
