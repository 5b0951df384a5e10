"""At the table: a player calls a judge, a spectator reports, the judge rules and adds time, walks the time
procedure, flips a coin and counts a loop; the player appeals. Phone size throughout."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import links
from taikai.judging.models import Appeal, JudgeCall, TableToolLog
from tests.factories import PHONE, NewPage, fresh, make_event, pair, screenshot, staff
from tests.judging.test_judging_browser import _organizer, login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_calls_reports_ruling_extension_and_appeal(new_page: NewPage) -> None:
    # JUDGE-1, JUDGE-2, TIME-4, PEN-6
    organizer = _organizer()
    event = make_event(organizer, 4)
    staff(event, "floor", "judge")
    m = pair(event, organizer)[0]
    token = links.issue_access(m.player_a, by=Staff(organizer))

    phone = new_page(viewport=PHONE)
    phone.goto(f"{phone.base_url}/p/{token}/")
    phone.click("text=ジャッジを呼ぶ")
    phone.fill("textarea[name=description]", "チェーンの処理について")
    screenshot(phone, "judging-player-call-phone")
    phone.click("button.primary")
    expect(phone.locator("#judge-call-state")).to_contain_text("ジャッジを呼びました")  # the call's state stays

    spectator = new_page(viewport=PHONE)
    spectator.goto(f"{spectator.base_url}/e/{event.pk}/report/")
    spectator.fill("input[name=table]", str(m.table))
    spectator.fill("textarea[name=description]", "ドローしたカードを戻していました")
    screenshot(spectator, "judging-spectator-report-phone")
    spectator.click("button.primary")
    assert "ジャッジが確認します" in spectator.locator(".messages").inner_text()

    judge = login(new_page, "floor")
    judge.goto(f"{judge.base_url}/events/{event.pk}/judging/")
    assert judge.locator("section.call").count() == 2
    assert "観戦者の報告" in judge.locator("section.call-spectator").inner_text()
    screenshot(judge, "judging-queue-phone")
    judge.locator("section.call-player a.button").click()
    judge.click("button[name=take]")
    call = JudgeCall.objects.get(source="player")
    # the ruling took 95 seconds (CS 3.1): move the start back instead of waiting
    JudgeCall.objects.filter(pk=call.pk).update(taken_at=fresh(call).taken_at.replace(microsecond=0) - _seconds(95))
    judge.reload()
    assert judge.locator("fieldset.extension").count() == 1
    assert judge.locator("input[name=extension_minutes]").input_value() == "1"  # 95 s: one whole minute
    judge.fill("textarea[name=ruling]", "逆順に処理します")
    screenshot(judge, "judging-call-phone")
    judge.click("button[name=rule]")  # TIME-4: a judge makes up for the ruling, no more
    assert fresh(m).extension_seconds == 60 and fresh(call).status == "closed"
    assert fresh(call).ruling_seconds >= 95

    phone.goto(f"{phone.base_url}/p/{token}/appeal/")
    phone.fill("textarea[name=reason]", "裁定に納得できません")
    phone.click("button.primary")
    assert Appeal.objects.get().status == "open"
    screenshot(phone, "judging-player-appeal-phone")


def _seconds(n: int) -> dt.timedelta:
    return dt.timedelta(seconds=n)


def test_time_procedure_page_and_table_tools(new_page: NewPage) -> None:
    # TIME-E-3, TIME-E-5, DEV-1, LOOP-2
    organizer = _organizer()
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    staff(event, "floor", "judge")
    m = pair(event, organizer)[0]
    page = login(new_page, "floor")
    page.goto(f"{page.base_url}/events/{event.pk}/judging/matches/{m.pk}/time/")
    page.check("input[name=when][value=between]")
    page.click("button[name=start]")  # 0-0 between duels: an extra duel
    # The round clock has not reached time: the page asks before starting (issue 14.20).
    page.click("text=はい、今始めます")
    assert "じゃんけん" in page.locator(".step").inner_text()
    page.click("button[name=player][value=B]")
    for _ in range(4):
        with page.expect_navigation():  # each is a form post: reloading while one is under way detaches the page
            page.click("text=決着せずにターンが終わった")
    page.reload()  # the procedure survives a reload
    page.fill("input[name=lp_a]", "4000")
    page.fill("input[name=lp_b]", "4000")
    page.click("form:has(input[name=lp_a]) button")
    assert "サドンデス" in page.locator(".step").inner_text()
    screenshot(page, "judging-time-procedure-phone")
    page.click("button[name=player][value=A]")
    assert fresh(m).status != Match.Status.CONFIRMED  # the deciding tap waits for the judge (issue 24)
    page.click("button[name=enter]")
    assert fresh(m).status == Match.Status.CONFIRMED and fresh(m).result == "a"
    assert "これがこの卓の結果になりました" in page.content()

    page.goto(f"{page.base_url}/events/{event.pk}/judging/tables/{m.table}/")
    page.click("button[value=coin]")
    assert page.locator(".tool-result").inner_text() in ("表", "裏")
    page.click("button[value=die]")
    assert page.locator(".tool-result").inner_text() in {"1", "2", "3", "4", "5", "6"}
    for _ in range(4):
        page.click("button[value=loop]")
    assert page.locator(".loop-count").inner_text() == "4"
    assert "違う選択" in page.locator(".must-deviate").inner_text()
    screenshot(page, "judging-table-tools-phone")
    assert TableToolLog.objects.filter(kind="loop").count() == 4


def test_rules_reference_in_japanese_and_english(new_page: NewPage) -> None:
    # LOOP-1, LOOP-2, END-1
    page = new_page(viewport=PHONE)
    page.goto(page.base_url + "/judging/rules/")
    assert "4回目に同じ局面" in page.content() and "投了" in page.content()
    screenshot(page, "judging-rules-ja-phone")
    en = new_page(viewport=PHONE, locale="en-US")
    en.goto(en.base_url + "/judging/rules/")
    en.click("a.lang[lang=en]")
    assert "the 4th time the same position arises" in en.content() and "Concession" in en.content()
