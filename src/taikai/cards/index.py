"""Card look-up by passcode or by name (Japanese or English, full-width or half-width, partial).

``MemoryCardIndex`` holds cards in memory (straight from ``.cdb`` files, for ``deck check --cards``
without a database); ``DbCardIndex`` answers from the imported database. Both have the same methods,
so deck checking and text-sheet reading take either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Protocol

from taikai.cards.names import is_japanese, name_key
from taikai.cards.sources import read_cdbs
from taikai.cards.suggest import NameSuggester
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
    """Closest display names to ``name``; ``candidates`` maps a key to its display name. Builds an
    index each call: for a one-off list; indexes keep a ``NameSuggester``."""
    return NameSuggester(candidates).suggest(name, limit)


class MemoryCardIndex:
    def __init__(self, cards: Iterable[CardFacts]):
        self._cards: dict[int, CardFacts] = {c.passcode: c for c in cards}
        self._by_key: dict[str, CardFacts] = {}
        self._names: dict[str, dict[str, str]] = {"ja": {}, "en": {}}
        self._all_keys: list[tuple[str, CardFacts]] = []
        self._suggesters: dict[str, NameSuggester] = {}
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
        lang = "ja" if is_japanese(name) else "en"
        if lang not in self._suggesters:
            self._suggesters[lang] = NameSuggester(self._names[lang])
        return self._suggesters[lang].suggest(name, limit)

    def warm(self) -> None:
        """Build every language's suggester now rather than on the first unknown name."""
        for lang, names in self._names.items():
            if lang not in self._suggesters:
                self._suggesters[lang] = NameSuggester(names)


class _NameTable:
    """Every imported name's key -> the preferred passcode, and a suggester per language: loaded once
    per process and per state of the card table, so reading a sheet asks the database nothing per line."""

    def __init__(self, rows: Iterable[tuple[int, int, int, str, str]]):
        cards = [CardFacts(passcode=p, alias=a, type=t, name_en=en, name_ja=ja) for p, a, t, en, ja in rows]
        memory = MemoryCardIndex(cards)
        self.by_key = {key: card.passcode for key, card in memory._by_key.items()}
        self.memory = memory


_TABLE: tuple[tuple[object, ...], _NameTable] | None = None


def forget_names() -> None:
    """Drop the cached name table (a card was saved in this process)."""
    global _TABLE
    _TABLE = None


class DbCardIndex:
    """The same look-ups over ``taikai.cards.models.Card``; call after Django is set up."""

    def __init__(self) -> None:
        from taikai.cards.models import Card

        self._model = Card
        self._names: _NameTable | None = None

    def __len__(self) -> int:
        return int(self._model.objects.count())

    def _table(self) -> _NameTable:
        """The process's name table, checked against the card table once per index (one list read)."""
        if self._names is None:
            self._names = self._current_table()
        return self._names

    def _current_table(self) -> _NameTable:
        global _TABLE
        from django.db.models import Count, Max, Sum

        from taikai.cards.models import ImportRecord

        stats = self._model.objects.aggregate(n=Count("passcode"), s=Sum("passcode"), m=Max("passcode"))
        stamp = (stats["n"], stats["s"], stats["m"], ImportRecord.objects.aggregate(m=Max("id"))["m"])
        if _TABLE is None or _TABLE[0] != stamp:
            rows = self._model.objects.values_list("passcode", "alias", "type", "name_en", "name_ja")
            _TABLE = (stamp, _NameTable(rows))
        return _TABLE[1]

    def get(self, passcode: int) -> CardFacts | None:
        card = self._model.objects.filter(passcode=passcode).first()
        return card.facts() if card else None

    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]:
        return {c.passcode: c.facts() for c in self._model.objects.filter(passcode__in=set(passcodes))}

    def resolve(self, name: str) -> CardFacts | None:
        passcode = self._table().by_key.get(name_key(name))
        return self.get(passcode) if passcode is not None else None

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
        return self._table().memory.suggest(name, limit)

    def warm(self) -> None:
        """Load the process's name table and its suggesters (a web process starting): the first deck list
        sent took about a second of a core for them, and every report that process served waited."""
        self._table().memory.warm()
