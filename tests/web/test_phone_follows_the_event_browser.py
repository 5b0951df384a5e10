"""Issue 24, players' phones 1–5, in the browser: phones (390×844, ja-JP, touch) opened before round 1 is paired
follow the event live, through the Swiss rounds, the top cut and the final, to the end, with the opponent's phone,
the projector and the judges acting at the same time. Nothing here reloads a page; every state arrives by the
event stream (tests/web/conftest.py's real ASGI server), and the organizer, the judges and the desk act through
the real services.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, Round, StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import links as link_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.services import penalties as penalty_services
from tests.factories import PHONE, PROJECTOR, make_event, screenshot, staff
from tests.servers import VenueServer
from tests.web.test_phone_browser import organizer  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
NOT_OUT = "次のラウンドの組み合わせはまだ出ていません"


@pytest.fixture
def phone(browser: Browser, venue: VenueServer) -> Iterator[Callable[[str], Page]]:
    """phone(token): the player's page on a touch phone of its own (its own context: storage, service worker)."""
    contexts: list[BrowserContext] = []

    def open_page(token: str) -> Page:
        ctx = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(f"{venue.url}/p/{token}/")
        page.wait_for_function("window.taikaiLive !== undefined")
        return page

    yield open_page
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def projector(browser: Browser, venue: VenueServer) -> Iterator[Page]:
    ctx = browser.new_context(viewport=PROJECTOR, locale="ja-JP")
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    ctx.close()


def _stream_opened() -> None:
    time.sleep(1.0)  # the pages' EventSource connects after load


def _match_of(player: Player, number: int) -> Match:
    rnd = Round.objects.get(event_id=player.event_id, number=number)
    m = (rnd.matches.filter(player_a=player) | rnd.matches.filter(player_b=player)).get()
    return Match.objects.select_related("round", "player_a", "player_b").get(pk=m.pk)


def _opponent(m: Match, player: Player) -> Player:
    return m.player_b if m.player_a_id == player.pk else m.player_a


def _side_wins(winner: Player) -> Any:
    """A result where ``winner`` wins 2–0, for a table entered by the desk."""
    return lambda m: A_WINS if m.player_a_id == winner.pk else ResultInput(({"winner": "B"}, {"winner": "B"}))


def _desk_enters_the_rest(rnd: Round, by: Staff) -> None:
    """The desk enters every table still open from its slip (player A wins 2–0)."""
    for m in rnd.matches.filter(is_bye=False).exclude(status=Match.Status.CONFIRMED):
        result_services.enter_result(Match.objects.get(pk=m.pk), by=by, result=A_WINS)


def _tap_win(page: Page) -> None:
    page.locator("form.report button[value=win-2-0]").tap()
    expect(page.locator("#answer")).to_contain_text("結果を送りました")


def _clock_counts_down(page: Page) -> None:
    clock = page.locator("#clock")
    expect(clock).to_have_text(re.compile(r"^\d{1,2}:[0-5]\d$"), timeout=8000)
    first = clock.inner_text()
    expect(clock).not_to_have_text(first, timeout=4000)  # it runs: not a dead --:--


