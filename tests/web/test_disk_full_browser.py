"""In a real browser on a phone (390×844), with the database really full (issue 16): the organizer signs in, reads
the event's pages, registers a late arrival at the desk and is told clearly, in Japanese and then in English,
that the disk is full and nothing was saved; a visitor's pairings page reads as usual."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from taikai.events.models import Player
from tests.factories import PHONE, NewPage, SitePage, World, build_world, screenshot
from tests.security.fulldisk import FullDisk, full_disk_fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a long enough password"


@pytest.fixture
def full() -> Iterator[FullDisk]:
    yield from full_disk_fixture()


@pytest.fixture
def world(transactional_db: None, settings: Settings) -> World:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "taikai.security.hashers.PinHasher"]
    built = build_world()
    built.organizer.set_password(PASSWORD)
    built.organizer.save()
    return built


def _register_late_arrival(page: SitePage, event: int) -> None:
    page.goto(f"{page.base_url}/events/{event}/players/")
    page.fill("input[name=reg-name]", "遅刻 太郎")
    page.fill("input[name=reg-card_game_id]", "0099000001")
    page.locator("input[name=reg-card_game_id]").press("Enter")


def test_the_organizer_signs_in_on_a_full_disk_and_is_told_clearly(
    new_page: NewPage, world: World, full: FullDisk
) -> None:
    full.fill()
    event = world.event.pk
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", "org_a")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    expect(page.locator("h1")).to_have_text("ダッシュボード")
    page.goto(f"{page.base_url}/events/{event}/rounds/1/")
    expect(page.locator("body")).to_contain_text(world.match().player_a.name)  # the pairings read as usual
    players = Player.objects.count()

    _register_late_arrival(page, event)
    expect(page.locator("h1")).to_have_text("サーバーのディスクがいっぱいです")
    expect(page.locator("#error-page")).to_contain_text("何も保存されていません")
    expect(page.locator("#error-page")).to_contain_text("ページの表示はできます")
    expect(page.locator("#error-page dd code").first).to_be_visible()  # where the data folder is (staff)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]  # nothing runs off the side of the phone (the long folder path wraps)
    font = page.locator("#error-page p").first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert font >= 14
    screenshot(page, "disk-full-ja-phone")

    page.click("a.lang[lang=en]")
    _register_late_arrival(page, event)
    expect(page.locator("h1")).to_have_text("The server's disk is full")
    expect(page.locator("#error-page")).to_contain_text("Nothing was saved")
    screenshot(page, "disk-full-en-phone")
    assert Player.objects.count() == players  # nothing was saved

    visitor = new_page(viewport=PHONE, locale="ja-JP")
    visitor.goto(f"{visitor.base_url}/e/{event}/pairings/")
    expect(visitor.locator("body")).to_contain_text(world.match().player_a.name)
