"""The sample deck on the real card data (../shared/data) and the July 2026 OCG list, submitted
the three ways a player can: a .ydk file, a ydke:// URL, a Japanese text sheet."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth.models import User

from taikai.cards.formats import write_text_sheet
from taikai.cards.index import DbCardIndex
from taikai.decks import services
from taikai.decks.models import DeckRegistration
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf
from taikai.events.models import Event
from tests.factories import SAMPLE_TEXT, SAMPLE_YDKE, make_event

pytestmark = pytest.mark.django_db


def test_the_sample_deck_is_legal_under_the_july_2026_list_with_modern(real_cards: None, event: Event) -> None:
    upload = DeckInput(file_name="sample_deck.ydk", file_data=SAMPLE_TEXT.encode())
    reg = services.submit_deck(event.players.first(), upload, by=PlayerSelf(event.players.first()))
    assert reg.legal and reg.problems == [] and reg.format == "ydk"
    assert reg.counts == {"main": 40, "extra": 10, "side": 3}
    assert reg.banlist is not None and reg.banlist.name == "2026.07 OCG" and reg.banlist.frozen
    assert reg.banlist.entries.count() == 200  # 197 cards + the 3 simulator-only lines


def test_ydk_ydke_and_a_japanese_sheet_register_the_same_cards(real_cards: None, event: Event) -> None:
    a, b, c, _ = event.players.order_by("id")
    ydk = services.submit_deck(
        a, DeckInput(file_name="sample_deck.ydk", file_data=SAMPLE_TEXT.encode()), by=PlayerSelf(a)
    )
    ydke = services.submit_deck(
        b, DeckInput(file_name="deck.txt", file_data=SAMPLE_YDKE.read_bytes()), by=PlayerSelf(b)
    )
    sheet = write_text_sheet(ydk.deck, DbCardIndex().facts(ydk.deck.all_cards()), "ja")
    text = services.submit_deck(c, DeckInput(text=sheet), by=PlayerSelf(c))
    assert ydke.format == "ydke" and text.format == "text"
    assert (ydke.main, ydke.extra, ydke.side) == (ydk.main, ydk.extra, ydk.side)
    # A sheet names cards, so the side deck's alternate-artwork Ash Blossom comes back as the original.
    facts = DbCardIndex().facts(ydk.deck.all_cards())
    for section in ("main", "extra", "side"):
        by_name = Counter(facts[p].copy_key for p in getattr(ydk, section))
        assert Counter(getattr(text, section)) == by_name
    assert text.legal


def test_under_dkt_2011_its_two_link_monsters_are_refused(real_cards: None, organizer: User) -> None:  # DECK-2
    event = make_event(organizer, 1, ruleset_name="dkt-2011", banlist_name="2026.07 OCG")
    reg = services.submit_deck(event.players.first(), DeckInput(text=SAMPLE_TEXT), by=PlayerSelf(event.players.first()))
    assert [(p["code"], p["card"]) for p in reg.problems] == [
        ("not-extra-deck-card", 1861629),
        ("not-extra-deck-card", 86066372),
    ]


def test_a_forbidden_card_on_the_real_list(real_cards: None, event: Event) -> None:  # DECK-4
    text = SAMPLE_TEXT.replace("5318639", "55144522", 1)  # Mystical Space Typhoon -> Pot of Greed
    reg = services.submit_deck(event.players.first(), DeckInput(text=text), by=PlayerSelf(event.players.first()))
    assert [(p["code"], p["card"], p["limit"]) for p in reg.problems] == [("forbidden", 55144522, 0)]
    assert DeckRegistration.objects.get(pk=reg.pk).legal is False


def test_a_ygopro_ydk_with_its_extra_deck_under_main_says_on_the_deck_page_what_was_moved(
    real_cards: None, event: Event
) -> None:
    # DECK-2: YGOPro files cards by type; the page says the extra-deck monsters were moved, so the counts explain
    # themselves (the real sample deck, its extra deck written under #main as some tools do).
    from django.test import Client

    from taikai.cards.formats import read_ydk
    from taikai.events.actors import Staff
    from taikai.events.services import links

    sample = read_ydk(SAMPLE_TEXT)
    ydk = "#main\n" + "\n".join(map(str, sample.main + sample.extra)) + "\n!side\n" + "\n".join(map(str, sample.side))
    player = event.players.first()
    reg = services.submit_deck(player, DeckInput(text=ydk), by=PlayerSelf(player))
    assert reg.legal and {n["code"] for n in reg.notes} == {"ydk-moved-to-extra"}
    token = links.issue_access(player, by=Staff(event.created_by))
    page = Client(HTTP_ACCEPT_LANGUAGE="ja").get(f"/p/{token}/deck/").content.decode()
    assert "ファイルの読み取りについて" in page and "メインデッキからエクストラデッキに移しました" in page
