"""A head judge on a phone disqualifies a player during a match: the match is resolved and the next round pairs
at once (PEN-1); a match loss after the match lands on the next one unless the judge chooses otherwise."""

from __future__ import annotations

import pytest

from taikai.events.actors import Staff
from taikai.events.models import Match, Round
from taikai.events.services import rounds as round_services
from tests.factories import NewPage, fresh, make_event, pair, play, screenshot, staff
from tests.judging.test_judging_browser import _organizer, login, penalize

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pen_1_a_dq_during_the_last_match_lets_the_next_round_pair_at_once(new_page: NewPage) -> None:
    organizer = _organizer()
    event = make_event(organizer, 4)
    staff(event, "head", "head_judge")
    matches = pair(event, organizer)
    play(event, organizer, matches[1:])
    last = matches[0]
    page = login(new_page, "head")
    penalize(page, event, last.player_a, "INF-9")
    landing = page.locator(".penalty-landing")
    assert f"{last.table}" in landing.inner_text() and last.player_b.name in landing.inner_text()
    screenshot(page, "judging-dq-during-match-phone")
    page.click("button[name=issue]")
    page.click(".confirm-step button[name=issue]")  # a DQ asks twice
    m = fresh(last)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "b")
    assert Round.objects.get(pk=m.round_id).status == Round.Status.FINISHED
    assert round_services.pair_next_round(event, by=Staff(organizer)).number == 2


def test_pen_1_the_judge_chooses_where_a_match_loss_lands(new_page: NewPage) -> None:
    organizer = _organizer()
    event = make_event(organizer, 4)
    staff(event, "floor", "judge")
    matches = pair(event, organizer)
    play(event, organizer, matches)
    page = login(new_page, "floor")
    penalize(page, event, matches[0].player_a, "INF-3")
    page.select_option("select[name=rung]", "match-loss")
    page.fill("input[name=reason]", "三回目")
    assert "確定した結果を置き換えます" in page.locator(".penalty-landing").inner_text()
    page.check("input[name=lands_on][value=next]")
    screenshot(page, "judging-penalty-landing-phone")
    page.click("button[name=issue]")
    assert fresh(matches[0]).result == "a"  # the confirmed match keeps its result
    page.goto(f"{page.base_url}/events/{event.pk}/judging/")
    assert "次の対戦に適用するマッチの敗北" not in page.content()  # nothing to apply before the next match exists
    p = matches[0].player_a
    nxt = next(m for m in pair(event, organizer) if p.pk in (m.player_a_id, m.player_b_id))
    # PEN-1: it lands as the next match is paired (issue 22), so the queue has nothing left waiting
    m = fresh(nxt)
    assert m.status == "confirmed" and m.result == ("b" if m.player_a_id == p.pk else "a")
    page.reload()
    assert "次の対戦に適用するマッチの敗北" not in page.content()
