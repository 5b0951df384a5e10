"""The sample deck on the real card data and the July 2026 OCG list; a deck broken in each way."""

from __future__ import annotations

from datetime import date

import pytest

from taikai.cards.formats import read_ydk
from taikai.cards.index import MemoryCardIndex
from taikai.cards.lflist import parse_lflist
from taikai.cards.sources import read_cdb
from taikai.core import ruleset as rs
from taikai.core.deck import Banlist, Deck, check_deck
from tests.factories import CDB_2020, LFLIST_OCG, SAMPLE_YDK

SHEEP_TOKEN = 73915052  # the 2026 files carry no tokens; the 2020 Project Ignis file does
TCG_ONLY = 11876803  # Lunalight Scarlet Tiger: ot = 2 (TCG only) in cards-en-2026-08.cdb
SAMPLE = read_ydk(SAMPLE_YDK.read_text("utf-8"))


@pytest.fixture(scope="module")
def ocg() -> Banlist:
    return parse_lflist(LFLIST_OCG.read_text("utf-8"))[0].banlist()


def check(deck: Deck, index: MemoryCardIndex, banlist: Banlist, ruleset: str = "modern") -> list[dict[str, object]]:
    cards = index.facts(deck.all_cards())
    if SHEEP_TOKEN in deck.all_cards():
        cards[SHEEP_TOKEN] = next(c.facts() for c in read_cdb(CDB_2020) if c.passcode == SHEEP_TOKEN)
    return [p.as_dict() for p in check_deck(deck, cards, banlist, rs.builtin(ruleset), date(2026, 8, 1))]


def test_sample_deck_is_legal_under_the_july_2026_list_with_modern(index: MemoryCardIndex, ocg: Banlist) -> None:
    assert check(SAMPLE, index, ocg) == []


def test_under_dkt_2011_its_two_link_monsters_are_refused(index: MemoryCardIndex, ocg: Banlist) -> None:  # DECK-2
    assert [(p["code"], p["card"]) for p in check(SAMPLE, index, ocg, "dkt-2011")] == [
        ("not-extra-deck-card", 1861629),
        ("not-extra-deck-card", 86066372),
    ]


def replace_main(deck: Deck, old: int, new: int, n: int = 1) -> Deck:
    main = list(deck.main)
    for _ in range(n):
        main[main.index(old)] = new
    return Deck(tuple(main), deck.extra, deck.side)


# Unlimited spells and traps, three each.
SPELLS_AND_TRAPS = tuple(
    p for p in (44656491, 72302403, 40619825, 22702055, 55761792, 44095762, 53582587) for _ in "123"
)

BROKEN = {
    # DECK-1
    "main-too-small": lambda d: Deck(d.main[:39], d.extra, d.side),
    "main-too-large": lambda d: Deck(d.main + SPELLS_AND_TRAPS[:21], d.extra, d.side),
    # DECK-2
    "extra-too-large": lambda d: Deck(
        d.main, d.extra + (65741786, 44508094, 44508094, 73580471, 73580471, 84815190), d.side
    ),
    "extra-deck-monster-in-main": lambda d: replace_main(d, 5318639, 44508094),
    "not-extra-deck-card": lambda d: Deck(d.main, d.extra[:-1] + (5318639,), d.side),
    # DECK-3
    "side-too-large": lambda d: Deck(
        d.main, d.extra, d.side + (97077563,) * 3 + (44095762,) * 3 + (53582587,) * 3 + (72302403,) * 3 + (40619825,)
    ),
    # DECK-5: a fourth Dark Magician as its alternate artwork
    "too-many-copies": lambda d: replace_main(d, 5318639, 36996508),
    # DECK-4
    "forbidden": lambda d: replace_main(d, 5318639, 55144522),  # Pot of Greed
    # Monster Reborn and its alternate artwork
    "limited": lambda d: replace_main(replace_main(d, 12580477, 83764718), 5318639, 83764719),
    "semi-limited": lambda d: replace_main(d, 5318639, 14558127),  # a third Ash Blossom
    "token": lambda d: replace_main(d, 5318639, SHEEP_TOKEN),
    "unknown-card": lambda d: replace_main(d, 5318639, 99999999),
    # DECK-6
    "not-ocg": lambda d: replace_main(d, 5318639, TCG_ONLY),
}


@pytest.mark.parametrize("code", sorted(BROKEN))
def test_a_deck_broken_one_way_gets_exactly_that_code(
    code: str, index: MemoryCardIndex, ocg: Banlist
) -> None:  # DECK-1 DECK-2 DECK-3 DECK-4 DECK-5 DECK-6
    assert [p["code"] for p in check(BROKEN[code](SAMPLE), index, ocg)] == [code]


def test_semi_limited_third_copy_in_the_side_names_the_side(index: MemoryCardIndex, ocg: Banlist) -> None:  # DECK-4
    deck = Deck(SAMPLE.main[:-1] + (14558127,), SAMPLE.extra, SAMPLE.side)
    [problem] = check(deck, index, ocg)
    assert problem == {
        "code": "semi-limited",
        "card": 14558127,
        "name": "Ash Blossom & Joyous Spring",
        "section": "side",
        "count": 3,
        "limit": 2,
    }
