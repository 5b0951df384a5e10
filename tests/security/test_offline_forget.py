"""Issue 25 item 14: the service worker kept a re-issued link's old page offline, and nothing was cleared at
sign-out. Now a copy goes when the server answers 404/410 for its link, when the page says the event has
ended, and at sign-out (Clear-Site-Data)."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.test import Client
from playwright.sync_api import Page

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import links
from tests.factories import PHONE, VenuePage, World

CACHED = "caches.open('taikai-player-v2').then(c => c.keys()).then(k => k.map(r => r.url))"


@pytest.mark.django_db
def test_signing_out_tells_the_browser_to_clear_its_copies(world: World) -> None:
    client = Client()
    client.force_login(world.organizer)
    answer = client.post("/logout/")
    assert answer.status_code == 302 and answer["Clear-Site-Data"] == '"cache", "storage"'


@pytest.mark.django_db
def test_a_finished_events_player_page_is_not_kept_offline(world: World) -> None:
    player = world.match().player_a
    token = world.token_of(player)
    assert "X-Taikai-Offline" not in Client().get(f"/p/{token}/")
    Event.objects.filter(pk=world.event.pk).update(status=Event.Status.FINISHED)
    assert Client().get(f"/p/{token}/")["X-Taikai-Offline"] == "forget"
    assert Client().get("/p/no-such-link/").status_code == 404


def _until(page: Page, wanted: Callable[[list[str]], bool], seconds: float = 20) -> None:
    """Poll the service worker's cache (an async read: wait_for_function would take its promise as truthy)."""
    deadline = time.monotonic() + seconds
    urls: list[str] = page.evaluate(CACHED)
    while not wanted(urls):
        assert time.monotonic() < deadline, urls
        time.sleep(0.2)
        urls = page.evaluate(CACHED)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_reissued_links_old_page_is_dropped_from_the_offline_copies(venue_page: VenuePage) -> None:
    from tests.factories import build_world

    world = build_world(players=4)
    player = world.match().player_a
    old = world.token_of(player)
    page = venue_page(viewport=PHONE)
    page.goto(f"{page.base_url}/p/{old}/")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=20_000)
    page.reload()
    _until(page, lambda urls: any(old in u for u in urls))
    new = links.issue_access(player, by=Staff(world.organizer))  # the desk re-issues the link
    page.reload()  # online: the old link answers 404, and its copies go
    _until(page, lambda urls: bool(urls) and not any(old in u for u in urls))
    page.goto(f"{page.base_url}/p/{new}/")
    _until(page, lambda urls: any(new in u for u in urls))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_signing_out_clears_the_offline_copies_in_the_browser(venue_page: VenuePage) -> None:
    from tests.factories import build_world

    world = build_world(players=4)
    world.organizer.set_password("correct horse battery")
    world.organizer.save()
    token = world.token_of(world.match().player_a)
    page = venue_page(viewport=PHONE)
    page.goto(f"{page.base_url}/p/{token}/")  # a player's page looked at on the desk's phone
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=20_000)
    page.reload()
    _until(page, lambda urls: any(token in u for u in urls))
    page.goto(f"{page.base_url}/login/")
    page.fill("input[name=username]", world.organizer.username)
    page.fill("input[name=password]", "correct horse battery")
    page.click("button.primary")
    page.wait_for_load_state()
    page.click("form[action='/logout/'] button")
    page.wait_for_url("**/login/")
    _until(page, lambda urls: urls == [])
