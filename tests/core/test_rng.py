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
