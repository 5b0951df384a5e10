"""A dropped connection is said on the page (issue 24, item 23): when the venue server goes away, the player's
phone (390x844, ja-JP) and the projector (1920x1080) show a small banner over what they last received, and
say "connected again" when the server is back; the page itself keeps its table and opponent meanwhile."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import links
from taikai.events.services import rounds as round_services
from tests.factories import PHONE, PROJECTOR, VenuePage, make_event, screenshot
from tests.servers import VenueServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organizer(transactional_db: None) -> User:
    from django.contrib.auth import get_user_model

    from taikai.events.services.accounts import ensure_first_organizer

    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


def _round_started(organizer: User) -> tuple[Event, Match, str]:
    """Four players, round 1 started; table 1 and its first player's personal link."""
    event = make_event(organizer, 4)
    clock_services.start_round(round_services.pair_next_round(event, by=Staff(organizer)), by=Staff(organizer))
    m = Match.objects.select_related("player_a", "player_b").get(round__event=event, table=1)
    return event, m, links.issue_access(m.player_a, by=Staff(organizer))


def test_a_dropped_connection_shows_a_banner_until_the_server_is_back(
    organizer: User, venue: VenueServer, venue_page: VenuePage
) -> None:
    event, m, token = _round_started(organizer)
    phone = venue_page(viewport=PHONE, locale="ja-JP")
    phone.goto(f"{phone.base_url}/p/{token}/")
    projector = venue_page(viewport=PROJECTOR, locale="ja-JP")
    projector.goto(f"{projector.base_url}/e/{event.pk}/projector/")
    for page in (phone, projector):
        page.wait_for_function("window.taikaiLive !== undefined && window.taikaiConnection !== undefined")
        page.wait_for_timeout(1000)  # the stream is open
        expect(page.locator("#connection-banner")).to_have_count(0)  # nothing said while all is well

    venue.stop()  # the laptop or the venue Wi-Fi goes away
    for page in (phone, projector):
        expect(page.locator("#connection-banner")).to_be_visible(timeout=15_000)
        expect(page.locator("#connection-banner")).to_have_text(
            "接続が切れています。最後に受け取った内容を表示しています。再接続しています…"
        )
    expect(phone.locator(".opponent")).to_contain_text(m.player_b.name)  # the open page keeps what it showed
    box = phone.locator("#connection-banner").bounding_box()
    assert box["y"] == 0 and box["height"] < 80  # a small banner at the top, not a page over the page
    screenshot(phone, "connection-lost-phone")
    screenshot(projector, "connection-lost-projector")

    venue.start()
    for page in (phone, projector):
        expect(page.locator("#connection-banner")).to_have_text("再接続しました。", timeout=25_000)
    screenshot(phone, "connection-back-phone")
    for page in (phone, projector):
        expect(page.locator("#connection-banner")).to_be_hidden(timeout=10_000)


def test_a_stream_gone_silent_is_opened_again_and_the_page_follows_the_event(
    organizer: User, venue: VenueServer, venue_page: VenuePage
) -> None:
    # A venue router that forgot the phone's long-open stream (its NAT entry expired): the connection is dead
    # without a reset, and the browser would wait on it for ever, the page missing every result after it. The
    # server's pings stop coming, and live.js opens a new stream.
    from taikai.bench._proxy import Proxy
    from taikai.events.services import results as result_services
    from taikai.events.services.result_input import ResultInput

    event, m, token = _round_started(organizer)
    wifi = Proxy(venue.port)
    try:
        phone = venue_page(viewport=PHONE, locale="ja-JP")
        phone.goto(f"{wifi.url}/p/{token}/")
        phone.wait_for_function("window.taikaiLive !== undefined && window.taikaiLive.streaming()")
        assert wifi.go_silent(f"/api/v1/events/{event.pk}/stream".encode()) == 1
        started = time.monotonic()
        result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "A"}, {"winner": "A"})))
        expect(phone.locator("#match-status")).to_contain_text("確定した結果", timeout=20_000)
        waited = time.monotonic() - started
        assert 5 < waited < 16, waited  # not from the silent stream: from the new one, after the watchdog's 9 s
    finally:
        wifi.close()
