"""Legality on real files (issue 15): pre-release and unofficial cards (DECK-7), partial YGOPRODeck
lists, extra-deck monsters under a text sheet's main deck (DECK-2), list names in the database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taikai.cards import services
from taikai.cards.check import check_resolved, resolve_deck_text
from taikai.cards.index import DbCardIndex, MemoryCardIndex
from taikai.cards.models import Card
from taikai.cards.sources import read_cdb
from taikai.core import ruleset as rs
from taikai.core.deck import OT_OCG, CardFacts, Deck, check_deck
from tests.cards.test_sources import CARDINFO
from tests.factories import CDB_PRERELEASE, LFLIST_OCG

MODERN = rs.builtin("modern")


def test_a_real_pre_release_card_is_never_legal() -> None:  # DECK-7
    prerelease = read_cdb(CDB_PRERELEASE)
    assert {c.ot for c in prerelease} == {0x101}  # OCG + the pre-release bit
    card = prerelease[0].facts()
    deck = Deck((card.passcode,), (), ())
    codes = [p.code for p in check_deck(deck, {card.passcode: card}, None, MODERN.deck)]
    assert "pre-release" in codes


@pytest.mark.parametrize("bits", [0x4, 0x20, 0x200])
def test_anime_custom_and_rush_cards_are_never_legal(bits: int) -> None:  # DECK-7
    card = CardFacts(passcode=1, type=0x2, ot=OT_OCG | bits, name_en="Anime card")
    codes = [p.code for p in check_deck(Deck((1,)), {1: card}, None, MODERN.deck)]
    assert "unofficial-card" in codes


def test_an_ocg_card_is_not_flagged() -> None:
    card = CardFacts(passcode=1, type=0x2, ot=OT_OCG | 0x2, name_en="Raigeki")
    assert [p.code for p in check_deck(Deck((1,)), {1: card}, None, MODERN.deck)] == ["main-too-small"]


def test_an_extra_deck_monster_under_a_text_sheets_main_deck_is_a_deck2_problem(index: MemoryCardIndex) -> None:
    # DECK-2: a text sheet says where the player put the card; taikai does not move it for them.
    resolved = resolve_deck_text("メインデッキ\n灰流うらら\nデコード・トーカー\n", index)
    check = check_resolved(resolved, ruleset=MODERN, banlist=None, event_date=None)
    assert ("extra-deck-monster-in-main", 1861629) in [(p.code, p.params.get("card")) for p in check.problems]
    assert resolved.notes == ()


@pytest.mark.django_db
def test_a_partial_ygoprodeck_file_never_cuts_an_imported_list_down(tmp_path: Path) -> None:
    first = {"data": CARDINFO["data"] + [_card(i, "Forbidden") for i in range(50)]}
    path = tmp_path / "full.json"
    path.write_text(json.dumps(first))
    services.import_card_files([path])
    before = services.library_banlist("YGOPRODeck OCG").as_core().entries
    assert len(before) == 51
    # An old file holding two cards: Ash Blossom now Limited, card 7 no longer on the list.
    old = {"data": [dict(CARDINFO["data"][0], banlist_info={"ban_ocg": "Limited"}), _card(7, None)]}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    # Its newest card (2015) is older than the first file's (2017): since issue 22 it changes the list only
    # when the organizer asks; asked, it still never cuts the list down.
    [_, kept] = services.import_card_files([path])
    assert kept.skipped == 2 and services.library_banlist("YGOPRODeck OCG").as_core().entries == before
    services.import_card_files([path], allow_older=True)
    after = services.library_banlist("YGOPRODeck OCG").as_core().entries
    assert len(after) == 50 and after[14558127] == 1 and 90000007 not in after and after[90000008] == 0


def _card(number: int, status: str | None) -> dict[str, object]:
    row: dict[str, object] = {"id": 90000000 + number, "name": f"Card {number}", "type": "Spell Card"}
    row["frameType"] = "spell"
    if status:
        row["banlist_info"] = {"ban_ocg": status}
    return row


@pytest.mark.django_db
def test_a_library_list_is_found_without_regard_to_case_and_spaces() -> None:
    services.import_lflist_file(LFLIST_OCG)
    for name in ("2026.07 OCG", "2026.07 ocg", "2026.07OCG", " 2026.07  Ocg "):
        found = services.library_banlist(name)
        assert found is not None and found.name == "2026.07 OCG"
    assert services.library_banlist("2026.01 OCG") is None


@pytest.mark.django_db
def test_db_suggestions_follow_a_card_saved_after_the_first_look_up() -> None:
    Card.objects.create(passcode=1, name_ja="灰流うらら", name_en="Ash Blossom & Joyous Spring", type=0x21)
    index = DbCardIndex()
    assert index.suggest("灰流うららら") == ["灰流うらら"]
    Card.objects.create(passcode=2, name_ja="増殖するＧ", name_en='Maxx "C"', type=0x21)
    index = DbCardIndex()  # one index per list read; the process's name table follows the card table
    assert index.resolve("増殖するG") is not None and index.suggest("増殖すろＧ")[0] == "増殖するＧ"
