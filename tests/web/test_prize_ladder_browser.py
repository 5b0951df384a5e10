"""In a real browser on a phone (390×844, Japanese, touch): the head judge disqualifies a semifinalist with a
prize downgrade, the final is played, and the player's page, the placings page and the prize page say the same
places and prizes in words (issue 23; CS 1.2 A, PEN-2, PEN-3, PEN-8)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, Locator, Page
from pytest_django.live_server_helper import LiveServer

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, StaffRole
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.accounts import ensure_first_organizer
from taikai.judging.models import Penalty
from taikai.judging.services import prizes
from taikai.judging.services.prizes import publish_prizes
from tests.factories import A_WINS, PHONE, make_event, screenshot, staff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RANKS = [("優勝", 1, 1, False), ("準優勝", 2, 2, False), ("ベスト4", 3, 4, True), ("5-8位", 5, 8, True)]


def _phone(browser: Browser, live_server: LiveServer, user: User | None = None) -> Page:
    ctx = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    ctx.set_default_timeout(30_000)  # slow under load
    if user is not None:
        client = Client()
        client.force_login(user)
        ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}])
    return ctx.new_page()


def _semifinals() -> tuple[Event, User, User, list[Match]]:
    ensure_first_organizer()
    organizer = get_user_model().objects.get(username="organizer")
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=3, top_cut=4)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    prizes.set_prize_ranks(event, by=Staff(organizer), ranks=RANKS)
    publish_prizes(event, by=Staff(organizer))  # the public pages say prizes once published
    for _ in range(4):  # three Swiss rounds, then the top cut
        rnd = round_services.pair_next_round(event, by=Staff(organizer))
        if rnd.stage == "elimination":
            break
        for m in rnd.matches.filter(is_bye=False):
            result_services.enter_result(m, by=Staff(organizer), result=A_WINS())
    semis = list(rnd.matches.select_related("player_a", "player_b").order_by("table"))
    return event, organizer, head, semis


def _row(page: Page, name: str) -> Locator:
    return page.locator("table.standings tbody tr").filter(has=page.get_by_role("link", name=name, exact=True))


def _disqualified_with_downgrade(
    browser: Browser, live_server: LiveServer, event: Event, head: User, cheat: Player
) -> Page:
    """The head judge's phone, after disqualifying ``cheat`` with one downgrade step (PEN-2)."""
    judge = _phone(browser, live_server, head)
    judge.goto(f"{live_server.url}/events/{event.pk}/judging/penalties/new/?player={cheat.pk}&infraction=INF-9")
    judge.select_option("select[name=rung]", "dq-downgrade")
    judge.fill("input[name=reason]", "カードの操作。悪質性は中程度")
    judge.fill("input[name=downgrade_steps]", "1")
    with judge.expect_navigation():
        judge.get_by_role("button", name="罰則を与える").tap()
    screenshot(judge, "prize-ladder-dq-confirm-390")
    with judge.expect_navigation():
        judge.locator(".confirm-step button.primary").tap()  # a DQ asks once more (head judge, on the phone)
    pen = Penalty.objects.get(player=cheat)
    assert pen.rung == "dq-downgrade" and pen.decided_place == 3  # ベスト4 secured, not the seed
    screenshot(judge, "prize-ladder-dq-issued-390")
    return judge


def _every_page_reads(
    browser: Browser,
    live_server: LiveServer,
    event: Event,
    expected: dict[str, tuple[str | None, str, str]],
    cheat: Player,
    champion: Player,
) -> int:
    """The placings and each player's page say ``expected`` (place, stage, prize); the placings page's width."""
    visitor = _phone(browser, live_server)
    visitor.goto(f"{live_server.url}/e/{event.pk}/standings/")
    assert visitor.locator("table.standings th", has_text="賞").count() == 1
    for name, (place, stage, prize) in expected.items():
        row = _row(visitor, name)
        cells = row.locator("td")
        if place is not None:
            assert cells.nth(0).inner_text() + "位" == place, name
        assert row.locator("td.stage-name").inner_text() == stage, name
        assert row.locator("td.prize-name").inner_text() == prize, name
    assert _row(visitor, cheat.name).locator(".badge.bad").inner_text() == "失格"
    width: int = visitor.evaluate("document.documentElement.scrollWidth")
    screenshot(visitor, "prize-ladder-placings-390")

    for name, (place, stage, prize) in expected.items():
        pid = Player.objects.get(event=event, name=name).pk
        visitor.goto(f"{live_server.url}/e/{event.pk}/players/{pid}/")
        card = visitor.locator(".card.placing")
        text = card.inner_text()
        # a bracket place is said as its stage (優勝, ベスト4; issue 24), a place from the Swiss rounds as 「4位」
        said = stage or place
        assert prize in text and (said is None or said in text), (name, text)
        if name == cheat.name:
            assert "失格" in text
            screenshot(visitor, "prize-ladder-player-dq-390")
        elif name == champion.name:
            screenshot(visitor, "prize-ladder-player-champion-390")
    return width


def test_a_semifinal_dq_with_downgrade_then_the_final_reads_the_same_on_every_page(
    browser: Browser, live_server: LiveServer
) -> None:
    # PEN-2, PEN-3, PEN-8, CS 1.2 A
    event, organizer, head, (semi1, semi2) = _semifinals()
    cheat = semi1.player_a
    judge = _disqualified_with_downgrade(browser, live_server, event, head, cheat)

    # The other semifinal, then the final (the DQ forfeited the first semifinal to its opponent).
    result_services.enter_result(semi2, by=Staff(organizer), result=A_WINS())
    final = round_services.pair_next_round(event, by=Staff(organizer)).matches.select_related("player_a", "player_b")
    match = final.get()
    result_services.enter_result(match, by=Staff(organizer), result=A_WINS())
    champion, runner_up, semi_loser = match.player_a, match.player_b, semi2.player_b
    swiss5 = Player.objects.get(pk=int(prizes.final_order(event)[3][0]))
    expected = {
        champion.name: ("1位", "優勝", "優勝"),
        runner_up.name: ("2位", "準優勝", "準優勝"),
        semi_loser.name: ("3位", "ベスト4", "ベスト4"),
        swiss5.name: ("4位", "", "ベスト4"),  # promoted into the vacated ベスト4 place (CS 1.2 繰り上げ)
        cheat.name: (None, "", "5-8位 (受賞資格降格)"),
    }

    width = _every_page_reads(browser, live_server, event, expected, cheat, champion)

    judge.goto(f"{live_server.url}/events/{event.pk}/judging/prizes/")
    table = judge.locator("table.prizes tbody tr")
    by_prize = {
        table.nth(i).locator("td").nth(0).inner_text(): table.nth(i).locator("td").nth(2).inner_text()
        for i in range(table.count())
    }
    assert by_prize["優勝"].strip() == champion.name and by_prize["準優勝"].strip() == runner_up.name
    assert set(re.split(r"\s*\n\s*", by_prize["ベスト4"].strip())) == {semi_loser.name, swiss5.name}
    assert cheat.name in by_prize["5-8位"] and "受賞資格降格" in by_prize["5-8位"]
    assert judge.locator(".playoff-needed").count() == 0
    screenshot(judge, "prize-ladder-prize-page-390")
    assert width <= PHONE["width"] + 1  # the placings table scrolls inside its own box, never the page
