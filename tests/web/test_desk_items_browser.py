"""Issue 24, items 17-21 in a real browser: the organizer's pages and the projector at 1920×1080, a player's phone
(390×844, ja-JP, touch) open at the same time. The announcement reaches the projector and the phone live; the
projector shows the standings between rounds and names the bracket round; the first-run checklist and the event
form guide an organizer on an empty site; names keep one order."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import links as link_services
from taikai.events.services import rounds as round_services
from taikai.events.services.accounts import ensure_first_organizer
from tests.events.test_organizer_desk import _play
from tests.factories import PHONE, PROJECTOR, NewPage, VenuePage, make_event, screenshot
from tests.servers import VenueServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _organizer() -> User:
    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


def _session(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def _phone(browser: Browser, url: str) -> Page:
    ctx = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    ctx.set_default_timeout(30_000)
    page = ctx.new_page()
    page.goto(url)
    return page


def test_an_announcement_reaches_the_projector_and_a_phone_live(
    browser: Browser, venue: VenueServer, venue_page: VenuePage
) -> None:
    organizer = _organizer()
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=4)
    round_services.pair_next_round(event, by=Staff(organizer), seed=5)
    player = event.players.order_by("id").first()
    assert player is not None
    token = link_services.issue_access(player, by=Staff(organizer))

    console = venue_page(viewport=PROJECTOR, session=_session(organizer))
    console.context.set_default_timeout(30_000)  # slow under load
    console.goto(f"{venue.url}/events/{event.pk}/")
    projector = venue_page(viewport=PROJECTOR)
    projector.context.set_default_timeout(30_000)
    projector.goto(f"{venue.url}/e/{event.pk}/projector/")
    phone = _phone(browser, f"{venue.url}/p/{token}/")
    expect(projector.locator("#announcement")).to_be_hidden()
    expect(phone.locator("#announcement")).to_be_hidden()
    projector.wait_for_timeout(1500)  # both pages have opened the event's stream

    message = "13:00から昼休憩です。\n第2ラウンドは13:45開始"
    console.fill("#announcement-input", message)
    console.click("#announcement-send")
    expect(console.locator("#announcement-shown")).to_contain_text("昼休憩")
    for page in (projector, phone):  # live, without a reload
        expect(page.locator("#announcement-text")).to_have_text(message, timeout=15_000)
        expect(page.locator("#announcement")).to_be_visible()
    screenshot(console, "issue24-announcement-console-1920")
    screenshot(projector, "issue24-announcement-projector-1920")
    screenshot(phone, "issue24-announcement-phone-390")
    box = phone.locator("#announcement").bounding_box()
    assert box is not None and box["width"] <= PHONE["width"]  # wraps on the phone

    phone.reload()  # kept on the page
    expect(phone.locator("#announcement-text")).to_have_text(message)

    console.click("#announcement-clear")
    expect(projector.locator("#announcement")).to_be_hidden(timeout=15_000)
    expect(phone.locator("#announcement")).to_be_hidden(timeout=15_000)

    # between rounds the projector shows the standings; then the bracket is named by its round (item 18)
    _play(event, organizer, event.rounds.get(number=1))
    expect(projector.locator("#proj-title")).to_contain_text("第1ラウンド終了時点の順位", timeout=15_000)
    expect(projector.locator("#proj-list .proj-row")).to_have_count(8)
    screenshot(projector, "issue24-projector-standings-1920")
    _play(event, organizer, round_services.pair_next_round(event, by=Staff(organizer), seed=5))
    round_services.pair_next_round(event, by=Staff(organizer), seed=5)  # the top 4: the semifinals
    expect(projector.locator("#proj-title")).to_contain_text("準決勝", timeout=15_000)
    assert "決勝トーナメント人数" not in projector.locator("#proj-title").inner_text()
    screenshot(projector, "issue24-projector-semifinals-1920")
    console.goto(f"{venue.url}/events/{event.pk}/rounds/3/")
    expect(console.locator("h1")).to_contain_text("準決勝")
    screenshot(console, "issue24-round-semifinals-1920")


def test_an_empty_site_guides_the_organizer_to_a_first_event(new_page: NewPage, live_server: LiveServer) -> None:
    organizer = _organizer()
    page = new_page(viewport=PROJECTOR)
    page.context.set_default_timeout(30_000)  # slow under load
    page.context.add_cookies([{"name": "sessionid", "value": _session(organizer), "url": live_server.url}])
    page.goto(live_server.url + "/")
    expect(page.locator("#first-run li.todo")).to_have_count(4)
    screenshot(page, "issue24-first-run-1920")
    page.click("#step-cards a")
    expect(page.locator("h1")).to_have_text("カードデータ")
    page.goto(live_server.url + "/")
    page.click("#step-ruleset a")
    picker = page.locator("#ruleset-picker")
    expect(picker.locator("label:has(input[value='harajuku-cs-1.2'])")).to_contain_text("リンクモンスターは使えません")
    expect(picker.locator("label:has(input[value='modern'])")).to_contain_text("対戦時間（分）: 40 → 45")
    expect(page.locator("#no-banlists")).to_be_visible()
    page.fill("input[name=name]", "冬のCS")
    page.fill("input[name=date]", (timezone.localdate() - dt.timedelta(days=2)).isoformat())
    page.click("button.primary")
    expect(page.locator("#form-warnings")).to_contain_text("すでに過ぎています")
    screenshot(page, "issue24-event-form-warning-1920")
    page.check("input[name=accept_warnings]")
    page.click("button.primary")
    expect(page.locator("h1")).to_have_text("冬のCS")
    page.goto(live_server.url + "/")
    expect(page.locator("#step-ruleset")).to_have_class("done")
    expect(page.locator("#step-staff a")).to_be_visible()


def test_the_deck_list_and_the_pairing_editor_keep_the_pairings_order(
    new_page: NewPage, live_server: LiveServer
) -> None:
    from tests.web.test_name_order import BY_READING, PEOPLE

    organizer = _organizer()
    event = make_event(organizer, 0)
    from taikai.events.services import registration

    for k, (name, kana) in enumerate(PEOPLE):
        p = registration.register_player(
            event, by=Staff(organizer), name=name, name_kana=kana, card_game_id=f"{2100000000 + k}"
        )
        registration.check_in(p, by=Staff(organizer))
    round_services.pair_next_round(event, by=Staff(organizer), seed=1)
    page = new_page(viewport=PROJECTOR)
    page.context.set_default_timeout(30_000)  # slow under load
    page.context.add_cookies([{"name": "sessionid", "value": _session(organizer), "url": live_server.url}])
    page.goto(f"{live_server.url}/events/{event.pk}/decks/")
    names = [n for n in page.locator("table tbody tr td:first-child").all_inner_texts() if n.strip()]
    assert [n.split("\n")[0].strip() for n in names][: len(BY_READING)] == BY_READING
    screenshot(page, "issue24-deck-list-order-1920")
    page.goto(f"{live_server.url}/events/{event.pk}/rounds/1/edit/")
    assert page.locator("select").first.locator("option").all_inner_texts() == BY_READING
    screenshot(page, "issue24-pairing-editor-order-1920")
