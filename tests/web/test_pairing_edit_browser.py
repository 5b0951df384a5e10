"""The organizer edits the pairings of a round where one table already has a result, on a phone and at the
desk, in Japanese: the result is kept and the page says so; a page left open while a player reports is refused
with the current state; pairing again is not offered, and the page says why (issue 22, finding 3)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import events as event_services
from taikai.events.services import registration
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.accounts import ensure_first_organizer
from taikai.events.services.result_input import ResultInput
from tests.factories import PHONE, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = ViewportSize(width=1280, height=800)
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESK, id="desk")]
NAMES = ["山田 太郎", "佐藤 花子", "鈴木 一郎", "高橋 美咲", "田中 健", "伊藤 さくら"]
A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))


def _round_with_a_result(new_page: NewPage, viewport: ViewportSize) -> tuple[Any, Event]:
    from django.contrib.auth import get_user_model

    username, password = ensure_first_organizer() or ("organizer", "")
    user = get_user_model().objects.get(username=username)
    if not password:
        password = "desk-password-42"
        user.set_password(password)
        user.save()
    event = event_services.create_event(
        by=Staff(user), name="組み合わせ杯", date=dt.date(2026, 12, 6), ruleset_name="harajuku-cs-1.2"
    )
    for i, name in enumerate(NAMES):
        p = registration.register_player(event, by=Staff(user), name=name, card_game_id=f"{5000000000 + i}")
        registration.check_in(p, by=Staff(user))
    rnd = round_services.pair_next_round(event, by=Staff(user))
    table1 = Match.objects.get(round=rnd, table=1)
    result_services.enter_result(table1, by=Staff(user), result=A_WINS)  # the slip of table 1 is in: 2–0
    page = new_page(viewport=viewport, locale="ja-JP")
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    return page, event


def _tag(viewport: ViewportSize) -> str:
    return "phone" if viewport == PHONE else "desk"


def _swap_b_players_of_tables_2_and_3(page: Page, event: Event) -> None:
    t2, t3 = Match.objects.filter(round__event=event, table__in=[2, 3]).order_by("table")
    page.select_option(f"select[name=b-{t2.pk}]", str(t3.player_b_id))
    page.select_option(f"select[name=b-{t3.pk}]", str(t2.player_b_id))


@pytest.mark.parametrize("viewport", SIZES)
def test_editing_pairings_keeps_the_table_with_a_result_and_says_so(new_page: NewPage, viewport: ViewportSize) -> None:
    page, event = _round_with_a_result(new_page, viewport)
    table1 = Match.objects.get(round__event=event, table=1)
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/1/")
    expect(page.locator("#pair-again")).to_have_count(0)  # pairing again would throw table 1's result away
    expect(page.locator("#repair-refused")).to_contain_text("結果が入っている卓があるため組み直せません（1番卓）")
    page.click("#edit-pairings")
    expect(page.locator("#kept-tables")).to_contain_text("結果が入っている卓はそのまま残ります")
    expect(page.locator("#kept-1")).to_contain_text(f"{table1.player_a.name} の勝ち 2–0")
    expect(page.locator(f"select[name=a-{table1.pk}]")).to_have_count(0)  # not offered for change
    screenshot(page, f"pairing-edit-kept-{_tag(viewport)}")
    _swap_b_players_of_tables_2_and_3(page, event)
    page.click("#save-pairings")
    expect(page.locator("ul.messages")).to_contain_text("1番卓は結果が入っているため、そのまま残しました")
    screenshot(page, f"pairing-edit-saved-{_tag(viewport)}")
    kept = Match.objects.get(round__event=event, table=1)
    assert (kept.pk, kept.status, kept.record) == (table1.pk, Match.Status.CONFIRMED, table1.record)
    expect(page.locator("table.pairings tr.status-confirmed")).to_contain_text(table1.player_a.name)


@pytest.mark.parametrize("viewport", SIZES)
def test_a_page_left_open_while_a_player_reports_is_refused_with_the_current_state(
    new_page: NewPage, viewport: ViewportSize
) -> None:
    page, event = _round_with_a_result(new_page, viewport)
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/1/edit/")
    _swap_b_players_of_tables_2_and_3(page, event)
    table2 = Match.objects.get(round__event=event, table=2)
    result_services.report_result(table2, player=table2.player_a, result=A_WINS)  # meanwhile, on a phone
    before = list(Match.objects.filter(round__event=event).values_list("pk", "player_a_id", "player_b_id"))
    page.click("#save-pairings")
    expect(page.locator("#pairing-error")).to_contain_text("この画面を開いた後に")
    expect(page.locator("#pairing-error")).to_contain_text("いま結果が入っている卓: 1, 2")
    expect(page.locator("#kept-2")).to_contain_text("確認待ち")  # the page now shows table 2 as it is
    screenshot(page, f"pairing-edit-stale-{_tag(viewport)}")
    assert list(Match.objects.filter(round__event=event).values_list("pk", "player_a_id", "player_b_id")) == before
