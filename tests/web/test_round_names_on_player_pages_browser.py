"""Issue 24, item 18 on the players' side, in the browser at 390×844 (ja-JP, touch): the "why am I ranked here"
page and the player's own page call each round by its one name (第1ラウンド in the Swiss rounds, 準々決勝 /
準決勝 / 決勝 in the bracket, from ``events.round_words``), never 「7 (決勝トーナメント)」 or 第Nラウンド for a
bracket round; and the round-by-round table fits a phone without scrolling sideways, and still reads as a table
on the 1920 px projector."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, Round
from taikai.events.services import links as link_services
from taikai.events.services import rounds as round_services
from tests.events.test_organizer_desk import _play
from tests.factories import PHONE, PROJECTOR, make_event, screenshot
from tests.servers import VenueServer
from tests.web.test_phone_browser import organizer  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SWISS, BRACKET = ["第1ラウンド", "第2ラウンド"], ["準々決勝", "準決勝", "決勝"]
LONG_NAME = "シュヴァルツェンベルク＝長谷川 ひかり"  # a long opponent's name must wrap, not widen the page


class OpenPage(Protocol):
    """The ``phone`` fixture: ``phone(path, viewport=PHONE)``, a page at the venue server."""

    def __call__(self, path: str, viewport: ViewportSize = ...) -> Page: ...


@pytest.fixture
def phone(browser: Browser, venue: VenueServer) -> Iterator[OpenPage]:
    contexts: list[BrowserContext] = []

    def open_page(path: str, viewport: ViewportSize = PHONE) -> Page:
        touch = viewport == PHONE
        ctx = browser.new_context(viewport=viewport, locale="ja-JP", is_mobile=touch, has_touch=touch)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(f"{venue.url}{path}")
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()


def _pair(event: Event, organizer: User) -> Round:  # noqa: F811
    return round_services.pair_next_round(event, by=Staff(organizer), seed=3)


def _final_match(event: Event) -> Match:
    final = event.rounds.order_by("-number").first()
    assert final is not None
    return final.matches.select_related("player_a", "player_b").get()


def _cell_texts(page: Page, column: int) -> list[str]:
    return [t.strip() for t in page.locator(f"table.path tbody td:nth-child({column})").all_inner_texts()]


def _no_sideways_scroll(page: Page) -> None:
    widths = page.evaluate(
        """() => ({page: document.documentElement.scrollWidth, view: window.innerWidth,
                   wrap: [...document.querySelectorAll('.table-wrap')].map(w => w.scrollWidth - w.clientWidth)})"""
    )
    assert widths["page"] <= widths["view"], widths
    assert all(extra <= 0 for extra in widths["wrap"]), widths


def test_a_finalists_path_names_every_round_and_fits_a_phone(phone: OpenPage, organizer: User) -> None:  # noqa: F811
    event = make_event(organizer, 12, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=8)
    for _ in range(4):
        _play(event, organizer, _pair(event, organizer))
    _pair(event, organizer)  # the final, being played
    final = _final_match(event)
    me, opponent = final.player_a, final.player_b
    assert me is not None and opponent is not None
    Player.objects.filter(pk=opponent.pk).update(name=LONG_NAME)

    page = phone(f"/e/{event.pk}/players/{me.pk}/")
    assert _cell_texts(page, 1) == [*SWISS, *BRACKET]
    html = page.content()
    assert "(決勝トーナメント)" not in html and "（決勝トーナメント）" not in html
    assert _cell_texts(page, 2)[-1] == LONG_NAME and _cell_texts(page, 3)[-1] == "対戦中"
    _no_sideways_scroll(page)
    # Each row reads on its own: the round and the result on one line, the opponent's numbers labelled.
    row = page.locator("table.path tbody tr").last
    round_box, result_box = row.locator("td.round").bounding_box(), row.locator("td.result").bounding_box()
    assert abs(round_box["y"] - result_box["y"]) < 4 and result_box["x"] > round_box["x"]
    assert "相手の勝ち点" in row.locator("td.opp-points").inner_text()
    screenshot(page, "player-path-390")

    projector = phone(f"/e/{event.pk}/players/{me.pk}/", PROJECTOR)
    assert projector.locator("table.path thead th").first.is_visible()
    assert _cell_texts(projector, 1) == [*SWISS, *BRACKET]
    size = projector.evaluate("getComputedStyle(document.querySelector('table.path td')).fontSize")
    assert float(size.removesuffix("px")) >= 16
    assert "相手の勝ち点" not in projector.locator("table.path tbody tr").last.inner_text()  # the heading says it
    _no_sideways_scroll(projector)
    screenshot(projector, "player-path-1920")


def test_the_players_own_page_names_the_bracket_round_it_is_playing(phone: OpenPage, organizer: User) -> None:  # noqa: F811
    event = make_event(organizer, 12, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=8)
    for _ in range(2):
        _play(event, organizer, _pair(event, organizer))
    quarterfinal = _pair(event, organizer)
    m = quarterfinal.matches.select_related("player_a").order_by("table").first()
    assert m is not None and m.player_a is not None
    page = phone(f"/p/{link_services.issue_access(m.player_a, by=Staff(organizer))}/")
    assert page.locator(".match-card .round").inner_text().strip() == "準々決勝"
    assert "第3ラウンド" not in page.locator("#player-live").inner_text()
    screenshot(page, "player-home-quarterfinal-390")

    _play(event, organizer, quarterfinal)
    _play(event, organizer, _pair(event, organizer))
    _pair(event, organizer)
    final = _final_match(event)
    assert final.player_a is not None
    page = phone(f"/p/{link_services.issue_access(final.player_a, by=Staff(organizer))}/")
    assert page.locator(".match-card .round").inner_text().strip() == "決勝"
    _no_sideways_scroll(page)
    screenshot(page, "player-home-final-390")

    swiss = make_event(organizer, 4, name="スイスだけの大会")
    rnd = _pair(swiss, organizer)
    first = rnd.matches.select_related("player_a").order_by("table").first()
    assert first is not None and first.player_a is not None
    page = phone(f"/p/{link_services.issue_access(first.player_a, by=Staff(organizer))}/")
    assert page.locator(".match-card .round").inner_text().strip() == "第1ラウンド"