def _round_one(event: Event, by: Staff, pages: dict[int, Page], projector: Page) -> tuple[Player, Player]:
    """Table 1's players (A, B): their phones follow round 1 to its confirmed result."""
    # Round 1 is paired and started: the table and its clock arrive, and the clock runs (item 1).
    rnd1 = round_services.pair_next_round(event, by=by)
    m1 = Match.objects.select_related("player_a", "player_b").get(round=rnd1, table=1)
    a, b = m1.player_a, m1.player_b
    pa, pb = pages[a.pk], pages[b.pk]
    expect(pa.locator(".match-line .table")).to_have_text(f"{m1.table}番卓", timeout=8000)
    expect(pa.locator(".opponent")).to_contain_text(b.name)
    clock_services.start_round(rnd1, by=by)
    _clock_counts_down(pa)
    _clock_counts_down(pb)
    expect(projector.locator("#proj-title")).to_contain_text("第1ラウンド", timeout=8000)

    # A starts the duel-by-duel form; B's one-tap report, the confirm button and the final result still arrive
    # around it, and what A tapped stays (item 2).
    pa.locator("details.more summary").tap()
    pa.locator("fieldset.pduel").first.get_by_text("自分の勝ち").tap()
    _stream_opened()
    pb.locator("form.report button[value=loss-0-2]").tap()
    expect(pb.locator("#answer")).to_contain_text("結果を送りました")
    expect(pa.locator("#match-status")).to_contain_text("対戦相手の報告", timeout=5000)
    expect(pa.locator("#match-status")).to_contain_text("勝ち 2–0")
    expect(pa.locator("details.more")).to_have_attribute("open", "")
    assert pa.locator("fieldset.pduel").first.locator("input[value=A]").is_checked()
    screenshot(pa, "issue24-phone-confirm-while-form-open")
    pa.locator("button[name=confirm]").tap()
    expect(pa.locator("#answer")).to_have_text("結果を確認しました。")
    expect(pb.locator("#match-status")).to_contain_text("確定した結果: 負け 0–2", timeout=5000)
    expect(pa.locator("#match-status")).to_contain_text("確定した結果: 勝ち 2–0")
    expect(pa.locator("#match-status")).to_contain_text("次のラウンドの卓は")
    _desk_enters_the_rest(rnd1, by)
    return a, b


def _round_two(event: Event, by: Staff, pages: dict[int, Page], a: Player, b: Player) -> None:
    pa, pb = pages[a.pk], pages[b.pk]
    # Round 2: A wins again, B loses again (the desk enters B's table); A's opponent confirms from their phone.
    rnd2 = round_services.pair_next_round(event, by=by)
    clock_services.start_round(rnd2, by=by)
    m2a, m2b = _match_of(a, 2), _match_of(b, 2)
    expect(pa.locator(".round")).to_have_text("第2ラウンド", timeout=8000)
    expect(pa.locator(".opponent")).to_contain_text(_opponent(m2a, a).name)
    _clock_counts_down(pa)
    opp2 = pages[_opponent(m2a, a).pk]
    _tap_win(pa)
    opp2.locator("button[name=confirm]").tap()
    expect(pa.locator("#match-status")).to_contain_text("確定した結果: 勝ち 2–0", timeout=5000)
    result_services.enter_result(Match.objects.get(pk=m2b.pk), by=by, result=_side_wins(_opponent(m2b, b))(m2b))
    expect(pb.locator("#match-status")).to_contain_text("確定した結果: 負け 0–2", timeout=5000)
    _desk_enters_the_rest(rnd2, by)


def _the_top_cut(event: Event, by: Staff, pages: dict[int, Page], a: Player, b: Player) -> None:
    pa, pb = pages[a.pk], pages[b.pk]
    # The top cut: A plays on; B's part is over, and B's page says so instead of waiting (item 4).
    semis = round_services.pair_next_round(event, by=by)
    clock_services.start_round(semis, by=by)
    expect(pb.locator("#finish")).to_contain_text("予選（スイスドロー）で大会を終えました", timeout=8000)
    expect(pb.locator("#player-live")).not_to_contain_text(NOT_OUT)
    expect(pb.locator("#drop-card")).to_have_count(0)
    screenshot(pb, "issue24-phone-out-of-the-cut")
    semi = _match_of(a, 3)
    expect(pa.locator(".round")).to_have_text("準決勝", timeout=8000)  # the bracket round by its name (item 18)
    _clock_counts_down(pa)
    semi_opp = pages[_opponent(semi, a).pk]
    _tap_win(pa)
    semi_opp.locator("button[name=confirm]").tap()
    expect(semi_opp.locator("#finish")).to_contain_text("決勝トーナメントで敗退しました", timeout=8000)
    expect(semi_opp.locator("#finish .place")).to_have_text("ベスト4")
    expect(semi_opp.locator("#match-status")).not_to_contain_text("次のラウンドの卓は")
    expect(semi_opp.locator("#drop-card")).to_have_count(0)
    screenshot(semi_opp, "issue24-phone-best4")
    expect(pa.locator("#match-status")).to_contain_text("次のラウンドの卓は")  # A is still in: waits for the final
    _desk_enters_the_rest(semis, by)


