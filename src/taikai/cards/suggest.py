"""The closest card names to a name nobody knows, from a bigram index: milliseconds, not a scan.

A name one character off (弍/弐), with a ``・`` missing or a letter wrong is found by the bigrams it
shares with the right name; the few best candidates are then ordered by edit distance.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

from taikai.cards.names import name_key

# What sheets drop or spell differently: middle dots, dashes, dots, quotes, brackets.
_LOOSE = re.compile(r"[・･·\-.'\"!?,:;/&()\[\]「」『』《》【】~]")
_COMMON = 2_000  # a bigram in more names than this says little ("ドラ", "er")
_CANDIDATES = 40


def loose_key(name: str) -> str:
    return _LOOSE.sub("", name_key(name))


def _bigrams(key: str) -> set[str]:
    return {key[i : i + 2] for i in range(len(key) - 1)} if len(key) > 1 else {key}


def distance(a: str, b: str) -> int:
    """Levenshtein distance (insert, delete, substitute)."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


class NameSuggester:
    """Display names by loose key, with a bigram posting list per key."""

    def __init__(self, names: Mapping[str, str]):
        """``names`` maps any key of a name to its display name (``name_key`` or ``loose_key``)."""
        self._display: list[str] = []
        self._keys: list[str] = []
        self._by_loose: dict[str, int] = {}
        postings: dict[str, list[int]] = {}
        for display in dict.fromkeys(names.values()):
            key = loose_key(display)
            if not key or key in self._by_loose:
                continue
            number = len(self._keys)
            self._by_loose[key] = number
            self._keys.append(key)
            self._display.append(display)
            for gram in _bigrams(key):
                postings.setdefault(gram, []).append(number)
        self._postings = postings

    def __len__(self) -> int:
        return len(self._keys)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        key = loose_key(name)
        if not key:
            return []
        shared: Counter[int] = Counter()
        grams = _bigrams(key)
        lists = sorted((self._postings.get(g, []) for g in grams), key=len)
        rare = [p for p in lists if len(p) <= _COMMON] or lists[:1]
        for posting in rare:
            shared.update(posting)
        candidates = [n for n, _ in shared.most_common(_CANDIDATES)]
        exact = self._by_loose.get(key)
        if exact is not None and exact not in candidates:
            candidates.insert(0, exact)

        def rank(number: int) -> tuple[int, int, int]:
            # One edit away first (弍/弐, a typo), then names containing the query ("ニビル" ->
            # "原始生命態ニビル"), then the rest by distance; shorter names before longer ones.
            other = self._keys[number]
            edits = distance(key, other)
            tier = 0 if edits <= 1 else 1 if key in other or other in key else 2
            return (tier, edits, len(other))

        return [self._display[n] for n in sorted(candidates, key=rank)[:limit]]
