"""Checking a deck list without writing: read it, resolve its names, apply the rules.

Pure apart from the card index it is given (``MemoryCardIndex`` needs no database), so the CLI checks
files without Django and services run it before opening a write transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from taikai.cards.deck_formats import OMEGA, YDK, read_deck
from taikai.cards.formats import sort_ydk, sorted_ydk_sheet
from taikai.cards.index import CardIndex
from taikai.core.deck import Banlist, CardFacts, Deck, check_deck
from taikai.core.problems import Problem
from taikai.core.ruleset import DeckRules, Ruleset


@dataclass(frozen=True)
class ResolvedDeck:
    """A list read and its names resolved: what can be done before any write transaction opens."""

    deck: Deck
    problems: tuple[Problem, ...]  # names not found, headings whose count disagrees
    notes: tuple[Problem, ...]  # what reading changed (extra-deck monsters moved out of a .ydk main deck)
    cards: dict[int, CardFacts]
    format: str


def resolve_deck_text(text: str, index: CardIndex | None = None, filename: str = "") -> ResolvedDeck:
    """Any deck format as a player pastes or uploads it -> the deck, its card facts and the names that
    were not found. Reads the card table, writes nothing.

    Raises ``DeckFormatError`` for input that cannot be read at all."""
    if index is None:
        from taikai.cards.index import DbCardIndex

        index = DbCardIndex()
    sheet = read_deck(text, index, filename)
    if sheet.format == YDK.name:
        sheet = sorted_ydk_sheet(sheet, index)
    elif sheet.format == OMEGA.name:
        sheet = replace(sheet, deck=sort_ydk(sheet.deck, index))  # one list: EDOPro sorts it by card type
    problems = tuple(u.problem() for u in sheet.unknown) + sheet.problems
    cards = index.facts(sheet.deck.all_cards())
    return ResolvedDeck(sheet.deck, problems, sheet.notes, cards, sheet.format)


@dataclass(frozen=True)
class DeckCheck:
    """What a deck-registration page needs after a player submits a list."""

    deck: Deck
    problems: tuple[Problem, ...]
    cards: dict[int, CardFacts]
    notes: tuple[Problem, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """The ``taikai deck check --json`` shape."""
        return {
            "legal": self.legal,
            "counts": self.deck.counts(),
            "problems": [p.as_dict() for p in self.problems],
            "notes": [p.as_dict() for p in self.notes],
        }


def check_resolved(
    resolved: ResolvedDeck,
    *,
    ruleset: Ruleset | DeckRules,
    banlist: Banlist | None,
    event_date: date | None,
) -> DeckCheck:
    """The rules applied to a resolved list: pure and fast, so it may run inside a transaction."""
    problems = list(resolved.problems) + check_deck(resolved.deck, resolved.cards, banlist, ruleset, event_date)
    return DeckCheck(resolved.deck, tuple(problems), resolved.cards, resolved.notes)
