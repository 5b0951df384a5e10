"""The organizer's desk pages: slips with the venue address, confirm steps before anything is destroyed, sorting by
reading, why a player ranks where they do, error pages, the staff page (the services behind them:
test_organizer_desk.py)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from taikai.events.actors import Staff
from taikai.events.models import Event, Player, Round
from taikai.events.services import events as event_services
from taikai.events.services import registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.events.services.standings import standings_for
from tests.factories import make_event

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "B"}))


def _play(event: Event, organizer: User, rnd: Round) -> None:
    for m in rnd.matches.filter(is_bye=False).order_by("table"):
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS if m.table % 2 else B_WINS)


# --- pages ---------------------------------------------------------------------------------------


def test_slips_use_the_venue_address(organizer: User, client: Client, settings: Settings) -> None:
    settings.TAIKAI_PUBLIC_URL = "http://192.168.10.5:8000"
    event = make_event(organizer, 2, checked_in=False)
    client.force_login(organizer)
    player = event.players.first()
    page = client.post(f"/events/{event.pk}/players/{player.pk}/check-in/", HTTP_HOST="127.0.0.1:8000")
    html = page.content.decode()
    assert 'href="http://192.168.10.5:8000/p/' in html and "127.0.0.1" not in html


def test_the_console_warns_over_loopback_and_shows_the_venue_address(
    organizer: User, client: Client, settings: Settings
) -> None:
    settings.TAIKAI_LAN_URL = "http://10.0.0.7:8000"
    event = make_event(organizer, 2)
    client.force_login(organizer)
    html = client.get(f"/events/{event.pk}/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert 'id="venue-warning"' in html and "http://10.0.0.7:8000/" in html
    html = client.get(f"/events/{event.pk}/", HTTP_HOST="10.0.0.7:8000").content.decode()
    assert 'id="venue-warning"' not in html


def test_all_slips_print_at_once_and_keep_the_links_handed_out(organizer: User, client: Client) -> None:
    # Issue 22, finding 8: printing all slips again never kills a slip already handed out.
    event = make_event(organizer, 3)
    client.force_login(organizer)
    old = set(event.players.values_list("access_token_hash", flat=True))
    html = client.post(f"/events/{event.pk}/players/slips/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert html.count('class="card slip"') == 3
    assert "0 人に新しいリンクを発行、3 人は今のリンクのまま。" in html
    assert set(event.players.values_list("access_token_hash", flat=True)) == old
    again = client.post(f"/events/{event.pk}/players/slips/").content.decode()
    assert sorted(re.findall(r'href="([^"]*/p/[^"]+)"', again)) == sorted(re.findall(r'href="([^"]*/p/[^"]+)"', html))


@pytest.mark.parametrize("what", ["repair", "reissue", "revoke", "delete"])
def test_destroying_asks_first_and_changes_nothing_until_confirmed(organizer: User, client: Client, what: str) -> None:
    event = make_event(organizer, 4)
    client.force_login(organizer)
    player = event.players.first()
    if what == "repair":
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        url = f"/events/{event.pk}/rounds/1/repair/"
    else:
        url = f"/events/{event.pk}/players/{player.pk}/{what}/"
    before = (list(Round.objects.filter(event=event).values_list("pk", "seed")), Player.objects.get(pk=player.pk))
    html = client.post(url).content.decode()
    assert 'name="confirm" value="yes"' in html and 'id="confirm-no"' in html
    after = (list(Round.objects.filter(event=event).values_list("pk", "seed")), Player.objects.get(pk=player.pk))
    assert before[0] == after[0] and before[1].access_token_hash == after[1].access_token_hash
    shown = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html))  # what the page keeps
    response = client.post(url, {**shown, "confirm": "yes"})
    assert response.status_code in (200, 302)
    if what == "repair":
        assert not Round.objects.filter(pk=rnd.pk).exists()
    elif what == "delete":
        assert not Player.objects.filter(pk=player.pk).exists()
    else:
        assert Player.objects.get(pk=player.pk).access_token_hash != before[1].access_token_hash


def test_readings_in_katakana_sort_with_hiragana(organizer: User, client: Client) -> None:
    event = make_event(organizer, 0)
    for name, kana, cgid in (("渡辺", "わたなべ", "1"), ("阿部", "アベ", "2"), ("加藤", "かとう", "3")):
        registration.register_player(
            event, by=Staff(organizer), name=name, name_kana=kana, card_game_id=cgid.rjust(10, "0")
        )
    client.force_login(organizer)
    html = client.get(f"/events/{event.pk}/players/").content.decode()
    assert html.index("阿部") < html.index("加藤") < html.index("渡辺")


def test_why_am_i_ranked_here_shows_zero_points_missed_rounds_and_a_tie_by_lot(organizer: User, client: Client) -> None:
    event = make_event(organizer, 4)
    client.cookies.load({"taikai_language": "en"})
    _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer)))
    rows = standings_for(event)
    winners = [r for r in rows if r.points == 3]
    # Both winners beat a 0-point opponent: equal points, OMW% and OOMW%, so a recorded draw orders them.
    assert len(winners) == 2 and (winners[0].omw, winners[0].oomw) == (winners[1].omw, winners[1].oomw)
    html = client.get(f"/e/{event.pk}/players/{winners[0].player_id}/").content.decode()
    assert """<span class="label">Opponent's points </span>0</td>""" in html  # the opponent's 0 points, not a blank
    assert winners[1].name in html and "recorded random draw" in html
    late = registration.register_player(
        event, by=Staff(organizer), name="遅刻 太郎", card_game_id="1999999999", late_entry=True
    )
    registration.check_in(late, by=Staff(organizer))
    html = client.get(f"/e/{event.pk}/players/{late.pk}/").content.decode()
    assert "round missed" in html  # round 1, a loss in this ruleset


def test_error_pages_in_the_sites_style_and_the_visitors_language(client: Client, organizer: User) -> None:
    missing = client.get("/e/999999/")
    assert missing.status_code == 404
    html = missing.content.decode()
    assert 'id="error-page"' in html and 'href="/"' in html and "taikai.css" in html
    client.cookies.load({"taikai_language": "en"})
    en = client.get("/e/999999/").content.decode()
    assert "This page does not exist" in en
    client.force_login(organizer)
    other = make_event(organizer, 0)
    judge = get_user_model().objects.create_user(username="outsider", password="x")
    client.force_login(judge)
    forbidden = client.get(f"/events/{other.pk}/")
    assert forbidden.status_code == 403


def test_the_staff_page_removes_a_judge_after_asking(organizer: User, client: Client) -> None:
    event = make_event(organizer, 0)
    event_services.add_staff(event, by=Staff(organizer), username="j9", role="judge", password="long-enough-pw-42")
    client.force_login(organizer)
    asked = client.post(f"/events/{event.pk}/staff/remove/", {"staff_username": "j9"}).content.decode()
    assert 'name="confirm" value="yes"' in asked and event.staff.filter(user__username="j9").exists()
    client.post(f"/events/{event.pk}/staff/remove/", {"staff_username": "j9", "confirm": "yes"})
    assert not event.staff.filter(user__username="j9").exists()
