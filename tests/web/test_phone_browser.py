"""Players on phones (390×844), the judges' queue and the projector (1920×1080), live from the event stream.

Every test runs on the real ASGI server (tests/web/conftest.py), so the pages take their state from the
stream as at the venue; nothing here reloads a page unless a person would.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.links import issue_access
from taikai.events.services.result_input import ResultInput
from taikai.judging.services import calls as call_services
from tests.factories import PHONE, PROJECTOR, SitePage, VenuePage, make_event, screenshot
from tests.servers import VenueServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


@pytest.fixture
def organizer(transactional_db: None) -> User:
    from django.contrib.auth import get_user_model

    from taikai.events.services.accounts import ensure_first_organizer

    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


def _event(organizer: User, players: int = 4) -> tuple[Event, dict[int, str]]:
    """An event with round 1 paired and started; every player checked in with a personal link."""
    event = make_event(organizer, players)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    links = {}
    for p in event.players.all():
        links[p.pk] = issue_access(p, by=Staff(organizer))
    return event, links


def _table_one(event: Event) -> Match:
    return Match.objects.select_related("player_a", "player_b").get(round__event=event, round__number=1, table=1)


def _phone(venue_page: VenuePage, token: str) -> SitePage:
    page = venue_page(viewport=PHONE)
    page.goto(f"{page.base_url}/p/{token}/")
    page.wait_for_function("window.taikaiLive !== undefined")
    return page


def _wait_for_stream(seconds: float = 1.0) -> None:
    time.sleep(seconds)  # the page's EventSource connects after load


def _following_table_one(organizer: User, venue_page: VenuePage) -> tuple[Event, Match, str, SitePage]:
    """Table 1's first player on a phone, the page's stream open."""
    event, links = _event(organizer)
    m = _table_one(event)
    token = links[m.player_a_id]
    page = _phone(venue_page, token)
    _wait_for_stream()
    return event, m, token, page


def test_a_player_reports_two_one_in_one_tap_and_the_opponent_confirms_live(
    organizer: User, venue_page: VenuePage
) -> None:
    event, links = _event(organizer)
    m = _table_one(event)
    a, b = _phone(venue_page, links[m.player_a_id]), _phone(venue_page, links[m.player_b_id])
    screenshot(a, "phone-report-form")
    # one thumb: the usual outcomes are big buttons, all on the first screen
    buttons = a.locator("form.report button[name=quick]")
    assert buttons.count() == 8  # 2–0, 2–1, 1–2, 0–2, draw at time, intentional draw (Swiss), 投了 both ways
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44 and box["y"] + box["height"] <= PHONE["height"]
    assert a.locator("fieldset.pduel[data-extra]").count() == 0  # no extra duel in Swiss
    assert a.evaluate("document.documentElement.scrollHeight") < 2 * PHONE["height"]
    _wait_for_stream()
    a.click("form.report button[value=win-2-1]")
    expect(a.locator("#answer")).to_have_text("結果を送りました。対戦相手がスマホで確認するのを待っています。")
    expect(a.locator("#match-status")).to_contain_text("対戦相手の確認を待っています")
    # the opponent's open page shows the report by itself, and one tap confirms
    expect(b.locator("#match-status")).to_contain_text("対戦相手の報告", timeout=5000)
    expect(b.locator("#match-status")).to_contain_text("負け 1–2")
    screenshot(b, "phone-confirm")
    b.click("button[name=confirm]")
    expect(b.locator("#answer")).to_have_text("結果を確認しました。")
    expect(a.locator("#match-status")).to_contain_text("確定した結果: 勝ち 2–1", timeout=5000)
    screenshot(a, "phone-confirmed")
    m.refresh_from_db()
    assert m.status == Match.Status.CONFIRMED and (m.duel_wins_a, m.duel_wins_b) == (2, 1)


def test_a_refresh_that_changes_nothing_leaves_the_buttons_under_the_finger(
    organizer: User, venue_page: VenuePage
) -> None:
    # CI lost a tap on 「勝ち 2–0」: a refresh for another table's result rebuilt the same form under the finger.
    event, links = _event(organizer)
    m = _table_one(event)
    a = _phone(venue_page, links[m.player_a_id])
    mark = "document.querySelector('form.report button[value=win-2-0]').taikaiMark = 1"
    marked = "() => document.querySelector('form.report button[value=win-2-0]').taikaiMark === 1"
    a.evaluate("window.taikaiLive.refreshNow()")  # the first refresh swaps: the page remembers what it got
    a.evaluate(mark)
    other = Match.objects.get(round__event=event, round__number=1, table=2)
    result_services.enter_result(other, by=Staff(organizer), result=A_WINS)  # another table: not on A's page
    a.evaluate("window.taikaiLive.refreshNow()")
    assert a.evaluate(marked)  # the same element: nothing was rebuilt
    # A change on A's own table does rebuild the region (the opponent's report arrives).
    b_token = links[m.player_b_id]
    b = _phone(venue_page, b_token)
    b.click("form.report button[value=loss-0-2]")
    expect(a.locator("#match-status")).to_contain_text("対戦相手の報告")
    assert not a.evaluate(marked)


def test_a_result_at_another_table_leaves_the_page_alone_and_its_own_refreshes_it(
    organizer: User, venue_page: VenuePage
) -> None:
    # Every result used to make every open player page fetch itself: at a 2,000-player event, one result cost
    # 2,000 renders (the publish bench's results row measures it).
    event, m, token, a = _following_table_one(organizer, venue_page)
    fetched: list[str] = []
    a.on("request", lambda r: fetched.append(r.url) if r.headers.get("x-requested-with") == "taikai-live" else None)
    a.evaluate("window.heard = []; document.addEventListener('taikai:live', e => window.heard.push(e.detail.kind))")
    other = Match.objects.get(round__event=event, round__number=1, table=2)
    result_services.enter_result(other, by=Staff(organizer), result=A_WINS)
    a.wait_for_function("window.heard.indexOf('result') >= 0")  # the stream said it
    time.sleep(1.0)  # well past live.js's 300 ms debounce
    assert fetched == []
    result_services.enter_result(m, by=Staff(organizer), result=A_WINS)  # its own table
    expect(a.locator("#match-status")).to_contain_text("確定した結果", timeout=5000)
    assert [url for url in fetched if f"/p/{token}/" in url]


def test_a_refused_report_shows_its_reason(organizer: User, venue_page: VenuePage) -> None:
    event, links = _event(organizer)
    m = _table_one(event)
    a = _phone(venue_page, links[m.player_a_id])
    a.locator("details.more summary").click()
    a.locator("fieldset.pduel").first.get_by_text("自分の勝ち").click()
    a.click("form.report button[name=report]")
    expect(a.locator("#answer")).to_contain_text("まだ勝敗が決まっていません（2本先取）")
    expect(a.locator("#answer")).to_have_class("answer error")
    screenshot(a, "phone-refused")
    assert not Match.objects.get(pk=m.pk).reports.exists()


def test_the_page_shows_the_new_round_after_pairing_without_reload(organizer: User, venue_page: VenuePage) -> None:
    event, links = _event(organizer)
    m = _table_one(event)
    a = _phone(venue_page, links[m.player_a_id])
    projector = venue_page(viewport=PROJECTOR)
    projector.goto(f"{projector.base_url}/e/{event.pk}/projector/")
    expect(projector.locator("#proj-title")).to_contain_text("第1ラウンド")
    _wait_for_stream()
    for match in Match.objects.filter(round__event=event, round__number=1):
        result_services.enter_result(match, by=Staff(organizer), result=A_WINS)
    expect(a.locator("#match-status")).to_contain_text("確定した結果", timeout=5000)
    expect(a.locator("form.report")).to_have_count(0)
    round_services.pair_next_round(event, by=Staff(organizer))
    expect(a.locator("#player-live .round")).to_have_text("第2ラウンド", timeout=5000)
    expect(a.locator("form.report button[value=win-2-0]")).to_be_visible()  # the new table, its own form
    expect(a.locator("#match-status")).not_to_contain_text("確定した結果")
    expect(projector.locator("#proj-title")).to_contain_text("第2ラウンド", timeout=5000)
    screenshot(a, "phone-new-round")
    screenshot(projector, "projector-new-round")


def test_a_new_round_shows_its_table_from_the_stream_before_the_page_follows(
    organizer: User, venue_page: VenuePage
) -> None:
    # At a 2,000-player event every page fetching itself when a round is published kept the last phone waiting
    # seconds for its table (the publish bench): the stream's pairing message now says where everyone sits.
    event, m, token, a = _following_table_one(organizer, venue_page)
    for match in Match.objects.filter(round__event=event, round__number=1):
        result_services.enter_result(match, by=Staff(organizer), result=A_WINS)
    expect(a.locator("#match-status")).to_contain_text("確定した結果", timeout=5000)
    held = {"on": True}

    def refresh(route: Any) -> None:  # the page's own refreshes fail while held: only the stream reaches it
        live = route.request.headers.get("x-requested-with") == "taikai-live"
        route.abort() if held["on"] and live else route.continue_()

    a.route(f"**/p/{token}/", refresh)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    table = Match.objects.get(Q(player_a_id=m.player_a_id) | Q(player_b_id=m.player_a_id), round=rnd)
    note = a.locator("#seat-note")
    expect(note).to_be_visible(timeout=5000)
    expect(note).to_have_text(f"新しい対戦: {table.table}番卓。対戦相手と時計はまもなくここに表示されます。")
    expect(a.locator("#player-live")).to_have_class(re.compile(r"\bstale\b"))
    expect(a.locator("#player-live .round")).to_have_text("第1ラウンド")  # the page itself has not followed yet
    screenshot(a, "phone-new-table-from-stream")
    held["on"] = False
    clocks: list[str] = []
    a.on("request", lambda r: clocks.append(r.url) if "/clock.json" in r.url else None)
    a.evaluate("window.taikaiLive.refresh()")  # the next update (or the spread's own refresh) brings the rest
    expect(a.locator("#player-live .round")).to_have_text("第2ラウンド", timeout=5000)
    expect(note).to_be_hidden()
    expect(a.locator("#player-live")).not_to_have_class(re.compile(r"\bstale\b"))
    expect(a.locator("form.report button[value=win-2-0]")).to_be_visible()
    limit = rnd.time_limit_seconds
    expect(a.locator("#clock")).to_have_text(f"{limit // 60}:{limit % 60:02d}")  # TIME-1: not started yet
    assert clocks == []  # the refreshed page carried its table's clock: no second request


def test_a_corrected_retry_is_not_dropped(organizer: User, venue_page: VenuePage) -> None:
    event, links = _event(organizer)
    m = _table_one(event)
    a, b = _phone(venue_page, links[m.player_a_id]), _phone(venue_page, links[m.player_b_id])
    _wait_for_stream()

    def lost_answer(route: Any) -> None:  # the report reaches the server; its answer never reaches the phone
        route.fetch()
        route.abort()

    a.route("**/report/", lost_answer)
    a.click("form.report button[value=win-2-0]")
    expect(a.locator("#pending-note")).to_be_visible()
    a.unroute("**/report/")
    a.click("form.report button[value=win-2-1]")  # the player corrects 2–0 to 2–1 and sends again
    expect(a.locator("#answer")).to_contain_text("結果を送りました")
    expect(a.locator("#pending-note")).to_be_hidden()
    expect(b.locator("#match-status")).to_contain_text("負け 1–2", timeout=5000)  # asked about 2–1, not 2–0
    m.refresh_from_db()
    assert (m.duel_wins_a, m.duel_wins_b) == (2, 1) and m.reports.count() == 2


def test_offline_the_page_keeps_the_last_table_and_sends_the_report_when_back(
    organizer: User, venue: VenueServer, venue_page: VenuePage
) -> None:
    event, links = _event(organizer)
    m = _table_one(event)
    a = _phone(venue_page, links[m.player_a_id])
    a.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10_000)
    a.reload()  # the service worker now keeps a copy of the page and its files
    a.wait_for_function("window.taikaiLive !== undefined")
    a.context.set_offline(True)
    venue.stop()  # the venue network is gone, whatever the browser thinks
    a.reload()
    expect(a.locator(".match-line .table")).to_have_text("1番卓")
    expect(a.locator(".opponent")).to_contain_text(m.player_b.name)
    expect(a.locator("#offline-note")).to_be_visible()
    expect(a.locator("#clock")).to_have_text(re.compile(r"^(39|40):[0-5][0-9]$"))  # still counting down
    a.click("form.report button[value=win-2-1]")
    expect(a.locator("#pending-note")).to_be_visible()
    screenshot(a, "phone-offline")
    venue.start()
    a.context.set_offline(False)
    expect(a.locator("#answer")).to_contain_text("結果を送りました", timeout=20_000)
    expect(a.locator("#pending-note")).to_be_hidden()
    m.refresh_from_db()
    assert m.status == Match.Status.REPORTED and m.reports.count() == 1 and (m.duel_wins_a, m.duel_wins_b) == (2, 1)


def test_the_judges_queue_shows_a_new_call_without_reload(organizer: User, venue_page: VenuePage) -> None:
    event, links = _event(organizer)
    m = _table_one(event)
    client = Client()
    client.force_login(organizer)
    judge = venue_page(viewport=PHONE, session=client.cookies["sessionid"].value)
    judge.goto(f"{judge.base_url}/events/{event.pk}/judging/")
    expect(judge.locator("h1")).to_contain_text("ジャッジ")
    _wait_for_stream()
    raised = time.monotonic()
    call_services.raise_call(event, player=m.player_a, by=Staff(organizer), description="裁定をお願いします")
    expect(judge.locator("#judge-queue")).to_contain_text("裁定をお願いします", timeout=2000)
    assert time.monotonic() - raised < 2.0
    screenshot(judge, "judge-queue-live")


def test_at_time_the_phone_says_so_and_what_happens_next(organizer: User, venue_page: VenuePage) -> None:
    # TIME-S-1, TIME-S-2 (Swiss: 3 extra turns, equal LP is a drawn duel); TIME-4 (a table's extension)
    import datetime as dt

    from django.utils import timezone

    from taikai.events.models import Round

    event, links = _event(organizer)
    m, other = _table_one(event), Match.objects.get(round__event=event, round__number=1, table=2)
    Round.objects.filter(pk=m.round_id).update(started_at=timezone.now() - dt.timedelta(minutes=41))
    clock_services.extend_time(
        other, by=Staff(organizer), seconds=300, reason="裁定に時間がかかった", ruling_seconds=300
    )
    a = _phone(venue_page, links[m.player_a_id])
    expect(a.locator("#clock")).to_have_text("時間です")
    expect(a.locator("#time-note")).to_be_visible()
    expect(a.locator("#time-note")).to_contain_text("3ターンのエキストラターン")
    screenshot(a, "phone-time")
    extended = _phone(venue_page, links[other.player_a_id])  # the extended table still has its own time
    expect(extended.locator("#clock")).to_have_text(re.compile(r"^[34]:[0-5][0-9]$"))
    expect(extended.locator("#extension")).to_have_text("この卓の延長：+5:00")
    expect(extended.locator("#time-note")).to_be_hidden()


def test_the_projector_says_the_round_is_paused(organizer: User, venue_page: VenuePage) -> None:
    # TIME-1: the organizer paused the round clock; the hall sees 一時停止中, not a clock that merely stopped
    event, _links = _event(organizer)
    rnd = event.rounds.get(number=1)
    clock_services.pause_round(rnd, by=Staff(organizer))
    projector = venue_page(viewport=PROJECTOR)
    projector.goto(f"{projector.base_url}/e/{event.pk}/projector/")
    expect(projector.locator("#clock")).to_have_attribute("data-status", "paused")
    expect(projector.locator("#proj-paused")).to_be_visible()
    expect(projector.locator("#proj-paused")).to_have_text("一時停止中")
    screenshot(projector, "projector-paused")
