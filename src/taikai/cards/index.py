"""Card look-up by passcode or by name (Japanese or English, full-width or half-width, partial).

``MemoryCardIndex`` holds cards in memory (straight from ``.cdb`` files, for ``deck check --cards``
without a database); ``DbCardIndex`` answers from the imported database. Both have the same methods,
so deck checking and text-sheet reading take either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Protocol

from taikai.cards.names import fold, fold_key, is_japanese, name_key
from taikai.cards.sources import read_cdbs
from taikai.cards.suggest import NameSuggester
from taikai.core.deck import CardFacts


class CardIndex(Protocol):
    def get(self, passcode: int) -> CardFacts | None: ...

    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]: ...

    def resolve(self, name: str) -> CardFacts | None: ...

    def resolve_many(self, names: Iterable[str]) -> dict[str, CardFacts | None]: ...

    def find(self, query: str, limit: int = 20) -> list[CardFacts]: ...

    def suggest(self, name: str, limit: int = 3) -> list[str]: ...


def preference(card: CardFacts) -> tuple[bool, bool, int]:
    """Among cards sharing a name, the original printing first: no alias, not a token, lowest passcode."""
    return (card.alias != 0, card.is_token, card.passcode)


def rank_matches(query_key: str, cards: Iterable[CardFacts], limit: int) -> list[CardFacts]:
    """Exact names first, then names starting with the query, then names containing it; shorter first.
    ``query_key`` is a ``fold_key`` (katakana read as hiragana)."""

    def score(card: CardFacts) -> tuple[int, int, tuple[bool, bool, int]]:
        keys = [k for k in (fold_key(card.name_ja), fold_key(card.name_en)) if query_key in k]
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
        self._by_fold: dict[str, CardFacts] = {}  # katakana as hiragana: 灰流ウララ is 灰流うらら
        self._names: dict[str, dict[str, str]] = {"ja": {}, "en": {}}
        self._all_keys: list[tuple[str, CardFacts]] = []
        self._suggesters: dict[str, NameSuggester] = {}
        self._longest = 10  # the longest key (a passcode has 10 digits): a longer line names no card
        for card in sorted(self._cards.values(), key=preference, reverse=True):
            for lang, name in (("ja", card.name_ja), ("en", card.name_en)):
                if name:
                    key = name_key(name)
                    self._longest = max(self._longest, len(key))
                    self._by_key[key] = card  # the preferred printing is written last
                    self._by_fold[fold_key(name)] = card
                    self._names[lang][key] = name
                    self._all_keys.append((fold_key(name), card))

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
        """The card called ``name`` exactly (up to width, case, spacing and katakana/hiragana), or the
        card whose passcode ``name`` is (EDOPro's text import takes bare passcodes too)."""
        key = name_key(name)
        if len(key) > self._longest:
            return None
        card = self._by_key.get(key) or self._by_fold.get(fold(key))
        if card is None and key.isascii() and key.isdigit() and len(key) <= 10:
            card = self._cards.get(int(key))
        return card

    def resolve_many(self, names: Iterable[str]) -> dict[str, CardFacts | None]:
        """``resolve`` of each name, keyed by the name as given."""
        return {name: self.resolve(name) for name in names}

    def find(self, query: str, limit: int = 20) -> list[CardFacts]:
        key = fold_key(query)
        if not key:
            return []
        if key.isascii() and key.isdigit() and int(key) in self._cards:
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
        from django.db import connection

        from taikai.cards.models import ImportRecord

        # one statement: every deck list sent asks it (two round trips each on PostgreSQL before); a read
        cards, imports = self._model._meta.db_table, ImportRecord._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT COUNT(passcode), SUM(passcode), MAX(passcode), (SELECT MAX(id) FROM {imports}) FROM {cards}"
            )
            stamp = tuple(cursor.fetchone() or ())
        if _TABLE is None or _TABLE[0] != stamp:
            rows = self._model.objects.values_list("passcode", "alias", "type", "name_en", "name_ja")
            _TABLE = (stamp, _NameTable(rows))
        return _TABLE[1]

    def get(self, passcode: int) -> CardFacts | None:
        card = self._model.objects.filter(passcode=passcode).first()
        return card.facts() if card else None

    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]:
        wanted = set(passcodes)
        if not wanted:
            return {}
        return {c.passcode: c.facts() for c in self._model.objects.filter(passcode__in=wanted)}

    def resolve(self, name: str) -> CardFacts | None:
        return self.resolve_many([name])[name]

    def resolve_many(self, names: Iterable[str]) -> dict[str, CardFacts | None]:
        """``resolve`` of each name: the names looked up in the process's name table, then the full rows
        of the cards found in one statement (one statement per card made a 60-card list cost 60)."""
        memory = self._table().memory
        found = {name: memory.resolve(name) for name in names}
        rows = self.facts(card.passcode for card in found.values() if card is not None)
        return {name: rows.get(card.passcode) if card is not None else None for name, card in found.items()}

    def find(self, query: str, limit: int = 20) -> list[CardFacts]:
        """As ``MemoryCardIndex.find``, over the process's name table (katakana and hiragana folded,
        which the stored keys are not), then the full rows of the hits from the database."""
        key = name_key(query)
        if key.isdigit():
            exact = self.get(int(key))
            if exact:
                return [exact]
        hits = [c.passcode for c in self._table().memory.find(query, limit)]
        rows = self.facts(hits)
        return [rows[p] for p in hits if p in rows]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        return self._table().memory.suggest(name, limit)

    def warm(self) -> None:
        """Load the process's name table and its suggesters (a web process starting): the first deck list
        sent took about a second of a core for them, and every report that process served waited."""
        self._table().memory.warm()
