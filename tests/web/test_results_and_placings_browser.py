"""In a real browser: final placings after a top cut on the standings page and the projector (1920×1080), the
scorekeeper entering a round's results by keyboard, and the judge's dispute card on a phone (390×844)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import ViewportSize

from taikai.events.actors import Staff
from taikai.events.models import Match
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.accounts import ensure_first_organizer
from taikai.events.services.result_input import ResultInput
from tests.events.test_final_placings_pages import cut_event, expected_top
from tests.factories import PASSWORD, PHONE, PROJECTOR, NewPage, SitePage, make_event, screenshot, staff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _organizer() -> User:
    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


def signed_in(new_page: NewPage, user: User, viewport: ViewportSize) -> SitePage:
    client = Client()
    client.force_login(user)
    page = new_page(viewport=viewport, locale="ja-JP")
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": page.base_url}])
    return page


def test_final_placings_after_a_top_cut_list_the_runner_up_second(new_page: NewPage) -> None:
    event, swiss = cut_event(_organizer())
    top = expected_top(swiss)
    page = new_page(viewport=PROJECTOR, locale="ja-JP")
    page.goto(f"{page.base_url}/e/{event.pk}/standings/")
    rows = page.locator("table.standings tbody tr")
    assert [rows.nth(i).locator("td").nth(2).inner_text() for i in range(4)] == top
    assert [rows.nth(i).locator("td.stage-name").inner_text() for i in range(3)] == ["優勝", "準優勝", "ベスト4"]
    screenshot(page, "placings-standings-1920")
    page.goto(f"{page.base_url}/e/{event.pk}/projector/")
    assert page.locator(".proj-champion strong").inner_text() == top[0]
    names = page.locator(".proj-row .n").all_inner_texts()
    assert names[:2] == top[:2]
    assert page.locator(".proj-row .n").first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 30
    screenshot(page, "placings-projector-1920")
    page.goto(f"{page.base_url}/e/{event.pk}/bracket/")
    assert page.locator(".bracket-col h2").all_inner_texts() == ["準決勝", "決勝"]
    screenshot(page, "placings-bracket-1920")


def test_the_scorekeeper_enters_a_round_by_keyboard(new_page: NewPage) -> None:
    organizer = _organizer()
    event = make_event(organizer, 8)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    matches = list(rnd.matches.select_related("player_a", "player_b").order_by("table"))
    page = signed_in(new_page, organizer, {"width": 1920, "height": 1080})
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/{rnd.number}/results/")
    outcomes = ["2-0", "1-2", "2-1", "0-2"]
    keys = {"2-0": "1", "2-1": "2", "1-2": "3", "0-2": "4"}
    for m, outcome in zip(matches, outcomes, strict=True):
        assert page.evaluate("document.activeElement.id") == "table"  # the table box waits for the next slip
        page.keyboard.type(str(m.table))
        assert page.locator("#who").inner_text() == f"{m.player_a.name} – {m.player_b.name}"
        page.keyboard.press("Enter")  # no result picked yet: Enter moves on to the results
        page.keyboard.press(keys[outcome])
        with page.expect_navigation():
            page.keyboard.press("Enter")
        saved = Match.objects.get(pk=m.pk)
        assert (saved.status, f"{saved.duel_wins_a}-{saved.duel_wins_b}") == ("confirmed", outcome)
        assert f"{m.table}番卓:" in page.locator(".messages").inner_text()
    assert "の勝ち" in page.locator(".messages").inner_text()
    screenshot(page, "scorekeeper-1920")
    # A mistyped table keeps what was typed and says what is wrong.
    page.keyboard.type("77")
    page.keyboard.press("Enter")
    page.keyboard.press("1")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "77番卓はありません" in page.locator("#result-error").inner_text()
    assert page.locator("#table").input_value() == "77"


def test_the_judges_dispute_card_shows_both_reports(new_page: NewPage) -> None:
    organizer = _organizer()
    event = make_event(organizer, 8)
    staff(event, "floor", "judge")
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    m = rnd.matches.select_related("player_a", "player_b").order_by("table").first()
    a_wins = ResultInput(({"winner": "A"}, {"winner": "A"}))
    b_wins = ResultInput(({"winner": "A"}, {"winner": "B"}, {"winner": "B"}))
    result_services.report_result(m, player=m.player_a, result=a_wins)
    result_services.report_result(m, player=m.player_b, result=b_wins)
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", "floor")
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.goto(f"{page.base_url}/events/{event.pk}/judging/")
    card = page.locator("section.call.topic-disputed")
    assert card.locator(".topic").inner_text() == "結果の不一致"
    sides = card.locator(".side").all_inner_texts()
    assert f"{m.player_a.name} の勝ち 2–0" in sides[0] and f"{m.player_b.name} の勝ち 2–1" in sides[1]
    box = card.locator(".sides").bounding_box()
    assert box and box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    nav = page.locator("nav.subnav").first.inner_text()
    assert "API" not in nav and "運営画面" not in nav  # a floor judge sees the judges' tools, not the organizer's
    screenshot(page, "judge-dispute-card-390")
    card.locator("a.button.primary").click()
    page.click("text=確定した結果を入力する")
    page.locator("details.duel-detail > summary").click()  # a 2–1 with its duels: one tap past the winner buttons
    page.check("input[name=duel1][value=A]")
    page.check("input[name=duel2][value=B]")
    page.check("input[name=duel3][value=B]")
    page.click("button.primary >> text=結果を保存")
    page.goto(f"{page.base_url}/events/{event.pk}/judging/")
    assert page.locator("section.call.topic-disputed").count() == 0  # END-4: settled, the call closed
    screenshot(page, "judge-queue-after-settling-390")
