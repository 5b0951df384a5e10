"""Every list of people follows the pairings' order by name (issue 24, item 21): the deck list, the pairing
editor, the penalty picker and the public A–Z order, with katakana among hiragana, half-width kana and capitals
folded, whatever the database's own collation (SQLite and PostgreSQL order text differently)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import registration
from taikai.events.services import rounds as round_services
from tests.factories import make_event

pytestmark = pytest.mark.django_db

PEOPLE = [
    ("山田 太郎", "ヤマダ タロウ"),
    ("伊藤 花子", "いとう はなこ"),
    ("佐藤 健", "サトウ ケン"),
    ("alice", ""),
    ("Bob", ""),
    ("かねこ", ""),
    ("カトウ", ""),
]
# いとう, かとう, かねこ, さとう, やまだ: code points would put every katakana after every hiragana
BY_READING = ["alice", "Bob", "伊藤 花子", "カトウ", "かねこ", "佐藤 健", "山田 太郎"]
A_TO_Z = ["alice", "Bob", "カトウ", "かねこ", "伊藤 花子", "佐藤 健", "山田 太郎"]  # kana before kanji


@pytest.fixture
def event(organizer: User) -> Event:
    event = make_event(organizer, 0)
    for k, (name, kana) in enumerate(PEOPLE):
        player = registration.register_player(
            event, by=Staff(organizer), name=name, name_kana=kana, card_game_id=f"{2000000000 + k}"
        )
        registration.check_in(player, by=Staff(organizer))
    round_services.pair_next_round(event, by=Staff(organizer), seed=1)
    return event


def _order(html: str, section: str = "") -> list[str]:
    """The names in the order they first appear (after ``section``, when given)."""
    html = html[html.index(section) :] if section else html
    found = {name: html.find(re.sub(r"\s", " ", name)) for name, _ in PEOPLE}
    return sorted((n for n, at in found.items() if at >= 0), key=found.__getitem__)


def _page(client: Client, organizer: User, url: str) -> str:
    client.force_login(organizer)
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _rows(client: Client, event: Event, order: str) -> list[str]:
    """The first cell of each row of the by-name list (the player; the opponent comes later in the row)."""
    page = client.get(f"/e/{event.pk}/pairings/?order={order}").content.decode()
    return re.findall(r"<tr><td>([^<]+)</td>", page)


def test_the_pairings_by_name_read_katakana_as_hiragana(client: Client, event: Event) -> None:
    assert _rows(client, event, "kana") == BY_READING


def test_the_public_a_to_z_order_folds_width_and_case(client: Client, event: Event) -> None:
    assert _rows(client, event, "az") == A_TO_Z


def test_the_deck_list_is_in_the_pairings_order(client: Client, organizer: User, event: Event) -> None:
    assert _order(_page(client, organizer, f"/events/{event.pk}/decks/"), "<table") == BY_READING


def test_the_penalty_picker_is_in_the_pairings_order(client: Client, organizer: User, event: Event) -> None:
    page = _page(client, organizer, f"/events/{event.pk}/judging/penalties/new/")
    assert _order(page, 'name="player"') == BY_READING


def test_the_pairing_editor_is_in_the_pairings_order(client: Client, organizer: User, event: Event) -> None:
    page = _page(client, organizer, f"/events/{event.pk}/rounds/1/edit/")
    assert _order(page, "<select") == BY_READING


def test_the_desk_players_list_and_search_are_in_the_pairings_order(event: Event) -> None:
    assert [p.name for p in registration.search_players(event, "")] == BY_READING
