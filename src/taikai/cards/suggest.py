"""The closest card names to a name nobody knows, from a bigram index: milliseconds, not a scan.

A name one character off (弍/弐), with a ``・`` missing or a letter wrong is found by the bigrams it
shares with the right name; the few best candidates are then ordered by edit distance.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Mapping

from taikai.cards.names import fold_key

# What sheets drop or spell differently: middle dots, dashes, dots, quotes, brackets.
_LOOSE = re.compile(r"[・･·\-.'\"!?,:;/&()\[\]「」『』《》【】~]")
_COMMON = 2_000  # a bigram in more names than this says little ("ドラ", "er")
_CANDIDATES = 10  # the best by shared grams, then ordered by edit distance
_REMEMBERED = 4_096  # names whose suggestions a process keeps: a list sent again costs no search


def loose_key(name: str) -> str:
    """Katakana as hiragana too: ``ウララ`` shares its grams with ``灰流うらら``."""
    return _LOOSE.sub("", fold_key(name))


def _grams(key: str) -> set[str]:
    """Bigrams, or trigrams for longer Latin names (their bigrams are too common to tell names apart)."""
    n = 3 if len(key) >= 6 and key.isascii() else 2
    return {key[i : i + n] for i in range(len(key) - n + 1)} if len(key) >= n else {key}


def distance(a: str, b: str) -> int:
    """Levenshtein distance (insert, delete, substitute), bit-parallel (Myers 1999, Hyyrö 2003): one
    pass over the longer name with the shorter one's columns as bits of an int, so a 100-character
    name costs 100 steps, not 100 x its length (a hostile list's long lines stay fast)."""
    if a == b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    if not b:
        return len(a)
    peq: dict[str, int] = {}
    for i, ch in enumerate(b):
        peq[ch] = peq.get(ch, 0) | (1 << i)
    mask, high = (1 << len(b)) - 1, 1 << (len(b) - 1)
    pv, mv, score = mask, 0, len(b)
    for ch in a:
        eq = peq.get(ch, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & mask)
        mh = pv & xh
        if ph & high:
            score += 1
        elif mh & high:
            score -= 1
        ph = ((ph << 1) | 1) & mask
        mh = (mh << 1) & mask
        pv = mh | (~(xv | ph) & mask)
        mv = ph & xv
    return score


class NameSuggester:
    """Display names by loose key, with a bigram posting list per key."""

    def __init__(self, names: Mapping[str, str]):
        """``names`` maps any key of a name to its display name (``name_key`` or ``loose_key``)."""
        self._display: list[str] = []
        self._keys: list[str] = []
        self._sizes: list[int] = []
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
            grams = _grams(key)
            self._sizes.append(len(grams))
            for gram in grams:
                postings.setdefault(gram, []).append(number)
        self._postings = postings
        self._remembered: dict[tuple[str, int], tuple[str, ...]] = {}

    def __len__(self) -> int:
        return len(self._keys)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """The closest names. Remembered per name: a player fixing a list sends most of its unknown names
        again, and a loop of one 20 KB list of unknown names spent most of its deck check here (issue 25);
        the suggester is rebuilt when the card table changes, so nothing remembered goes stale."""
        found = self._remembered.get((name, limit))
        if found is None:
            found = tuple(self._search(name, limit))
            if len(self._remembered) >= _REMEMBERED:
                self._remembered.clear()  # bounded; simple and safe with several request threads
            self._remembered[(name, limit)] = found
        return list(found)

    def _search(self, name: str, limit: int) -> list[str]:
        key = loose_key(name)
        if not key:
            return []
        shared: Counter[int] = Counter()
        grams = _grams(key)
        lists = sorted((self._postings.get(g, []) for g in grams), key=len)
        rare = [p for p in lists if len(p) <= _COMMON] or lists[:1]
        for posting in rare:
            shared.update(posting)
        # Dice coefficient: shared grams against both names' sizes, so long names do not win by length.
        size = len(grams)
        sizes = self._sizes
        candidates = heapq.nlargest(_CANDIDATES, shared, key=lambda n: shared[n] / (size + sizes[n]))
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