def _the_final(event: Event, by: Staff, pages: dict[int, Page], a: Player, b: Player, projector: Page) -> None:
    pa, pb = pages[a.pk], pages[b.pk]
    # The final: A against its opponent's phone; then every page says where it ended.
    final = round_services.pair_next_round(event, by=by)
    clock_services.start_round(final, by=by)
    fm = _match_of(a, 4)
    expect(pa.locator(".round")).to_have_text("決勝", timeout=8000)
    _clock_counts_down(pa)
    finalist = pages[_opponent(fm, a).pk]
    finalist.locator("form.report button[value=loss-0-2]").tap()
    expect(pa.locator(".card.confirm")).to_contain_text("勝ち 2–0", timeout=5000)
    pa.locator("button[name=confirm]").tap()
    expect(pa.locator("#finish")).to_contain_text("優勝おめでとうございます", timeout=8000)
    expect(pa.locator("#finish .place")).to_have_text("優勝")
    expect(finalist.locator("#finish .place")).to_have_text("準優勝", timeout=8000)
    expect(finalist.locator("#finish")).to_contain_text("大会は終了しました")
    expect(pb.locator("#finish")).to_contain_text("大会は終了しました", timeout=8000)
    expect(pb.locator("#finish .place")).to_have_text(re.compile(r"^\d位$"))
    for page in (pa, finalist, pb):
        expect(page.locator("#player-live")).not_to_contain_text(NOT_OUT)
        expect(page.locator("#player-live")).not_to_contain_text("次のラウンドの卓は")
        expect(page.locator("#drop-card")).to_have_count(0)
    expect(projector.locator("#proj-title")).to_contain_text("最終順位", timeout=8000)
    screenshot(pa, "issue24-phone-champion")
    screenshot(finalist, "issue24-phone-runner-up")
    screenshot(projector, "issue24-projector-final-placings")
    # "Why am I ranked here", from the champion's page, leads with the final placing.
    pa.locator("#finish a").tap()
    expect(pa.locator("#final-placing")).to_contain_text("最終順位: 優勝")
    screenshot(pa, "issue24-phone-champion-path")
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED


def test_phones_opened_before_pairing_follow_the_event_to_the_final_placings(
    organizer: User,  # noqa: F811
    phone: Callable[[str], Page],
    projector: Page,
    venue: VenueServer,
) -> None:
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, swiss_rounds=2, top_cut=4)
    by = Staff(organizer)
    tokens = {p.pk: link_services.issue_access(p, by=by) for p in event.players.all()}
    players = list(event.players.order_by("pk"))
    # Every player's phone is opened at registration, long before round 1.
    pages = {p.pk: phone(tokens[p.pk]) for p in players}
    projector.goto(f"{venue.url}/e/{event.pk}/projector/")
    for page in pages.values():
        expect(page.locator("#player-live")).to_contain_text(NOT_OUT)
        expect(page.locator("#clock")).to_have_count(0)
    screenshot(pages[players[0].pk], "issue24-phone-before-pairing")
    _stream_opened()

    a, b = _round_one(event, by, pages, projector)
    _round_two(event, by, pages, a, b)
    _the_top_cut(event, by, pages, a, b)
    _the_final(event, by, pages, a, b, projector)


