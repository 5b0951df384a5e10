"""Issue 24, items 10-14, on phones (390x844, ja-JP, touch, taps) with the judge and both players of the table
open at once, on the venue server (the live stream): the judge settles a disputed table with one thumb, runs the
time procedure and takes back a mis-tap before it is the table's result, corrects their own entry, keeps a typed
ruling through refusals, and the head judge decides an appeal in words."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Browser, Page, expect

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, StaffRole
from taikai.events.services import clock as clock_services
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.links import issue_access
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import Appeal, JudgeCall, Penalty
from taikai.judging.services import appeals, calls
from tests.factories import PHONE, SitePage, make_event, on_server, screenshot, staff
from tests.servers import VenueServer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALL_TARGETS = """() => {
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')) {
    const target = el.matches('input[type=radio], input[type=checkbox]') ? (el.closest('label') || el) : el;
    const r = target.getBoundingClientRect();
    if (!el.offsetParent || r.width === 0 || r.height === 0) continue;  // folded away: not a target now
    if (r.height < 44) small.push(el.outerHTML.slice(0, 90));
  }
  return small;
}"""


@pytest.fixture
def organizer(transactional_db: None) -> User:
    from django.contrib.auth import get_user_model

    from taikai.events.services.accounts import ensure_first_organizer

    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


def _event(organizer: User) -> tuple[Event, dict[int, str], list[Match]]:
    event = make_event(organizer, 4)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    links = {p.pk: issue_access(p, by=Staff(organizer)) for p in event.players.all()}
    tables = list(rnd.matches.filter(is_bye=False).select_related("player_a", "player_b").order_by("table"))
    return event, links, tables


def _phone(browser: Browser, venue: VenueServer, *, user: User | None = None, token: str = "") -> SitePage:
    ctx = browser.new_context(viewport=PHONE, locale="ja-JP", is_mobile=True, has_touch=True)
    ctx.set_default_timeout(20_000)  # a shared machine under load
    if user is not None:
        client = Client()
        client.force_login(user)
        ctx.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": venue.url}])
    page = on_server(ctx.new_page(), venue.url)
    if token:
        page.goto(f"{venue.url}/p/{token}/")
        page.wait_for_function("window.taikaiLive !== undefined")
    return page


def _tap(page: Page, selector: str) -> None:
    with page.expect_navigation():
        page.locator(selector).first.tap()


def _stream_connects() -> None:
    time.sleep(1.0)  # the pages' EventSource connects after load


def test_the_judge_settles_a_disputed_table_with_one_thumb_while_both_players_watch(
    browser: Browser, venue: VenueServer, organizer: User
) -> None:
    # END-4: the players' reports disagree; the judge settles the table at the table, on the phone
    event, links, tables = _event(organizer)
    m, other = tables[0], tables[1]
    floor = staff(event, "floor", StaffRole.Role.JUDGE)
    judge = _phone(browser, venue, user=floor)
    judge.goto(f"{venue.url}/events/{event.pk}/judging/")
    judge.wait_for_function("window.taikaiLive !== undefined")
    a, b = _phone(browser, venue, token=links[m.player_a_id]), _phone(browser, venue, token=links[m.player_b_id])
    _stream_connects()
    a.locator("form.report button[value=win-2-0]").tap()
    expect(a.locator("#match-status")).to_contain_text("対戦相手の確認を待っています")
    b.locator("form.report button[value=win-2-1]").tap()  # B says B won: the reports disagree
    # item 12: the flag reaches the judge's open queue by itself
    expect(judge.locator("section.topic-disputed")).to_be_visible(timeout=8000)
    # item 12: an intentional draw reported over a 1-0 lead at the other table reaches it too
    with pytest.raises(ServiceError):
        over_a_lead = ResultInput(({"winner": "A"},), basis="intentional-draw")
        result_services.report_result(other, player=other.player_b, result=over_a_lead)
    expect(judge.locator("section.topic-possible-misreport")).to_contain_text("合意の引き分け", timeout=8000)
    expect(judge.locator("section.topic-possible-misreport")).to_contain_text("1–0")
    screenshot(judge, "judge-queue-flags-390")

    _tap(judge, "section.topic-disputed a.button")
    _tap(judge, "a.button.primary[href$='/result/']")  # 「決着した結果を入力」
    # item 10: the winner buttons on the first screen, every target a thumb's size, the details folded
    buttons = judge.locator(".winner-grid button")
    assert buttons.count() >= 4
    for i in range(buttons.count()):
        box = buttons.nth(i).bounding_box()
        assert box["height"] >= 44 and box["y"] + box["height"] <= PHONE["height"]
    assert judge.evaluate(SMALL_TARGETS) == []
    height = judge.evaluate("document.documentElement.scrollHeight")
    print("judge result page height", height)
    assert height <= 1100, height  # was 2,157-2,273 px with the whole duel-by-duel form open
    screenshot(judge, "judge-result-one-thumb-390")
    judge.locator("details.duel-detail > summary").tap()  # the duel-by-duel form, one tap away
    expect(judge.locator("input[name=duel1][value=A]")).to_be_visible()
    assert judge.evaluate(SMALL_TARGETS) == []  # open, its choices are thumb-sized too
    judge.locator("details.duel-detail > summary").tap()
    _tap(judge, f".winner-grid button:has-text('{m.player_a.name} の勝ち 2–1')")
    expect(judge.locator("#confirm")).to_contain_text(f"{m.player_a.name} の勝ち 2–1")
    screenshot(judge, "judge-result-confirm-390")
    _tap(judge, "#confirm button.primary")
    expect(judge.locator(".messages")).to_contain_text("結果を保存しました")
    decided = Match.objects.get(pk=m.pk)
    assert decided.status == Match.Status.CONFIRMED and (decided.duel_wins_a, decided.duel_wins_b) == (2, 1)
    # both players' open pages follow: the settled result, without a reload
    expect(a.locator("#match-status")).to_contain_text("確定した結果", timeout=8000)
    expect(b.locator("#match-status")).to_contain_text("確定した結果", timeout=8000)
    screenshot(b, "judge-settled-player-b-390")
    assert JudgeCall.objects.get(match=m, topic="disputed").status == JudgeCall.Status.CLOSED


def test_the_time_procedure_takes_back_a_mis_tap_and_the_judge_corrects_their_own_entry(
    browser: Browser, venue: VenueServer, organizer: User
) -> None:
    # TIME-S-1, TIME-S-2, TIME-S-4: time in duel 2 after A won duel 1; END-3: the judge corrects their own entry
    event, links, tables = _event(organizer)
    m, other = tables[0], tables[1]
    floor = staff(event, "floor", StaffRole.Role.JUDGE)
    judge = _phone(browser, venue, user=floor)
    a, b = _phone(browser, venue, token=links[m.player_a_id]), _phone(browser, venue, token=links[m.player_b_id])

    # item 11: a floor judge at a table they may not enter is told so before any form
    judge.goto(f"{venue.url}/events/{event.pk}/matches/{other.pk}/result/")
    expect(judge.locator(".may-not")).to_contain_text("ジャッジができること")
    assert judge.locator("input[name=duel1], button[name=outcome]").count() == 0
    screenshot(judge, "judge-may-not-390")

    judge.goto(f"{venue.url}/events/{event.pk}/judging/matches/{m.pk}/time/")
    judge.locator("select[name=duel1]").select_option("A")
    _tap(judge, "button[name=start]")
    _tap(judge, "text=はい、今始めます")  # the round clock has not reached time: asked first
    # item 11: room between the frequent tap and the winner buttons
    turn_end = judge.locator(".tp-turn-end").bounding_box()
    winner = judge.locator(".tp-winners .winner-grid button").first.bounding_box()
    assert winner["y"] - (turn_end["y"] + turn_end["height"]) >= 40
    screenshot(judge, "judge-time-procedure-390")
    for _ in range(1 + event.ruleset.time.extra_turns):
        _tap(judge, ".tp-turn-end")
    judge.fill("input[name=lp_a]", "300")  # typed the wrong way round: B had 300
    judge.fill("input[name=lp_b]", "4000")
    _tap(judge, "form:has(input[name=lp_a]) button")
    expect(judge.locator("#decided")).to_contain_text("引き分け 1–1")
    assert Match.objects.get(pk=m.pk).status == Match.Status.PENDING  # not the table's result yet
    screenshot(judge, "judge-time-decided-390")
    _tap(judge, "button[name=undo]")
    judge.fill("input[name=lp_a]", "4000")
    judge.fill("input[name=lp_b]", "300")
    _tap(judge, "form:has(input[name=lp_a]) button")
    expect(judge.locator("#decided")).to_contain_text(f"{m.player_a.name} の勝ち 2–0")
    _tap(judge, "button[name=enter]")
    assert Match.objects.get(pk=m.pk).result == "a"
    expect(a.locator("#match-status")).to_contain_text("確定した結果", timeout=8000)
    expect(b.locator("#match-status")).to_contain_text("確定した結果", timeout=8000)

    # item 11: the judge who entered it corrects it (say B had won duel 1 after all: 1-1 at time, a draw)
    _tap(judge, "text=この結果を訂正する")
    expect(judge.locator(".winners h2")).to_have_text("訂正後の結果")
    _tap(judge, ".winner-grid button[value=draw]")  # 1-1 when time was called: a draw (TIME-S-6)
    judge.locator("#confirm input[name=reason]").fill("1本目の勝者を取り違えた")
    expect(judge.locator("#confirm")).to_contain_text("この訂正で変わること")
    _tap(judge, "#confirm button.primary")
    assert Match.objects.get(pk=m.pk).result == "draw"
    expect(a.locator("body")).to_contain_text("1本目の勝者を取り違えた", timeout=8000)  # told in words
    screenshot(a, "judge-corrected-player-a-390")


def test_a_typed_ruling_survives_refusals_and_the_head_judge_keeps_or_cancels_a_penalty(
    browser: Browser, venue: VenueServer, organizer: User
) -> None:
    # JUDGE-1, TIME-4, PEN-6
    event, _links, tables = _event(organizer)
    m = tables[0]
    floor = staff(event, "floor", StaffRole.Role.JUDGE)
    head_user = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    judge = _phone(browser, venue, user=floor)
    call = calls.raise_call(event, table=m.table, by=Staff(floor), description="チェーンの処理")
    judge.goto(f"{venue.url}/events/{event.pk}/judging/calls/{call.pk}/")
    judge.fill("textarea[name=ruling]", "チェーンは逆順に処理します")
    judge.fill("input[name=extension_minutes]", "2")  # the call was just taken: the ruling is measured short
    _tap(judge, "button[name=rule]")
    expect(judge.locator(".ask-length")).to_contain_text("実際にかかった時間")  # item 16: the judge may say
    expect(judge.locator("textarea[name=ruling]")).to_have_value("チェーンは逆順に処理します")
    screenshot(judge, "judge-extension-ask-390")
    expect(judge.locator("input[name=ruling_minutes]")).to_have_value("2")
    judge.fill("input[name=ruling_minutes]", "1")
    _tap(judge, "button[name=rule]")  # TIME-4 refuses: 2 minutes for a ruling of 1
    expect(judge.locator("p.error")).to_contain_text("追加できるのは判断にかかった時間")
    assert Match.objects.get(pk=m.pk).extension_seconds == 0
    expect(judge.locator("textarea[name=ruling]")).to_have_value("チェーンは逆順に処理します")  # item 13
    _tap(judge, f"button[name=penalty][value='{m.player_b_id}']")
    judge.locator("select[name=infraction]").select_option("INF-2")
    judge.wait_for_load_state()
    expect(judge.locator("textarea[name=description]")).to_have_value("チェーンは逆順に処理します")
    _tap(judge, "button[name=issue]")
    penalty = Penalty.objects.get(player=m.player_b)
    assert penalty.description == "チェーンは逆順に処理します"

    appeals.file_appeal(m.player_b, reason="急かしていません", penalty=penalty, by=Staff(floor))
    head = _phone(browser, venue, user=head_user)
    head.goto(f"{venue.url}/events/{event.pk}/judging/")
    card = head.locator("section.appeal")
    expect(card).to_contain_text("警告")
    expect(card).to_contain_text("floor が裁定")
    expect(card.locator("button[value=uphold]")).to_have_text("罰則を維持")
    expect(card.locator("button[value=overturn]")).to_have_text("罰則を取り消す")
    screenshot(head, "judge-appeal-390")
    _tap(head, "section.appeal button[value=uphold]")
    assert Appeal.objects.get().status != Appeal.Status.OPEN
