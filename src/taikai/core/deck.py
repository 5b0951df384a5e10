"""Deck legality (デッキ構築のルール): DECK-1 to DECK-8 and DECK-11 as pure functions.

Everything comes in as frozen data: the deck (passcodes per section), the card facts, the
Forbidden/Limited list in force and the ruleset's deck rules. The answer is a list of
``Problem(code, card=..., name=..., section=..., count=..., limit=...)``; an empty list is a legal deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any

from taikai.core.problems import Problem
from taikai.core.ruleset import DeckRules, Ruleset

SECTIONS = ("main", "extra", "side")

# YGOPro ``datas.type`` bits.
MONSTER = 0x1
SPELL = 0x2
TRAP = 0x4
NORMAL = 0x10
EFFECT = 0x20
FUSION = 0x40
RITUAL = 0x80
TUNER = 0x1000
SYNCHRO = 0x2000
TOKEN = 0x4000
XYZ = 0x800000
PENDULUM = 0x1000000
LINK = 0x4000000

_KIND_BITS = (
    ("monster", MONSTER),
    ("spell", SPELL),
    ("trap", TRAP),
    ("normal", NORMAL),
    ("effect", EFFECT),
    ("fusion", FUSION),
    ("ritual", RITUAL),
    ("tuner", TUNER),
    ("synchro", SYNCHRO),
    ("token", TOKEN),
    ("xyz", XYZ),
    ("pendulum", PENDULUM),
    ("link", LINK),
)
# The kinds that make a monster an extra-deck monster (エクストラデッキのモンスター).
EXTRA_KINDS = ("fusion", "synchro", "xyz", "link")

# ``datas.ot`` bits: which regions print the card.
OT_OCG = 0x1
OT_TCG = 0x2
# EDOPro/BabelCDB scope bits a card never legal in an official event carries (DECK-7): announced but
# not yet released (pre-release, e.g. ``prerelease-*.cdb``: ot 0x101), anime/custom/Rush cards.
OT_PRERELEASE = 0x100
OT_UNOFFICIAL = 0x4 | 0x20 | 0x200  # anime (ygopro: custom), custom, Rush Duel
_REGION_BITS = {"ocg": OT_OCG, "tcg": OT_TCG, "korean": OT_OCG}  # Korean OCG prints the OCG card pool

LIMIT_CODES = {0: "forbidden", 1: "limited", 2: "semi-limited"}


@dataclass(frozen=True)
class CardFacts:
    """What deck legality needs to know about one card (one passcode)."""

    passcode: int
    alias: int = 0
    type: int = 0
    ot: int = OT_OCG
    ocg_date: date | None = None
    name_en: str = ""
    name_ja: str = ""

    @classmethod
    def of(cls, card: Any) -> CardFacts:
        """The facts of any card record that names them alike (a card file's record, the card table's row)."""
        return cls(**{name: getattr(card, name) for name in _FACT_NAMES})

    @property
    def kinds(self) -> frozenset[str]:
        return frozenset(kind for kind, bit in _KIND_BITS if self.type & bit)

    @property
    def copy_key(self) -> int:
        """Alternate artworks and "always treated as" cards share their alias's name (DECK-5)."""
        return self.alias or self.passcode

    @property
    def is_token(self) -> bool:
        return bool(self.type & TOKEN)

    @property
    def extra_kind(self) -> str | None:
        """fusion/synchro/xyz/link for an extra-deck monster, None for anything else."""
        if not self.type & MONSTER:
            return None
        for kind in ("link", "xyz", "synchro", "fusion"):
            if kind in self.kinds:
                return kind
        return None

    def name(self, lang: str = "en") -> str:
        if lang == "ja":
            return self.name_ja or self.name_en
        return self.name_en or self.name_ja


_FACT_NAMES = tuple(f.name for f in fields(CardFacts))


@dataclass(frozen=True)
class Deck:
    """Passcodes in deck order, one entry per physical card."""

    main: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    side: tuple[int, ...] = ()

    def section(self, name: str) -> tuple[int, ...]:
        if name not in SECTIONS:
            raise ValueError(name)
        return tuple(getattr(self, name))

    def counts(self) -> dict[str, int]:
        return {s: len(self.section(s)) for s in SECTIONS}

    def all_cards(self) -> tuple[int, ...]:
        return self.main + self.extra + self.side


@dataclass(frozen=True)
class Banlist:
    """A Forbidden/Limited list (禁止・制限リスト): passcode -> 0, 1 or 2 (3 means unlimited).

    A whitelist (EDOPro ``$whitelist``) forbids every card it does not name.
    """

    name: str
    entries: Mapping[int, int] = field(default_factory=dict)
    whitelist: bool = False

    def limit_for(self, card: CardFacts) -> tuple[int, int] | None:
        """(limit, passcode of the entry) applying to ``card``: its own passcode first, then its alias."""
        for code in (card.passcode, card.alias):
            if code and code in self.entries:
                return self.entries[code], code
        if self.whitelist:
            return 0, card.passcode
        return None


