"""The player's own page without a browser: answers, one-tap reports, corrected retries, the link's life."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player
from taikai.events.services import clock as clock_services
from taikai.events.services import links, registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from tests.factories import make_event

pytestmark = pytest.mark.django_db

TWO_NIL = ResultInput(({"winner": "A"}, {"winner": "A"}))
TWO_ONE = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "A"}))
JSON = {"Accept": "application/json"}


def _client(lang: str = "ja") -> Client:
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _paired(organizer: User, players: int = 2, **kwargs: Any) -> tuple[Match, str, str]:
    event = make_event(organizer, players, **kwargs)
    match = round_services.pair_next_round(event, by=Staff(organizer)).matches.filter(is_bye=False).first()
    assert match is not None
    token_a = links.issue_access(match.player_a, by=Staff(organizer))
    token_b = links.issue_access(match.player_b, by=Staff(organizer))
    return match, token_a, token_b


def test_a_corrected_retry_under_the_same_key_is_a_new_report(organizer: User) -> None:  # END-4
    match, _, _ = _paired(organizer)
    a = match.player_a
    result_services.report_result(match, player=a, result=TWO_NIL, idempotency_key="phone-1")
    # the answer was lost; the player fixes 2–0 to 2–1 and sends again with the same key
    m = result_services.report_result(match, player=a, result=TWO_ONE, idempotency_key="phone-1")
    assert (m.duel_wins_a, m.duel_wins_b) == (2, 1) and m.reports.count() == 2
    # a retry of the corrected report, and a late copy of the first, change nothing
    result_services.report_result(match, player=a, result=TWO_ONE, idempotency_key="phone-1")
    m = result_services.report_result(match, player=a, result=TWO_NIL, idempotency_key="phone-1")
    assert m.reports.count() == 2 and (m.duel_wins_a, m.duel_wins_b) == (2, 1)
    m = result_services.confirm_result(m, player=m.player_b, version=m.version)  # the opponent is asked about 2–1
    assert m.status == Match.Status.CONFIRMED and (m.duel_wins_a, m.duel_wins_b) == (2, 1)


def test_one_tap_two_one_is_answered_and_the_opponent_confirms_it(organizer: User) -> None:  # MATCH-1, END-4
    match, token_a, token_b = _paired(organizer)
    client = _client()
    r = client.post(
        f"/p/{token_a}/report/", {"quick": "win-2-1", "match": match.pk, "idempotency_key": "k"}, headers=JSON
    )
    assert r.status_code == 200 and r.json() == {
        "ok": True,
        "message": "結果を送りました。対戦相手がスマホで確認するのを待っています。",
    }
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and (match.duel_wins_a, match.duel_wins_b) == (2, 1)
    # the opponent taps their side of the same outcome: both reports agree
    r = client.post(f"/p/{token_b}/report/", {"quick": "loss-1-2", "match": match.pk}, headers=JSON)
    assert r.json()["ok"] and "確定" in r.json()["message"]
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.result == "a"


def test_a_refused_report_says_why_with_and_without_javascript(organizer: User) -> None:
    match, token_a, _ = _paired(organizer)
    client = _client()
    only_duel_one = {"duel1": "A", "match": match.pk}
    r = client.post(f"/p/{token_a}/report/", only_duel_one, headers=JSON)
    assert r.status_code == 422 and not r.json()["ok"]
    assert "まだ勝敗が決まっていません（2本先取）" in r.json()["message"]
    r = client.post(f"/p/{token_a}/report/", only_duel_one, follow=True)  # no script: the page says it
    assert r.status_code == 200 and "まだ勝敗が決まっていません" in _text(r)
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and not match.reports.exists()


def test_elimination_refuses_a_tapped_draw(organizer: User) -> None:  # MATCH-2
    match, token_a, _ = _paired(organizer, format=Event.Format.ELIMINATION)
    page = _text(_client().get(f"/p/{token_a}/"))
    assert 'value="win-2-1"' in page and 'value="draw-1-1"' not in page and 'value="intentional-draw"' not in page
    r = _client().post(f"/p/{token_a}/report/", {"quick": "draw-1-1", "match": match.pk}, headers=JSON)
    assert r.status_code == 422 and "形式では選べません" in r.json()["message"]


def test_a_report_queued_for_an_earlier_round_is_not_counted(organizer: User) -> None:
    match, token_a, _ = _paired(organizer)
    r = _client().post(f"/p/{token_a}/report/", {"quick": "win-2-0", "match": match.pk + 999}, headers=JSON)
    assert r.status_code == 409 and not match.reports.exists()


def test_the_swiss_page_has_no_extra_duel_and_says_what_happens_at_time(organizer: User) -> None:
    # TIME-S-1, TIME-S-2, TIME-S-6; the extra duel (TIME-E-5) exists in single elimination only
    match, token_a, _ = _paired(organizer)
    page = _text(_client("en").get(f"/p/{token_a}/"))
    assert "duel4" not in page and "Extra duel" not in page
    assert "3 extra turns follow" in page and "equal LP is a drawn duel" in page
    elim, token_e, _ = _paired(organizer, format=Event.Format.ELIMINATION)
    page = _text(_client("en").get(f"/p/{token_e}/"))
    assert 'name="duel4_extra"' in page and "sudden death" in page and "extra duel of 4 turns at 8000 LP" in page


def test_the_tables_own_clock_includes_its_extension(organizer: User) -> None:  # TIME-4
    match, token_a, _ = _paired(organizer)
    clock_services.start_round(match.round, by=Staff(organizer))
    clock_services.extend_time(
        match, by=Staff(organizer), seconds=180, reason="裁定に時間がかかった", ruling_seconds=180
    )
    page = _text(_client().get(f"/p/{token_a}/"))
    assert "この卓の延長：+3:00" in page and f"?table={match.table}" in page
    clock = _client().get(f"/e/{match.round.event_id}/clock.json?table={match.table}").json()
    limit = match.round.time_limit_seconds
    assert clock["table"]["extension"] == 180 and limit + 170 < clock["table"]["remaining"] <= limit + 180


def test_a_dead_link_says_what_happened_and_how_to_recover(organizer: User) -> None:
    event = make_event(organizer, 2)
    r = _client().get("/p/not-a-real-link/")
    assert r.status_code == 404 and "この個人用リンクは使えません" in _text(r) and "受付" in _text(r)
    assert f"/e/{event.pk}/recover/" in _text(r)
    r = _client("en").get("/p/not-a-real-link/")
    assert r.status_code == 404 and "This personal link does not work" in _text(r)


def test_self_registration_gives_the_link_at_once_and_check_in_keeps_it(organizer: User) -> None:
    event = make_event(organizer, 0)
    client = _client()
    posted = client.post(f"/e/{event.pk}/register/", {"name": "新人 花子", "card_game_id": "3000000001"})
    assert posted.status_code == 302 and posted["Location"].startswith("/p/")  # POST/redirect/GET (issue 24)
    from taikai.security.logs import masked

    assert masked(f"GET {posted['Location']} 200") == "GET /p/…/registered/ 200"  # the log hides it like any /p/
    r = client.get(posted["Location"])
    link = re.search(r'id="player-link">([^<]+)<', r.content.decode())
    assert r.status_code == 200 and link and "<svg" in r.content.decode()
    assert event.name in r.content.decode()  # the answer names the event
    again = client.get(posted["Location"])  # a reload shows the same link and registers nobody twice
    assert link.group(1) in again.content.decode()
    assert Player.objects.filter(event=event, card_game_id="3000000001").count() == 1
    path = "/" + link.group(1).split("/", 3)[3]
    assert _client().get(path).status_code == 200  # a deck list can be sent before the event
    player = Player.objects.get(event=event, card_game_id="3000000001")
    _, token = registration.check_in(player, by=Staff(organizer))
    assert token == "" and _client().get(path).status_code == 200  # check-in confirms, the link stays


def test_the_player_page_is_an_installable_app(organizer: User) -> None:
    _, token_a, _ = _paired(organizer)
    page = _client().get(f"/p/{token_a}/").content.decode()
    assert f'href="/p/{token_a}/manifest.webmanifest"' in page
    manifest = json.loads(_client().get(f"/p/{token_a}/manifest.webmanifest").content)
    assert manifest["start_url"] == f"/p/{token_a}/" and manifest["display"] == "standalone"
    assert any(icon["sizes"] == "512x512" for icon in manifest["icons"])
    sw = _client().get("/p/sw.js")
    assert sw.status_code == 200 and sw["Service-Worker-Allowed"] == "/p/" and b"caches.open" in sw.content


def test_the_self_registration_page_says_registration_is_closed_once_round_one_is_paired(organizer: User) -> None:
    # REG-3: once round 1 is paired, a newcomer is a late entry at the desk, never a phone registration.
    event = make_event(organizer, 2)
    round_services.pair_next_round(event, by=Staff(organizer))
    r = _client().get(f"/e/{event.pk}/register/")
    assert r.status_code == 200 and "参加受付は終了しました" in _text(r) and 'name="name"' not in r.content.decode()
    posted = _client().post(f"/e/{event.pk}/register/", {"name": "遅刻 太郎", "card_game_id": "4000000001"})
    assert posted.status_code == 200 and not event.players.filter(card_game_id="4000000001").exists()
