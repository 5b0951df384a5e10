"""Deck legality, rule by rule (RULES.md DECK-*). Card facts are real passcodes and type bits."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taikai.core import ruleset as rs
from taikai.core.deck import (
    Banlist,
    CardFacts,
    Deck,
    check_deck,
    check_languages,
    check_side_swap,
)
from taikai.core.problems import Problem

MODERN = rs.builtin("modern")
DKT = rs.builtin("dkt-2011")

DARK_MAGICIAN = CardFacts(46986414, type=0x11, ot=3, name_en="Dark Magician", name_ja="ブラック・マジシャン")
DARK_MAGICIAN_ALT = replace(DARK_MAGICIAN, passcode=36996508, alias=46986414)
BLUE_EYES = CardFacts(89631139, type=0x11, ot=3, name_en="Blue-Eyes White Dragon")
SUMMONED_SKULL = CardFacts(70781052, type=0x11, ot=3, name_en="Summoned Skull")
HARPIE = CardFacts(76812113, type=0x11, ot=3, name_en="Harpie Lady")
HARPIE_1 = CardFacts(91932350, alias=76812113, type=0x21, ot=3, name_en="Harpie Lady 1")
ASH = CardFacts(14558127, type=0x1021, ot=3, name_en="Ash Blossom & Joyous Spring")
ASH_ALT = replace(ASH, passcode=14558128, alias=14558127)
MONSTER_REBORN = CardFacts(83764718, type=0x2, ot=3, name_en="Monster Reborn")
POT_OF_GREED = CardFacts(55144522, type=0x2, ot=3, name_en="Pot of Greed")
APOLLOUSA = CardFacts(4280258, type=0x4000021, ot=3, name_en="Apollousa, Bow of the Goddess")
APOLLOUSA_ALT = replace(APOLLOUSA, passcode=4280259, alias=4280258)
BLUE_EYES_ULTIMATE = CardFacts(23995346, type=0x41, ot=3, name_en="Blue-Eyes Ultimate Dragon")
STARDUST = CardFacts(44508094, type=0x2021, ot=3, name_en="Stardust Dragon")
UTOPIA = CardFacts(84013237, type=0x800021, ot=3, name_en="Number 39: Utopia")
DECODE_TALKER = CardFacts(1861629, type=0x4000021, ot=3, name_en="Decode Talker")
Z_ARC = CardFacts(13331639, type=0x1000061, ot=3, name_en="Supreme King Z-ARC")
ODD_EYES = CardFacts(16178681, type=0x1000021, ot=3, name_en="Odd-Eyes Pendulum Dragon")
TOKEN = CardFacts(73915052, type=0x4011, ot=3, name_en="Sheep Token")
TCG_ONLY = CardFacts(12345678, type=0x21, ot=2, name_en="A TCG-only card")
FILLERS = [CardFacts(10_000_000 + i, type=0x11, ot=3, name_en=f"Filler {i}") for i in range(30)]

CARDS = {
    c.passcode: c
    for c in [
        DARK_MAGICIAN,
        DARK_MAGICIAN_ALT,
        BLUE_EYES,
        SUMMONED_SKULL,
        HARPIE,
        HARPIE_1,
        ASH,
        ASH_ALT,
        MONSTER_REBORN,
        POT_OF_GREED,
        APOLLOUSA,
        APOLLOUSA_ALT,
        BLUE_EYES_ULTIMATE,
        STARDUST,
        UTOPIA,
        DECODE_TALKER,
        Z_ARC,
        ODD_EYES,
        TOKEN,
        TCG_ONLY,
        *FILLERS,
    ]
}
OCG_2026_07 = Banlist(
    "2026.07 OCG",
    {14558127: 2, 14558128: 2, 83764718: 1, 55144522: 0, 4280258: 0, 4280259: 0},
)
EXTRA = (BLUE_EYES_ULTIMATE.passcode, STARDUST.passcode, UTOPIA.passcode)


def main_of(*extra: int, size: int = 40) -> tuple[int, ...]:
    """``extra`` first, then three of each filler up to ``size`` cards."""
    fill = [f.passcode for f in FILLERS for _ in range(3)]
    return tuple(extra) + tuple(fill[: size - len(extra)])


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def check(
    deck: Deck, ruleset: rs.Ruleset = MODERN, banlist: Banlist | None = OCG_2026_07, event_date: date | None = None
) -> list[Problem]:
    return check_deck(deck, CARDS, banlist, ruleset, event_date)


def test_a_40_card_deck_with_a_legal_extra_and_side_is_legal() -> None:
    assert check(Deck(main_of(), EXTRA, (ASH.passcode, ASH_ALT.passcode))) == []


# --- sizes ---------------------------------------------------------------------------------------


def test_39_card_main_deck_is_too_small() -> None:  # DECK-1
    problems = check(Deck(main_of(size=39)))
    assert [p.as_dict() for p in problems] == [{"code": "main-too-small", "section": "main", "count": 39, "limit": 40}]


def test_60_cards_are_fine_and_61_are_too_many() -> None:  # DECK-1
    sixty = main_of(size=60)
    assert check(Deck(sixty)) == []
    assert codes(check(Deck((*sixty, BLUE_EYES.passcode)))) == ["main-too-large"]


def test_16_card_extra_deck_is_too_large() -> None:  # DECK-2
    extra = (STARDUST.passcode,) * 3 + tuple(
        c.passcode for c in [BLUE_EYES_ULTIMATE, UTOPIA, DECODE_TALKER, Z_ARC] for _ in range(3)
    )
    extra += (APOLLOUSA.passcode,)
    problems = check(Deck(main_of(), extra), banlist=None)
    assert [p.as_dict() for p in problems] == [
        {"code": "extra-too-large", "section": "extra", "count": 16, "limit": 15}
    ]


def test_16_card_side_deck_is_too_large() -> None:  # DECK-3
    side = tuple(f.passcode for f in FILLERS[20:26] for _ in range(2)) + (BLUE_EYES.passcode,) * 3
    side += (SUMMONED_SKULL.passcode,)
    assert codes(check(Deck(main_of(size=30), (), side))) == ["main-too-small", "side-too-large"]
    assert codes(check(Deck(main_of(), (), side))) == ["side-too-large"]


# --- extra deck ----------------------------------------------------------------------------------


def test_link_monsters_are_refused_in_the_extra_deck_under_dkt_2011() -> None:  # DECK-2
    deck = Deck(main_of(), (*EXTRA, DECODE_TALKER.passcode))
    assert check(deck, MODERN) == []
    problems = check(deck, DKT)
    assert [p.as_dict() for p in problems] == [
        {"code": "not-extra-deck-card", "card": 1861629, "name": "Decode Talker", "section": "extra", "count": 1}
    ]


def test_pendulum_fusion_belongs_in_the_extra_deck_and_main_deck_pendulum_in_the_main() -> None:  # DECK-2
    assert check(Deck(main_of(ODD_EYES.passcode), (Z_ARC.passcode,))) == []
    assert codes(check(Deck(main_of(), (ODD_EYES.passcode,)))) == ["not-extra-deck-card"]


def test_a_spell_in_the_extra_deck_is_refused() -> None:  # DECK-2
    assert codes(check(Deck(main_of(), (MONSTER_REBORN.passcode,)))) == ["not-extra-deck-card"]


def test_an_extra_deck_monster_in_the_main_deck_is_refused() -> None:  # DECK-2
    problems = check(Deck(main_of(STARDUST.passcode)))
    assert [p.as_dict() for p in problems] == [
        {
            "code": "extra-deck-monster-in-main",
            "card": 44508094,
            "name": "Stardust Dragon",
            "section": "main",
            "count": 1,
        }
    ]


def test_extra_deck_monsters_are_allowed_in_the_side_deck() -> None:  # DECK-3
    assert check(Deck(main_of(), (), (STARDUST.passcode, DECODE_TALKER.passcode))) == []


def test_a_side_deck_link_monster_is_refused_where_links_cannot_be_played() -> None:  # DECK-2
    assert codes(check(Deck(main_of(), (), (DECODE_TALKER.passcode,)), DKT)) == ["not-extra-deck-card"]


def test_tokens_are_never_legal() -> None:
    for deck in (Deck(main_of(TOKEN.passcode)), Deck(main_of(), (TOKEN.passcode,)), Deck(main_of(), (), (73915052,))):
        assert codes(check(deck)) == ["token"]


def test_an_unknown_passcode_is_reported_with_its_section() -> None:
    problems = check(Deck(main_of(99999999, 99999999)))
    assert [p.as_dict() for p in problems] == [
        {"code": "unknown-card", "card": 99999999, "name": "", "section": "main", "count": 2}
    ]


# --- copies and the F/L list ---------------------------------------------------------------------


def test_four_copies_of_a_name_are_too_many() -> None:  # DECK-5
    deck = Deck(main_of(*[BLUE_EYES.passcode] * 3), (), (BLUE_EYES.passcode,))
    assert [p.as_dict() for p in check(deck)] == [
        {
            "code": "too-many-copies",
            "card": 89631139,
            "name": "Blue-Eyes White Dragon",
            "section": "side",
            "count": 4,
            "limit": 3,
        }
    ]


def test_alternate_artworks_share_the_name_for_the_three_copy_limit() -> None:  # DECK-5
    deck = Deck(main_of(*[DARK_MAGICIAN.passcode] * 2, *[DARK_MAGICIAN_ALT.passcode] * 2))
    problems = check(deck)
    assert codes(problems) == ["too-many-copies"]
    assert problems[0].params["card"] == DARK_MAGICIAN.passcode
    assert problems[0].params["count"] == 4


def test_always_treated_as_cards_share_the_name() -> None:  # DECK-5
    deck = Deck(main_of(*[HARPIE.passcode] * 3, HARPIE_1.passcode))
    assert codes(check(deck)) == ["too-many-copies"]


def test_forbidden_card_may_not_be_played_even_in_the_side_deck() -> None:  # DECK-4
    problems = check(Deck(main_of(), (), (POT_OF_GREED.passcode,)))
    assert [p.as_dict() for p in problems] == [
        {"code": "forbidden", "card": 55144522, "name": "Pot of Greed", "section": "side", "count": 1, "limit": 0}
    ]


def test_two_copies_of_a_limited_card_across_main_and_side() -> None:  # DECK-4
    deck = Deck(main_of(MONSTER_REBORN.passcode), (), (MONSTER_REBORN.passcode,))
    problems = check(deck)
    assert codes(problems) == ["limited"]
    assert problems[0].params | {} == {
        "card": 83764718,
        "name": "Monster Reborn",
        "section": "side",
        "count": 2,
        "limit": 1,
    }


def test_three_semi_limited_with_an_alternate_artwork_in_the_side() -> None:  # DECK-4
    deck = Deck(main_of(ASH.passcode, ASH.passcode), (), (ASH_ALT.passcode,))
    problems = check(deck)
    assert [p.as_dict() for p in problems] == [
        {
            "code": "semi-limited",
            "card": 14558127,
            "name": "Ash Blossom & Joyous Spring",
            "section": "side",
            "count": 3,
            "limit": 2,
        }
    ]


def test_an_entry_applies_by_own_passcode_before_the_alias() -> None:  # DECK-4
    # The list limits the alternate artwork itself more strictly than the original.
    banlist = Banlist("own-first", {ASH.passcode: 2, ASH_ALT.passcode: 1})
    assert codes(check(Deck(main_of(ASH.passcode, ASH_ALT.passcode)), banlist=banlist)) == ["limited"]
    # With no own entry, the alias's entry applies.
    banlist = Banlist("alias", {APOLLOUSA.passcode: 0})
    problems = check(Deck(main_of(), (APOLLOUSA_ALT.passcode,)), banlist=banlist)
    assert [(p.code, p.params["card"]) for p in problems] == [("forbidden", APOLLOUSA.passcode)]


def test_a_whitelist_forbids_every_card_it_does_not_name() -> None:  # DECK-4
    allowed = {c.passcode: 3 for c in FILLERS}
    deck = Deck(main_of(BLUE_EYES.passcode))
    problems = check(deck, banlist=Banlist("wl", allowed, whitelist=True))
    assert [(p.code, p.params["card"]) for p in problems] == [("forbidden", BLUE_EYES.passcode)]


def test_without_a_list_only_the_three_copy_limit_applies() -> None:  # DECK-5
    deck = Deck(main_of(POT_OF_GREED.passcode, MONSTER_REBORN.passcode, MONSTER_REBORN.passcode))
    assert check(deck, banlist=None) == []


# --- region and release date ---------------------------------------------------------------------


def test_a_tcg_only_card_is_refused() -> None:  # DECK-6
    assert codes(check(Deck(main_of(TCG_ONLY.passcode)))) == ["not-ocg"]


def test_a_ruleset_allowing_tcg_accepts_it() -> None:  # DECK-6
    rules = replace(MODERN.deck, legal_regions=("ocg", "tcg"))
    assert check_deck(Deck(main_of(TCG_ONLY.passcode)), CARDS, None, rules) == []


def test_a_card_is_legal_only_from_its_ocg_release_date() -> None:  # DECK-7
    new = CardFacts(11111111, type=0x21, ot=1, ocg_date=date(2026, 8, 1), name_en="New card")
    cards = {**CARDS, new.passcode: new}
    deck = Deck(main_of(new.passcode))
    before = check_deck(deck, cards, None, MODERN, date(2026, 7, 31))
    assert [p.as_dict() for p in before] == [
        {
            "code": "not-yet-released",
            "card": 11111111,
            "name": "New card",
            "section": "main",
            "count": 1,
            "date": "2026-08-01",
        }
    ]
    assert check_deck(deck, cards, None, MODERN, date(2026, 8, 1)) == []
    assert check_deck(deck, cards, None, MODERN, None) == []  # no event date: nothing to compare


def test_release_dates_are_ignored_when_the_ruleset_says_so() -> None:  # DECK-7
    new = CardFacts(11111111, type=0x21, ot=1, ocg_date=date(2026, 8, 1), name_en="New card")
    rules = replace(MODERN.deck, enforce_release_date=False)
    assert check_deck(Deck(main_of(new.passcode)), {**CARDS, new.passcode: new}, None, rules, date(2020, 1, 1)) == []


# --- DECK-8, DECK-11 -----------------------------------------------------------------------------


def test_mixed_card_languages_are_flagged_for_the_check_in_desk() -> None:  # DECK-8
    assert check_languages(["ja", "ja"]) == []
    assert [p.as_dict() for p in check_languages(["ja", "EN", "ja"])] == [
        {"code": "mixed-languages", "languages": ["en", "ja"]}
    ]


def test_side_swap_keeps_main_and_extra_counts() -> None:  # DECK-11
    registered = Deck(main_of(), EXTRA, (ASH.passcode, STARDUST.passcode))
    main = list(registered.main)
    swapped_main = (ASH.passcode, *main[1:])
    ok = Deck(swapped_main, EXTRA, (main[0], STARDUST.passcode))
    assert check_side_swap(registered, ok) == []
    # Swap the side's Stardust for a main card: main shrinks, extra grows.
    bad = Deck(tuple(main[1:]), (*EXTRA, STARDUST.passcode), (ASH.passcode, main[0]))
    assert codes(check_side_swap(registered, bad)) == ["swap-changed-count", "swap-changed-count"]
    foreign = Deck((BLUE_EYES.passcode, *main[1:]), EXTRA, registered.side)
    assert codes(check_side_swap(registered, foreign)) == ["swap-changed-cards"]


@given(st.lists(st.sampled_from(sorted(CARDS)), max_size=80), st.lists(st.sampled_from(sorted(CARDS)), max_size=20))
def test_every_problem_names_a_known_code(main: list[int], side: list[int]) -> None:
    known = {
        "main-too-small",
        "main-too-large",
        "extra-too-large",
        "side-too-large",
        "too-many-copies",
        "forbidden",
        "limited",
        "semi-limited",
        "extra-deck-monster-in-main",
        "not-extra-deck-card",
        "token",
        "unknown-card",
        "not-ocg",
        "not-yet-released",
    }
    for problem in check(Deck(tuple(main), (), tuple(side))):
        assert problem.code in known


def test_deck_section_rejects_an_unknown_name() -> None:
    with pytest.raises(ValueError):
        Deck().section("graveyard")