def check_deck(
    deck: Deck,
    cards: Mapping[int, CardFacts],
    banlist: Banlist | None,
    ruleset: Ruleset | DeckRules,
    event_date: date | None = None,
) -> list[Problem]:
    """Every reason ``deck`` may not be played; [] means legal."""
    rules = ruleset.deck if isinstance(ruleset, Ruleset) else ruleset
    problems = _size_problems(deck, rules)
    problems += _card_problems(deck, cards, rules, event_date)
    problems += _copy_problems(deck, cards, banlist, rules)
    return problems


def _size_problems(deck: Deck, rules: DeckRules) -> list[Problem]:
    bounds = (
        ("main", rules.main_min, rules.main_max),  # DECK-1
        ("extra", rules.extra_min, rules.extra_max),  # DECK-2
        ("side", rules.side_min, rules.side_max),  # DECK-3
    )
    problems = []
    for section, low, high in bounds:
        count = len(deck.section(section))
        if count < low:
            problems.append(Problem(f"{section}-too-small", section=section, count=count, limit=low))
        elif count > high:
            problems.append(Problem(f"{section}-too-large", section=section, count=count, limit=high))
    return problems


def _card_problems(
    deck: Deck, cards: Mapping[int, CardFacts], rules: DeckRules, event_date: date | None
) -> list[Problem]:
    problems = []
    for section in SECTIONS:
        for passcode, count in Counter(deck.section(section)).items():
            card = cards.get(passcode)
            if card is None:
                problems.append(Problem("unknown-card", card=passcode, name="", section=section, count=count))
                continue
            code = _card_code(card, section, rules, event_date)
            if code is None:
                continue
            params = {"card": passcode, "name": card.name(), "section": section, "count": count}
            if code == "not-yet-released" and card.ocg_date is not None:
                params["date"] = card.ocg_date.isoformat()
            problems.append(Problem(code, **params))
    return problems


def _card_code(card: CardFacts, section: str, rules: DeckRules, event_date: date | None) -> str | None:
    """The first rule ``card`` breaks in ``section``, or None."""
    if card.is_token:
        return "token"
    extra_kind = card.extra_kind
    if section == "main" and extra_kind is not None:
        return "extra-deck-monster-in-main"  # DECK-2: the extra deck holds these, never the main deck
    if section == "extra" and extra_kind not in rules.extra_deck_kinds:
        return "not-extra-deck-card"  # DECK-2: e.g. Link monsters under dkt-2011
    if section == "side" and extra_kind is not None and extra_kind not in rules.extra_deck_kinds:
        return "not-extra-deck-card"  # a side card must fit the main or extra deck once swapped in
    if card.ot & OT_PRERELEASE:
        return "pre-release"  # DECK-7: magazine information before release is invalid
    if card.ot & OT_UNOFFICIAL:
        return "unofficial-card"  # DECK-7/DECK-6: never printed as a legal card
    if not any(card.ot & _REGION_BITS.get(region, 0) for region in rules.legal_regions):
        return "not-ocg"  # DECK-6
    if rules.enforce_release_date and event_date and card.ocg_date and card.ocg_date > event_date:
        return "not-yet-released"  # DECK-7
    return None


def _copy_problems(
    deck: Deck, cards: Mapping[int, CardFacts], banlist: Banlist | None, rules: DeckRules
) -> list[Problem]:
    """DECK-4 and DECK-5, counted across main + extra + side together."""
    groups: dict[int, list[tuple[str, CardFacts]]] = {}
    for section in SECTIONS:
        for passcode in deck.section(section):
            card = cards.get(passcode)
            if card is not None and not card.is_token:
                groups.setdefault(card.copy_key, []).append((section, card))
    problems = []
    for key, copies in groups.items():
        limit, entry, code = rules.copy_limit, key, "too-many-copies"
        if banlist is not None:
            for _, card in copies:
                found = banlist.limit_for(card)
                if found is not None and found[0] < limit:
                    limit, entry = found
                    code = LIMIT_CODES[limit]
        if len(copies) <= limit:
            continue
        section = copies[limit][0]  # where the count first goes over the limit
        name = cards[entry].name() if entry in cards else copies[0][1].name()
        problems.append(Problem(code, card=entry, name=name, section=section, count=len(copies), limit=limit))
    return problems


def check_side_swap(registered: Deck, played: Deck) -> list[Problem]:
    """DECK-11: between duels cards move only between the registered deck and its side deck,
    and the main and extra deck keep their registered sizes."""
    problems = []
    if Counter(registered.all_cards()) != Counter(played.all_cards()):
        problems.append(Problem("swap-changed-cards"))
    for section in ("main", "extra"):
        before, after = len(registered.section(section)), len(played.section(section))
        if before != after:
            problems.append(Problem("swap-changed-count", section=section, count=after, limit=before))
    return problems


def check_languages(languages: Iterable[str]) -> list[Problem]:
    """DECK-8: a deck mixing card languages must be played in opaque protectors; flag it for the desk."""
    found = sorted({lang.strip().lower() for lang in languages if lang.strip()})
    if len(found) > 1:
        return [Problem("mixed-languages", languages=found)]
    return []
