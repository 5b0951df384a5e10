"""A small seeded random number generator for core (SplitMix64).

Core never imports ``random``: results that depend on chance (round-1 pairings, ties broken by a
draw) must be reproducible from a stored seed on any Python version, for appeals.

SplitMix64's k-th output depends only on the seed and k, so many outputs can be made at once: ``next_u64s``
packs a block of states into one integer, one 128-bit lane each, and mixes them all with a few whole-integer
operations (a lane's products stay under 2^128, and a shift's bits from the next lane are masked off). The
values are exactly those of ``next_u64`` called in turn; a pairing at 4,096 players draws some 8,000 of them.
"""

from __future__ import annotations

import sys
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_BLOCK = 256  # lanes mixed at once: past a few hundred, the integers outgrow the cache and each lane costs more
_FEW = 16  # below this many draws, one at a time is cheaper than a block


def _lanes(k: int) -> tuple[int, int, int]:
    """(1 in every lane, lane i holding (i + 1) x gamma, 2^64 - 1 in every lane) for ``k`` 128-bit lanes, built by
    doubling."""
    ones, steps, n = 1, 1, 1
    while n < k:
        shift = 128 * n
        steps |= (steps + n * ones) << shift
        ones |= ones << shift
        n *= 2
    cut = (1 << (128 * k)) - 1
    return ones & cut, (steps & cut) * _GAMMA, (ones & cut) * _MASK


_LANES = _lanes(_BLOCK)
_PACKED = sys.byteorder == "little"  # a lane's low 64 bits read back as one native unsigned 64-bit item


class SeededRandom:
    def __init__(self, seed: int | str):
        if isinstance(seed, str):
            seed = int.from_bytes(seed.encode("utf-8")[:32].ljust(8, b"\0"), "little")
        self._state = seed & _MASK

    def next_u64(self) -> int:
        self._state = (self._state + _GAMMA) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * _M1) & _MASK
        z = ((z ^ (z >> 27)) * _M2) & _MASK
        return z ^ (z >> 31)

    def next_u64s(self, count: int) -> list[int]:
        """The next ``count`` outputs, exactly as ``count`` calls of ``next_u64`` give them."""
        return self._outputs(count, _MASK)

    def _outputs(self, count: int, bits: int) -> list[int]:
        """The next ``count`` outputs, each ANDed with ``bits`` (2^64 - 1: whole)."""
        if count < _FEW or not _PACKED:
            return [self.next_u64() & bits for _ in range(count)]
        ones, steps, lane = _LANES
        keep = lane if bits == _MASK else ones * bits
        out: list[int] = []
        for start in range(0, count, _BLOCK):
            z = (steps + ones * ((self._state + start * _GAMMA) & _MASK)) & lane
            z = ((z ^ (z >> 30)) & lane) * _M1 & lane
            z = ((z ^ (z >> 27)) & lane) * _M2 & lane
            z = (z ^ (z >> 31)) & keep
            out += memoryview(z.to_bytes(16 * _BLOCK, "little")).cast("Q")[: 2 * min(_BLOCK, count - start) : 2]
        self._state = (self._state + count * _GAMMA) & _MASK
        return out

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            # next_u64, written out: pairing draws one per edge, and the call was a third of the draw's cost
            self._state = z = (self._state + _GAMMA) & _MASK
            z = ((z ^ (z >> 30)) * _M1) & _MASK
            z = ((z ^ (z >> 27)) * _M2) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def belows(self, n: int, count: int) -> list[int]:
        """``count`` draws of ``below(n)``, exactly as one call after another gives them."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n & (n - 1) == 0 and n <= _MASK + 1:  # a power of two: below(n) takes the low bits and refuses none
            return self._outputs(count, n - 1)
        start = self._state
        drawn = self.next_u64s(count)
        if drawn and max(drawn) >= (_MASK + 1) - ((_MASK + 1) % n):  # a draw below() would refuse: one at a time
            self._state = start
            return [self.below(n) for _ in range(count)]
        return [x % n for x in drawn]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place: item i (from the last down) swaps with one drawn below i + 1."""
        size = len(items)
        start = self._state
        drawn = self.next_u64s(size - 1) if size > 1 else []
        # Every draw is below(m) for some m <= size, which refuses only x >= 2^64 - (2^64 mod m) > 2^64 - size.
        if drawn and max(drawn) >= (_MASK + 1) - size:
            self._state = start
            for i in range(size - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        for i, x in zip(range(size - 1, 0, -1), drawn, strict=True):
            j = x % (i + 1)
            items[i], items[j] = items[j], items[i]
