"""A head judge on a phone (390x844): a team DQ, an appeal against a floor judge's penalty, and a prize
downgrade with promotion; the player reads what happened in words."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Event, Match, Player, Team
from taikai.events.services import links
from taikai.events.services import teams as team_services
from taikai.judging.models import Appeal, Penalty
from taikai.judging.services import appeals, prizes
from taikai.judging.services import penalties as svc
from tests.factories import PHONE, NewPage, SitePage, fresh, make_event, pair, play, screenshot, staff
from tests.judging.test_judging_browser import _organizer, login, penalize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _a_team_disqualified(new_page: NewPage, organizer: User) -> SitePage:
    """The head judge's phone, signed in, after disqualifying a member of チーム東京 (PEN-4)."""
    teams = make_event(organizer, 0, is_team_event=True, name="チーム戦")
    for t, name in enumerate(("チーム東京", "チーム大阪")):
        team_services.register_team(
            teams,
            by=Staff(organizer),
            name=name,
            members=[{"name": f"{name}{s}", "card_game_id": f"{3000000000 + t * 10 + i}"} for i, s in enumerate("ABC")],
        )
    staff(teams, "head", "head_judge")
    tokyo = list(Player.objects.filter(team__name="チーム東京").order_by("seat"))

    head = login(new_page, "head")
    penalize(head, teams, tokyo[0], "INF-9")
    head.click("button[name=issue]")
    assert tokyo[0].name in head.locator(".confirm-step").inner_text()
    screenshot(head, "head-judge-dq-confirm-phone")
    head.click(".confirm-step button[name=issue]")
    assert all(fresh(p).disqualified for p in tokyo)
    assert head.locator(".penalty .badge", has_text="チームとしての罰則").count() == 2
    assert "match-loss" not in head.content() and "dq-no-prize" not in head.locator("main").inner_text()
    screenshot(head, "head-judge-team-dq-phone")
    return head


def _an_appeal_overturned(
    new_page: NewPage, head: SitePage, organizer: User
) -> tuple[Event, list[Match], Player, str, SitePage]:
    """(the event, its first round, the player who appealed, their link, their phone)."""
    # A single-elimination event: a floor judge's penalty is appealed; the head judge overturns it.
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION, name="個人戦")
    floor = staff(event, "floor", "judge")
    staff(event, "head", "head_judge")
    matches = pair(event, organizer)
    target = matches[0].player_a
    pen = svc.issue_penalty(event, by=Staff(floor), player=target, infraction="INF-17")
    token = links.issue_access(target, by=Staff(organizer))
    appeals.file_appeal(target, reason="デッキケースは片付けていました", penalty=pen, by=PlayerSelf(target))
    head.goto(f"{head.base_url}/events/{event.pk}/judging/")
    appeal_card = head.locator(".appeal").first
    assert "警告" in appeal_card.inner_text() and "INF-17" in appeal_card.inner_text()
    appeal_card.locator("input[name=note]").fill("観戦者の証言で確認")
    appeal_card.locator("button[value=overturn]").click()
    screenshot(head, "head-judge-overturn-confirm-phone")
    head.click(".confirm-step button[name=decision]")
    assert fresh(pen).overturned and Appeal.objects.get().status == Appeal.Status.OVERTURNED
    phone = new_page(viewport=PHONE)
    phone.goto(f"{phone.base_url}/p/{token}/appeal/")
    assert "上告を認めました" in phone.locator(".appeal-outcome").inner_text()
    screenshot(phone, "player-appeal-outcome-phone")
    return event, matches, target, token, phone


def _the_champion_downgraded(
    head: SitePage, phone: SitePage, organizer: User, event: Event, matches: list[Match], target: Player, token: str
) -> None:
    # Prize downgrade with promotion: the champion is disqualified with downgrade after the final (CS 1.2 A).
    play(event, organizer, matches)
    play(event, organizer, pair(event, organizer))
    prizes.set_prize_ranks(
        event, by=Staff(organizer), ranks=[("優勝", 1, 1, False), ("準優勝", 2, 2, False), ("ベスト4", 3, 4, True)]
    )
    order = prizes.final_order(event)
    champion, runner_up = (Player.objects.get(pk=int(order[i][0])) for i in (0, 1))
    penalize(head, event, champion, "INF-9")
    head.select_option("select[name=rung]", "dq-downgrade")
    head.fill("input[name=reason]", "悪質性が低い")
    head.click("button[name=issue]")
    head.click(".confirm-step button[name=issue]")
    head.goto(f"{head.base_url}/events/{event.pk}/judging/prizes/")
    rows = head.locator("table.prizes tbody tr")
    assert runner_up.name in rows.nth(0).inner_text()  # promoted
    assert champion.name in rows.nth(1).inner_text() and "降格" in rows.nth(1).inner_text()
    screenshot(head, "head-judge-prizes-phone")
    phone.goto(f"{phone.base_url}/p/{token}/record/")
    assert Penalty.objects.filter(player=target, overturned=True).exists()
    assert "上告により取り消し" in phone.locator(".this-event").inner_text()
    screenshot(phone, "player-record-words-phone")


def test_head_judge_team_dq_appeal_and_prize_downgrade_on_a_phone(new_page: NewPage) -> None:
    # PEN-4, PEN-6 (CS 3), PEN-2 (CS 1.2)
    organizer = _organizer()
    head = _a_team_disqualified(new_page, organizer)
    event, matches, target, token, phone = _an_appeal_overturned(new_page, head, organizer)
    _the_champion_downgraded(head, phone, organizer, event, matches, target, token)
    assert not Team.objects.get(name="チーム大阪").dropped_after_round
