"""What judges, organizers and players do on the judging pages, in a real browser at phone size."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Player, Team
from taikai.events.services import links
from taikai.events.services.accounts import ensure_first_organizer
from taikai.judging.models import Penalty
from taikai.judging.services import penalties as svc
from taikai.judging.services import prizes
from tests.factories import PASSWORD, PHONE, NewPage, SitePage, fresh, make_event, pair, play, screenshot, staff

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _organizer() -> User:
    from django.contrib.auth import get_user_model

    ensure_first_organizer()
    return get_user_model().objects.get(username="organizer")


def login(new_page: NewPage, username: str) -> SitePage:
    page = new_page(viewport=PHONE)
    page.goto(page.base_url + "/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button.primary")
    page.wait_for_load_state()
    return page


def penalize(page: SitePage, event: Event, player: Player, infraction: str) -> None:
    page.goto(f"{page.base_url}/events/{event.pk}/judging/penalties/new/?player={player.pk}&infraction={infraction}")


def test_floor_judge_dq_is_refused_head_judge_dq_succeeds(new_page: NewPage) -> None:
    # PEN-6, PEN-1
    organizer = _organizer()
    event = make_event(organizer, 8)
    staff(event, "floor", "judge")
    staff(event, "head", "head_judge")
    pair(event, organizer)
    target = Player.objects.filter(event=event).first()
    page = login(new_page, "floor")
    penalize(page, event, target, "INF-7")
    assert page.locator("select[name=rung] option[value=dq-no-prize]").is_disabled()
    # the page offers no DQ, so force it as a tampered form would: the server must refuse
    page.evaluate("document.querySelectorAll('select[name=rung] option').forEach(o => o.disabled = false)")
    page.select_option("select[name=rung]", "dq-no-prize")
    page.click("button[name=issue]")
    assert "ヘッドジャッジだけ" in page.locator(".messages").inner_text()
    screenshot(page, "judging-dq-refused-phone")
    assert not Penalty.objects.exists() and not fresh(target).dropped

    head = login(new_page, "head")
    penalize(head, event, target, "INF-7")
    assert head.locator("select[name=rung]").input_value() == "dq-no-prize"
    head.fill("textarea[name=description]", "効果を偽って説明した")
    head.click("button[name=issue]")
    head.click(".confirm-step button[name=issue]")  # a DQ asks twice
    assert "罰則を与えました" in head.locator(".messages").inner_text()
    assert fresh(target).dropped and Penalty.objects.get().rung == "dq-no-prize"
    screenshot(head, "judging-penalties-phone")


def test_duel_loss_penalty_changes_the_match_result(new_page: NewPage) -> None:
    # PEN-1, INF-14
    organizer = _organizer()
    event = make_event(organizer, 4)
    staff(event, "floor", "judge")
    m = pair(event, organizer)[0]
    page = login(new_page, "floor")
    penalize(page, event, m.player_a, "INF-14")
    assert "デッキを正常な枚数に直して" in page.content()
    page.select_option("select[name=prior1]", "B")  # the opponent already won duel 1
    screenshot(page, "judging-penalty-new-phone")
    page.click("button[name=issue]")
    m = fresh(m)
    assert (m.status, m.result, m.duel_wins_b) == (Match.Status.CONFIRMED, "b", 2)
    page.goto(f"{page.base_url}/events/{event.pk}/rounds/1/")
    assert f"{m.player_b.name}" in page.locator("tr.status-confirmed").first.inner_text()


def test_team_member_dq_disqualifies_the_team(new_page: NewPage) -> None:
    # PEN-4
    organizer = _organizer()
    event = make_event(organizer, 6, is_team_event=True)
    staff(event, "head", "head_judge")
    players = list(Player.objects.filter(event=event).order_by("id"))
    team = Team.objects.create(event=event, name="チーム東京")
    Player.objects.filter(pk__in=[p.pk for p in players[:3]]).update(team=team)
    page = login(new_page, "head")
    penalize(page, event, players[1], "INF-13")
    page.click("button[name=issue]")
    page.click(".confirm-step button[name=issue]")
    assert page.locator(".penalty").count() == 3
    assert page.locator(".penalty .badge", has_text="チームメイトの失格").count() == 2  # PEN-4, in words
    assert all(fresh(p).dropped for p in players[:3]) and not fresh(players[3]).dropped
    assert fresh(team).dropped_after_round is not None


def test_dq_of_second_place_promotes_and_flags_the_playoff(new_page: NewPage) -> None:
    # PEN-3
    organizer = _organizer()
    organizer.set_password(PASSWORD)
    organizer.save()
    event = make_event(organizer, 8, format=Event.Format.SWISS_CUT, top_cut=4)
    staff(event, "head", "head_judge")
    for _ in range(3):
        play(event, organizer, pair(event, organizer))
    for _ in range(2):
        play(event, organizer, pair(event, organizer))  # top 4, then the final
    page = login(new_page, "organizer")
    page.goto(f"{page.base_url}/events/{event.pk}/judging/prizes/")
    page.fill("textarea[name=ranks]", "優勝 1 1\n準優勝 2 2\nベスト4 3 4 =\nベスト8 5 8 =")
    page.click("button[name=save]")
    assert page.locator(".playoff-needed").count() == 0
    order = prizes.final_order(event)
    second = Player.objects.get(pk=int(order[1][0]))
    semifinal_losers = {Player.objects.get(pk=int(e)).name for e in order[2]}

    head = login(new_page, "head")
    penalize(head, event, second, "INF-19")
    head.click("button[name=issue]")
    head.click(".confirm-step button[name=issue]")
    head.goto(f"{head.base_url}/events/{event.pk}/judging/prizes/")
    assert "プレーオフが必要です" in head.locator(".playoff-needed").inner_text()
    playoff_text = head.locator(".playoff").first.inner_text()
    assert all(name in playoff_text for name in semifinal_losers)  # 3rd and 4th play for 2nd
    assert second.name in head.locator("main").inner_text()  # listed without a prize
    head.click("button[name=pair]")
    assert head.locator(".playoff-pairing").count() >= 1
    screenshot(head, "judging-prizes-phone")


def test_earlier_warning_shows_with_a_suggested_escalation(new_page: NewPage) -> None:
    # PEN-5
    organizer = _organizer()
    first = make_event(organizer, 4, name="第1回 原宿CS")
    judge = staff(first, "floor", "judge")
    p1 = Player.objects.filter(event=first).first()
    svc.issue_penalty(first, by=Staff(judge), player=p1, infraction="INF-3")
    second = make_event(organizer, 4, name="第2回 原宿CS", date=dt.date(2027, 2, 1))
    staff(second, "floor", "judge")
    p2 = Player.objects.get(event=second, card_game_id=p1.card_game_id)
    page = login(new_page, "floor")
    penalize(page, second, p2, "INF-3")
    history = page.locator(".history-row").first.inner_text()
    assert "第1回 原宿CS" in history and "警告" in history
    assert "推奨 デュエルの敗北" in page.locator(".escalation").inner_text()
    assert page.locator("select[name=rung]").input_value() == "duel-loss"
    screenshot(page, "judging-history-phone")

    # the player sees their own record on their phone (PEN-5)
    token = links.issue_access(p2, by=Staff(organizer))
    phone = new_page(viewport=PHONE)
    phone.goto(f"{phone.base_url}/p/{token}/")
    phone.locator("details.more-actions > summary").click()  # the record is one tap away, under その他
    phone.click("text=自分の罰則記録")
    assert "第1回 原宿CS" in phone.locator(".record-row").first.inner_text()
    screenshot(phone, "judging-player-record-phone")