def test_a_replaced_or_revoked_link_switches_its_open_page_to_the_explanation(
    organizer: User,  # noqa: F811
    phone: Callable[[str], Page],
) -> None:
    event = make_event(organizer, 4)
    by = Staff(organizer)
    rnd = round_services.pair_next_round(event, by=by)
    m = Match.objects.select_related("player_a", "player_b").get(round=rnd, table=1)
    pa = phone(link_services.issue_access(m.player_a, by=by))
    pb = phone(link_services.issue_access(m.player_b, by=by))
    _stream_opened()
    new_token = link_services.issue_access(m.player_a, by=by)  # the desk prints A a new slip
    expect(pa.locator("h1")).to_have_text("この個人用リンクは使えません", timeout=8000)
    expect(pa.locator("body")).to_contain_text("新しい")
    screenshot(pa, "issue24-phone-link-replaced")
    expect(pb.locator(".opponent")).to_contain_text(m.player_a.name)  # the opponent's page is untouched
    fresh = phone(new_token)
    expect(fresh.locator(".opponent")).to_contain_text(m.player_b.name)
    _stream_opened()
    link_services.revoke_access(m.player_b, by=by)
    expect(pb.locator("h1")).to_have_text("この個人用リンクは使えません", timeout=8000)
    expect(fresh.locator(".opponent")).to_contain_text(m.player_b.name)


def test_a_duel_loss_and_a_disqualification_are_said_on_both_phones(
    organizer: User,  # noqa: F811
    phone: Callable[[str], Page],
    venue: VenueServer,
    browser: Browser,
) -> None:  # PEN-1
    from django.test import Client

    event = make_event(organizer, 4)
    by = Staff(organizer)
    rnd = round_services.pair_next_round(event, by=by)
    clock_services.start_round(rnd, by=by)
    m = Match.objects.select_related("player_a", "player_b").get(round=rnd, table=1)
    pa = phone(link_services.issue_access(m.player_a, by=by))
    pb = phone(link_services.issue_access(m.player_b, by=by))
    judge, head = staff(event, "floor", StaffRole.Role.JUDGE), staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    client = Client()
    client.force_login(head)
    judge_ctx = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    judge_ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": venue.url}])
    queue = judge_ctx.new_page()
    queue.goto(f"{venue.url}/events/{event.pk}/judging/")
    _stream_opened()
    # A floor judge gives A a duel loss during duel 1 (PEN-1): both phones say it in words, from their side.
    penalty_services.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-14", prior_duels=[])
    expect(pa.locator("#decided")).to_contain_text(
        "第1デュエルは、あなたへの罰則（デュエルの敗北）によりあなたの負けです。", timeout=5000
    )
    expect(pb.locator("#decided")).to_contain_text(
        "第1デュエルは、対戦相手への罰則（デュエルの敗北）によりあなたの勝ちです。", timeout=5000
    )
    expect(pa.locator("form.report button[value=win-2-0]")).to_have_count(0)  # the one taps keep the duel
    screenshot(pa, "issue24-phone-duel-loss-penalised")
    screenshot(pb, "issue24-phone-duel-loss-opponent")
    # Then the head judge disqualifies A: the table is decided for B, said on both phones.
    penalty_services.issue_penalty(event, by=Staff(head), player=m.player_a, infraction="INF-19")
    expect(pb.locator("#decided")).to_contain_text("対戦相手の失格により、このマッチはあなたの勝ちです。", timeout=5000)
    expect(pb.locator("#match-status")).to_contain_text("確定した結果: 勝ち")
    expect(pa.locator("#decided")).to_contain_text("あなたの失格により、このマッチはあなたの負けです。", timeout=5000)
    expect(pa.locator("#player-live")).to_contain_text("失格")
    expect(pa.locator("#drop-card")).to_have_count(0)  # nothing left to drop from
    screenshot(pb, "issue24-phone-win-by-dq")
    screenshot(pa, "issue24-phone-disqualified")
    judge_ctx.close()
