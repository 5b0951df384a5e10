"""Issue 22, finding 4, on a phone (390×844, ja-JP): an appeal overturns a match loss. After the round is over
both players read, in words, that the penalty is gone and the result stays until the judges decide a
correction, and the table's result did not change; within the same round they read to play on and the report
buttons are back. PEN-6 (the head judge overturns on appeal), PEN-1 (the match loss)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, StaffRole
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.judging.models import Penalty
from taikai.judging.services import appeals
from taikai.judging.services import penalties as penalty_services
from tests.factories import A_WINS, PHONE, VenuePage, screenshot, staff
from tests.web.test_phone_browser import _event, _phone, _table_one, organizer  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _match_loss_for_a(event: Event, match: Match) -> Penalty:
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    return penalty_services.issue_penalty(
        event,
        by=Staff(judge),
        player=match.player_a,
        infraction="INF-1",
        rung="match-loss",
        reason="deck problem",
        prior_duels=[{"winner": "A"}],
    )


def _overturn(event: Event, penalty: Penalty) -> None:
    judge = staff(event, "floor", StaffRole.Role.JUDGE)
    head = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    appeal = appeals.file_appeal(penalty.player, reason="not mine", penalty=penalty, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn", note="no evidence")


def test_an_overturn_after_the_round_is_told_and_the_result_stays(venue_page: VenuePage, organizer: User) -> None:  # noqa: F811
    event, links = _event(organizer)
    match = _table_one(event)
    penalty = _match_loss_for_a(event, match)
    for other in Match.objects.filter(round__event=event, round__number=1, is_bye=False).exclude(pk=match.pk):
        result_services.enter_result(other, by=Staff(organizer), result=A_WINS())
    round_services.pair_next_round(event, by=Staff(organizer))  # round 1 is over
    _overturn(event, Penalty.objects.select_related("player__event").get(pk=penalty.pk))
    for player_id in (match.player_a_id, match.player_b_id):
        page = _phone(venue_page, links[player_id])
        notice = page.locator(".card.notice").filter(has_text="上訴により罰則が取り消されました")
        expect(notice).to_contain_text("第1ラウンド 1番卓")
        expect(notice).to_contain_text("結果は今のまま")
        expect(notice).to_contain_text("決まればここでお知らせします")
        expect(notice).to_contain_text("今の結果")  # the result it still holds, in words
        if player_id == match.player_a_id:
            screenshot(page, "issue22-overturn-after-round-phone")
    m = Match.objects.get(pk=match.pk)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "b")  # not silently back to "no result"


def test_an_overturn_in_the_same_round_says_play_on(venue_page: VenuePage, organizer: User) -> None:  # noqa: F811
    event, links = _event(organizer)
    match = _table_one(event)
    penalty = _match_loss_for_a(event, match)
    _overturn(event, Penalty.objects.select_related("player__event").get(pk=penalty.pk))
    for player_id in (match.player_a_id, match.player_b_id):
        page = _phone(venue_page, links[player_id])
        notice = page.locator(".card.notice").filter(has_text="上訴により罰則が取り消されました")
        expect(notice).to_contain_text("対戦を続けて、結果を報告してください")
        expect(page.locator(".quick button").first).to_be_visible()  # the report buttons are back
        if player_id == match.player_b_id:
            screenshot(page, "issue22-overturn-play-on-phone")
    m = Match.objects.get(pk=match.pk)
    assert m.status == Match.Status.PENDING and m.record["duels"] == [{"winner": "A"}]  # the duel played stands


assert PHONE["width"] == 390
