"""What a card file is as of, and what an older file may still change (issue 22: card data never rolls back).

Each format carries its date differently: a YGOPRODeck document has its cards' release dates (``misc_info``),
an ``lflist.conf`` list has its date in its name (``!2026.07 OCG``), and a ``cards.cdb`` has no date at all, so
it is dated by the release dates known for the cards it holds. A file is as of its newest date up to today
(an announced card's future release date says nothing about when the file was made).

A file older than what is stored adds what is missing (new cards, an empty name or release date) and replaces
nothing, unless the organizer asks for it (``allow_older``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from taikai.cards.sources import CardData


def newest(dates: Iterable[date | None], today: date) -> date | None:
    """The latest of ``dates`` that is not after ``today`` (None when there is none)."""
    return max((d for d in dates if d is not None and d <= today), default=None)


@dataclass(frozen=True)
class Dating:
    """An import's date against the stored data's. ``basis`` says where the file's date comes from:
    "cards" (the release dates of a cards.cdb's cards), "document" (a YGOPRODeck document) or "name"."""

    edition: date | None
    stored: date | None
    basis: str
    allow_older: bool = False

    @property
    def older(self) -> bool:
        return self.edition is not None and self.stored is not None and self.edition < self.stored

    @property
    def holds_back(self) -> bool:
        return self.older and not self.allow_older

    def as_dict(self) -> dict[str, Any]:
        return {
            "edition": self.edition.isoformat() if self.edition else None,
            "stored_edition": self.stored.isoformat() if self.stored else None,
            "edition_basis": self.basis,
            "older": self.older,
            "allow_older": self.allow_older,
        }


def fill_only(stored: CardData, incoming: CardData) -> CardData:
    """What an older file may change on a stored card: the names and release date it lacks, nothing else."""
    return replace(
        stored,
        name_en=stored.name_en or incoming.name_en,
        name_ja=stored.name_ja or incoming.name_ja,
        ocg_date=stored.ocg_date or incoming.ocg_date,
    )


def limit_changes(old: dict[int, int], new: dict[int, int]) -> list[tuple[int, int | None, int | None]]:
    """Every entry whose limit differs, as (passcode, stored limit, file's limit); None: not on the list."""
    return [(p, old.get(p), new.get(p)) for p in sorted(old.keys() | new.keys()) if old.get(p) != new.get(p)]
