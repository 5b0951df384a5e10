"""The organizer at the desk, in a real browser on a phone and on a projector-sized screen: slips carry the
venue address, all slips print at once (with the links handed out), destroying asks first, registration closes."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import ViewportSize, expect
from pytest_django import Settings

from taikai.events.actors import Staff
from taikai.events.models import Event, Player, Round
from taikai.events.services import clock as clock_services
from taikai.events.services import events as event_services
from taikai.events.services import pairing_edits, registration
from taikai.events.services import rounds as round_services
from taikai.events.services.accounts import ensure_first_organizer
from tests.factories import PHONE, PROJECTOR, NewPage, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VENUE = "http://192.168.50.10:8000"
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(PROJECTOR, id="projector")]
NAMES = [("山田 太郎", "やまだ たろう"), ("阿部 花子", "アベ ハナコ"), ("鈴木 一郎", "すずき いちろう"), ("Alice", "")]


def _desk(new_page: NewPage, viewport: ViewportSize, checked_in: int = 0) -> tuple[Any, Event]:
    from django.contrib.auth import get_user_model

    username, password = ensure_first_organizer() or ("organizer", "")
    user = get_user_model().objects.get(username=username)
    if not password:
        password = "desk-password-42"
        user.set_password(password)
        user.save()
    event = event_services.create_event(
        by=Staff(user), name="受付テスト杯", date=dt.date(2026, 12, 6), ruleset_name="harajuku-cs-1.2"
    )
    for i, (name, kana) in enumerate(NAMES):
        p = registration.register_player(
            event, by=Staff(user), name=name, name_kana=kana, card_game_id=f"{3000000000 + i}"
        )
        if i < checked_in:
            registration.check_in(p, by=Staff(user))
    page = new_page(viewport=viewport)
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    return page, event


def _tag(viewport: ViewportSize) -> str:
    return "phone" if viewport == PHONE else "projector"


@pytest.mark.parametrize("viewport", SIZES)
def test_slips_carry_the_venue_address_not_loopback(
    new_page: NewPage, settings: Settings, viewport: ViewportSize
) -> None:
    settings.TAIKAI_LAN_URL = VENUE  # what `taikai serve` found on the venue network
    page, event = _desk(new_page, viewport)
    assert "127.0.0.1" in page.base_url or "localhost" in page.base_url
    page.goto(f"{page.base_url}/events/{event.pk}/")
    expect(page.locator("#venue-warning")).to_be_visible()  # browsed over loopback: the console says so
    expect(page.locator("#venue-address")).to_contain_text(VENUE)
    screenshot(page, f"desk-console-venue-{_tag(viewport)}")
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.fill("#checkin-search", "3000000000")
    page.press("#checkin-search", "Enter")  # one match: Enter checks in and prints the slip
    link = page.locator("#player-link")
    assert link.get_attribute("href").startswith(VENUE + "/p/")
    assert "127.0.0.1" not in page.locator(".slip").inner_text()
    screenshot(page, f"desk-slip-{_tag(viewport)}")


@pytest.mark.parametrize("viewport", SIZES)
def test_all_slips_print_at_once(new_page: NewPage, settings: Settings, viewport: ViewportSize) -> None:
    settings.TAIKAI_PUBLIC_URL = "https://taikai.example.jp"
    page, event = _desk(new_page, viewport, checked_in=3)
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.click("#print-all-slips")  # nothing stops working, so nothing to confirm (issue 22, finding 8)
    expect(page.locator(".slips .slip")).to_have_count(3)
    expect(page.locator("#slips-summary")).to_contain_text("3 人は今のリンクのまま")
    hrefs = [a.get_attribute("href") for a in page.locator(".slips a.player-link").all()]
    assert all(h.startswith("https://taikai.example.jp/p/") for h in hrefs) and len(set(hrefs)) == 3
    screenshot(page, f"desk-slips-all-{_tag(viewport)}")
    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible()  # printed without the site's navigation
    page.emulate_media(media="screen")
    # Each new link opens that player's own page.
    token_path = hrefs[0].removeprefix("https://taikai.example.jp")
    page.goto(page.base_url + token_path)
    expect(page.locator("body")).to_contain_text(event.name)


@pytest.mark.parametrize("viewport", SIZES)
def test_destroying_asks_first(new_page: NewPage, viewport: ViewportSize) -> None:
    page, event = _desk(new_page, viewport, checked_in=4)
    victim = Player.objects.get(event=event, name="Alice")
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    page.locator("#player-table tr", has_text="Alice").locator("button.delete-player").click()
    expect(page.locator("#confirm-title")).to_contain_text("Alice")
    screenshot(page, f"desk-confirm-delete-{_tag(viewport)}")
    page.click("#confirm-no")
    assert Player.objects.filter(pk=victim.pk).exists()  # cancelled: nothing changed
    page.locator("#player-table tr", has_text="Alice").locator("button.delete-player").click()
    page.click("#confirm-yes")
    expect(page.locator("ul.messages")).to_contain_text("Alice")
    assert not Player.objects.filter(pk=victim.pk).exists()

    # A re-pair names the hand-edited tables it would throw away.
    page.goto(f"{page.base_url}/events/{event.pk}/")
    page.click("text=次のラウンドを組む")
    rnd = Round.objects.get(event=event, number=1)
    table, bye = rnd.matches.order_by("is_bye")  # both changed by hand: the bye goes to another player
    hand = [(table.player_a_id, bye.player_a_id), (table.player_b_id, None)]
    pairing_edits.edit_pairing(rnd, by=Staff(event.created_by), pairs=hand)
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/1/")
    page.click("#pair-again")
    expect(page.locator(".confirm li")).to_have_count(2)
    expect(page.locator(".confirm")).to_contain_text("不戦勝")
    screenshot(page, f"desk-confirm-repair-{_tag(viewport)}")
    page.click("#confirm-no")
    assert Round.objects.get(event=event, number=1).pk == rnd.pk
    page.click("#pair-again")
    page.click("#confirm-yes")
    expect(page.locator("ul.messages")).to_contain_text("作り直しました")
    assert not Round.objects.filter(pk=rnd.pk).exists()


@pytest.mark.parametrize("viewport", SIZES)
def test_registration_closes_and_a_late_arrival_is_a_late_entry(new_page: NewPage, viewport: ViewportSize) -> None:
    page, event = _desk(new_page, viewport, checked_in=4)
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    expect(page.locator("#registration-state")).to_contain_text("受付中")
    page.click("#close-registration")
    expect(page.locator("#registration-state")).to_contain_text("受付締め切り")
    expect(page.locator("#register-form h2")).to_have_text("遅刻参加")
    screenshot(page, f"desk-registration-closed-{_tag(viewport)}")
    # A visitor's phone now says registration is closed (no form to fill in) and sends them to the desk.
    visitor = new_page(viewport=PHONE)
    visitor.goto(f"{visitor.base_url}/e/{event.pk}/register/")
    expect(visitor.locator("#registration-closed")).to_contain_text("受付は終了しました")
    expect(visitor.locator("input[name=name]")).to_have_count(0)
    screenshot(visitor, f"self-registration-closed-{_tag(viewport)}")
    assert not Player.objects.filter(card_game_id="3888888888").exists()
    # Round 1 is paired; the late arrival registers at the desk and gets the slip at once.
    round_services.pair_next_round(event, by=Staff(event.created_by))
    page.goto(f"{page.base_url}/events/{event.pk}/players/")
    expect(page.locator("#registration-state")).to_contain_text("ラウンド1")
    page.fill("input[name=reg-name]", "遅刻 次郎")
    page.fill("input[name=reg-card_game_id]", "3999999999")
    page.click("#register-form button.primary")
    expect(page.locator(".slip")).to_contain_text("遅刻 次郎")
    late = Player.objects.get(event=event, card_game_id="3999999999")
    assert late.late_entry_round == 2 and late.checked_in_at is not None
    screenshot(page, f"desk-late-entry-slip-{_tag(viewport)}")


@pytest.mark.parametrize("viewport", SIZES)
def test_round_page_print_sheets_and_clock_tools(new_page: NewPage, viewport: ViewportSize) -> None:
    page, event = _desk(new_page, viewport, checked_in=3)  # three players: a bye
    page.goto(f"{page.base_url}/events/{event.pk}/")
    page.click("text=次のラウンドを組む")
    expect(page.locator("table.pairings tbody tr")).to_have_count(1)  # the bye is not a table
    expect(page.locator("#byes")).to_contain_text("不戦勝")
    expect(page.locator("table.pairings")).to_contain_text("開始前")
    page.click("text=時計をスタート")
    page.click("button:has-text('一時停止')")
    expect(page.locator("#paused-banner")).to_have_text("一時停止中")
    page.fill("input[name=set_minutes]", "12")
    page.click("button:has-text('指定')")
    expect(page.locator("ul.messages")).to_contain_text("時間を変更しました")
    rnd = Round.objects.get(event=event, number=1)
    assert 719 <= clock_services.round_clock(rnd).remaining <= 721
    screenshot(page, f"desk-round-{_tag(viewport)}")
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/1/slips/")
    expect(page.locator(".result-slip")).to_have_count(1)
    screenshot(page, f"desk-result-slips-{_tag(viewport)}")
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/1/print/")
    assert page.locator("header.top").count() == 0  # printed pairings carry no site navigation
    screenshot(page, f"desk-pairings-print-{_tag(viewport)}")
