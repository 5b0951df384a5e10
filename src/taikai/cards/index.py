"""Card look-up by passcode or by name (Japanese or English, full-width or half-width, partial).

``MemoryCardIndex`` holds cards in memory (straight from ``.cdb`` files, for ``deck check --cards``
without a database); ``DbCardIndex`` answers from the imported database. Both have the same methods,
so deck checking and text-sheet reading take either.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Protocol

from taikai.cards.names import is_japanese, name_key
from taikai.cards.sources import read_cdbs
from taikai.core.deck import CardFacts


class CardIndex(Protocol):
    def get(self, passcode: int) -> CardFacts | None: ...

    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]: ...

    def resolve(self, name: str) -> CardFacts | None: ...

    def find(self, query: str, limit: int = 20) -> list[CardFacts]: ...

    def suggest(self, name: str, limit: int = 3) -> list[str]: ...


def preference(card: CardFacts) -> tuple[bool, bool, int]:
    """Among cards sharing a name, the original printing first: no alias, not a token, lowest passcode."""
    return (card.alias != 0, card.is_token, card.passcode)


def rank_matches(query_key: str, cards: Iterable[CardFacts], limit: int) -> list[CardFacts]:
    """Exact names first, then names starting with the query, then names containing it; shorter first."""

    def score(card: CardFacts) -> tuple[int, int, tuple[bool, bool, int]]:
        keys = [k for k in (name_key(card.name_ja), name_key(card.name_en)) if query_key in k]
        best = min(
            ((0 if k == query_key else 1 if k.startswith(query_key) else 2), len(k)) for k in keys or [query_key]
        )
        return (best[0], best[1], preference(card))

    return sorted(cards, key=score)[:limit]


def close_names(name: str, candidates: Mapping[str, str], limit: int) -> list[str]:
    """Closest display names to ``name``; ``candidates`` maps a key to its display name."""
    key = name_key(name)
    contained = sorted((k for k in candidates if key and key in k), key=len)[:limit]
    close = difflib.get_close_matches(key, list(candidates), n=limit, cutoff=0.5)
    seen: list[str] = []
    for k in [*contained, *close]:
        if candidates[k] not in seen:
            seen.append(candidates[k])
    return seen[:limit]


class MemoryCardIndex:
    def __init__(self, cards: Iterable[CardFacts]):
        self._cards: dict[int, CardFacts] = {c.passcode: c for c in cards}
        self._by_key: dict[str, CardFacts] = {}
        self._names: dict[str, dict[str, str]] = {"ja": {}, "en": {}}
        self._all_keys: list[tuple[str, CardFacts]] = []
        for card in sorted(self._cards.values(), key=preference, reverse=True):
            for lang, name in (("ja", card.name_ja), ("en", card.name_en)):
                if name:
                    key = name_key(name)
                    self._by_key[key] = card  # the preferred printing is written last
                    self._names[lang][key] = name
                    self._all_keys.append((key, card))

    @classmethod
    def from_cdb(cls, paths: Iterable[str | Path]) -> MemoryCardIndex:
        return cls(card.facts() for card in read_cdbs(paths).values())

    def __len__(self) -> int:
        return len(self._cards)

    def get(self, passcode: int) -> CardFacts | None:
        return self._cards.get(passcode)

    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]:
        return {p: self._cards[p] for p in set(passcodes) if p in self._cards}

    def resolve(self, name: str) -> CardFacts | None:
        return self._by_key.get(name_key(name))

    def find(self, query: str, limit: int = 20) -> list[CardFacts]:
        key = name_key(query)
        if not key:
            return []
        if key.isdigit() and int(key) in self._cards:
            return [self._cards[int(key)]]
        hits = {c.passcode: c for k, c in self._all_keys if key in k}
        return rank_matches(key, hits.values(), limit)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        return close_names(name, self._names["ja" if is_japanese(name) else "en"], limit)


class DbCardIndex:
    """The same look-ups over ``taikai.cards.models.Card``; call after Django is set up."""

    def __init__(self) -> None:
        from taikai.cards.models import Card

        self._model = Card

    def __len__(self) -> int:
        return int(self._model.objects.count())

    def get(self, passcode: int) -> CardFacts | None:
        card = self._model.objects.filter(passcode=passcode).first()
        return card.facts() if card else None

    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]:
        return {c.passcode: c.facts() for c in self._model.objects.filter(passcode__in=set(passcodes))}

    def resolve(self, name: str) -> CardFacts | None:
        from django.db.models import Q

        key = name_key(name)
        if not key:
            return None
        found = [c.facts() for c in self._model.objects.filter(Q(key_ja=key) | Q(key_en=key))]
        return min(found, key=preference) if found else None

    def find(self, query: str, limit: int = 20) -> list[CardFacts]:
        from django.db.models import Q

        key = name_key(query)
        if not key:
            return []
        if key.isdigit():
            exact = self.get(int(key))
            if exact:
                return [exact]
        rows = self._model.objects.filter(Q(key_ja__contains=key) | Q(key_en__contains=key))[:500]
        return rank_matches(key, [c.facts() for c in rows], limit)

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        lang = "ja" if is_japanese(name) else "en"
        rows = self._model.objects.exclude(**{f"name_{lang}": ""}).values_list(f"key_{lang}", f"name_{lang}")
        return close_names(name, dict(rows), limit)
