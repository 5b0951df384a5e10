"""A registered list laid out for people: the deck sheet (デッキ記入シート), the judge's deck-check
order, and problems as sentences in the reader's language."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from taikai.cards.index import DbCardIndex
from taikai.cards.texts import describe
from taikai.core.deck import MONSTER, SECTIONS, SPELL, TRAP, CardFacts
from taikai.core.problems import Problem
from taikai.decks.models import DeckRegistration, RejectedDeckList

ListSent = DeckRegistration | RejectedDeckList

# How a judge counts a physical deck: monsters, spells, traps; the extra deck by kind.
GROUP_ORDER = ("monster", "spell", "trap", "fusion", "synchro", "xyz", "link", "unknown")


@dataclass(frozen=True)
class Line:
    count: int
    passcode: int
    name_ja: str
    name_en: str
    group: str


@dataclass
class Group:
    name: str
    lines: list[Line] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(line.count for line in self.lines)


@dataclass
class Section:
    name: str  # main, extra or side
    groups: list[Group]

    @property
    def count(self) -> int:
        return sum(g.count for g in self.groups)

    @property
    def lines(self) -> list[Line]:
        return [line for g in self.groups for line in g.lines]


def card_facts(registration: ListSent) -> dict[int, CardFacts]:
    return DbCardIndex().facts(registration.deck.all_cards())


def group_of(card: CardFacts | None) -> str:
    if card is None:
        return "unknown"
    if card.type & MONSTER:
        return card.extra_kind or "monster"
    if card.type & SPELL:
        return "spell"
    if card.type & TRAP:
        return "trap"
    return "unknown"


def _sort_key(line: Line) -> tuple[str, int]:
    # Japanese names in code-point order keep katakana and kanji runs together, which is how a judge
    # looks a name up on a list; NFKC so full-width and half-width sort as one.
    return (unicodedata.normalize("NFKC", line.name_ja or line.name_en).casefold(), line.passcode)


def sections(registration: ListSent, cards: dict[int, CardFacts], *, sort_for_check: bool = False) -> list[Section]:
    """The list by section and kind. The sheet keeps the player's order within a kind; the deck-check
    view sorts by name so a judge can count a physical deck card by card."""
    out = []
    for section in SECTIONS:
        passcodes = registration.deck.section(section)
        lines = [_line(p, n, cards.get(p)) for p, n in Counter(passcodes).items()]
        groups = {g: Group(g) for g in GROUP_ORDER}
        for line in lines:
            groups[line.group].lines.append(line)
        if sort_for_check:
            for group in groups.values():
                group.lines.sort(key=_sort_key)
        out.append(Section(section, [g for g in groups.values() if g.lines]))
    return out


def _line(passcode: int, count: int, card: CardFacts | None) -> Line:
    if card is None:
        return Line(count, passcode, "", "", "unknown")
    return Line(count, passcode, card.name_ja or card.name_en, card.name_en, group_of(card))


def problem_texts(problems: Iterable[dict[str, object]], cards: dict[int, CardFacts], lang: str) -> list[str]:
    """Stored problems (``taikai deck check --json`` dicts) as sentences in ``lang``."""
    out = []
    for raw in problems:
        params = {k: v for k, v in raw.items() if k != "code"}
        out.append(describe(Problem(str(raw["code"]), **params), lang, cards))
    return out
