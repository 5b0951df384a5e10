"""The scorekeeper's results page (issue 14.4): table number, outcome, both names to confirm, saved; bad input
keeps what was typed and says what is wrong in words."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import rounds as round_services
from tests.factories import make_event
from tests.visible import visible_text

pytestmark = pytest.mark.django_db


def setup(organizer: User, client: Client, **kwargs: Any) -> tuple[Event, list[Match], str]:
    event = make_event(organizer, 8, **kwargs)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    client.force_login(organizer)
    matches = list(rnd.matches.select_related("player_a", "player_b").order_by("table"))
    return event, matches, f"/events/{event.pk}/rounds/{rnd.number}/results/"


def test_the_options_are_what_the_swiss_format_allows(organizer: User, client: Client) -> None:
    _event, _matches, url = setup(organizer, client)
    html = client.get(url).content.decode()
    values = [v.split('"')[0] for v in html.split('name="outcome" value="')[1:]]
    assert values == ["2-0", "2-1", "1-2", "0-2", "draw", "id"]  # MATCH-1, MATCH-2, END-2


def test_a_first_post_shows_both_names_and_a_second_saves(organizer: User, client: Client) -> None:
    _event, matches, url = setup(organizer, client)
    m = matches[2]
    page = client.post(url, {"table": str(m.table), "outcome": "1-2"}).content.decode()
    assert m.player_a.name in page and m.player_b.name in page
    assert f"{m.player_b.name} の勝ち 2–1" in page
    assert Match.objects.get(pk=m.pk).status == Match.Status.PENDING  # not saved before the names were seen
    response = client.post(url, {"table": str(m.table), "outcome": "1-2", "confirm": str(m.table)}, follow=True)
    saved = Match.objects.get(pk=m.pk)
    assert (saved.status, saved.result, saved.duel_wins_a, saved.duel_wins_b) == ("confirmed", "b", 1, 2)
    assert f"{m.table}番卓: {m.player_b.name} の勝ち 2–1" in response.content.decode()


def test_mistakes_keep_the_typed_table_and_say_what_is_wrong(organizer: User, client: Client) -> None:
    _event, matches, url = setup(organizer, client)
    page = client.post(url, {"table": "99", "outcome": "2-0", "confirm": "99"})
    assert page.status_code == 400
    text = page.content.decode()
    assert "このラウンドに99番卓はありません。" in text and 'value="99"' in text
    assert 'value="2-0" checked' in text
    no_outcome = client.post(url, {"table": str(matches[0].table), "outcome": ""}).content.decode()
    assert f"{matches[0].table}番卓の結果を選んでください。" in no_outcome
    assert "次:" not in no_outcome


def test_the_top_cut_offers_no_draw(organizer: User, client: Client) -> None:
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    client.force_login(organizer)
    html = client.get(f"/events/{event.pk}/rounds/{rnd.number}/results/").content.decode()
    values = [v.split('"')[0] for v in html.split('name="outcome" value="')[1:]]
    assert values == ["2-0", "2-1", "1-2", "0-2"]  # MATCH-2, END-2
    m = rnd.matches.first()
    refused = client.post(f"/events/{event.pk}/rounds/{rnd.number}/results/", {"table": m.table, "outcome": "id"})
    assert refused.status_code == 400 and Match.objects.get(pk=m.pk).status == Match.Status.PENDING


def test_the_staff_match_page_names_the_winner_and_shows_no_raw_record(organizer: User, client: Client) -> None:
    event, matches, url = setup(organizer, client)
    m = matches[0]
    client.post(url, {"table": str(m.table), "outcome": "0-2", "confirm": str(m.table)})
    page = visible_text(client.get(f"/events/{event.pk}/matches/{m.pk}/result/").content.decode())
    assert f"{m.player_b.name} の勝ち 2–0" in page
    assert "winner" not in page and "結果: b" not in page and "played" not in page
