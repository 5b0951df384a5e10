"""Issue 22, findings 2, 4 and 5: a penalty's duel is a fact reports keep; "finished" has one meaning; an
overturn never silently reopens a finished table. Each test names what used to change without a word."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.core.match_record import Format
from taikai.core.match_record import Player as Side
from taikai.core.penalty_duels import PenaltyDuel, arranged, contradiction, read
from taikai.core.quick_results import quick_outcomes, quick_results
from taikai.core.ruleset import builtin
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Notice, Round
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall
from taikai.judging.services import appeals
from taikai.judging.services import penalties as svc
from tests.factories import A_WINS, fresh, pair, play

pytestmark = pytest.mark.django_db
JSON = {"Accept": "application/json"}
RULES = builtin("harajuku-cs-1.2")


def _duel_loss_for_a(event: Event, judge: User, organizer: User) -> Match:
    m = pair(event, organizer)[0]
    svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-14", prior_duels=[])
    return fresh(m)


# --- core: the penalty duel's place -----------------------------------------------------------------------


def test_a_record_without_the_penalty_duel_is_a_contradiction() -> None:  # PEN-1
    from taikai.core.match_record import Won

    fixed = (PenaltyDuel(1, Side.A, "7"),)
    assert contradiction((Won(Side.A), Won(Side.A)), fixed) is not None
    assert contradiction((Won(Side.B), Won(Side.A), Won(Side.A)), fixed) is None
    assert contradiction((), fixed) is not None  # an intentional draw cannot hold it either


def test_one_tap_choices_for_the_penalised_player_keep_the_penalty_duel_first() -> None:  # PEN-1, MATCH-1
    fixed = (PenaltyDuel(1, Side.A, "7"),)
    codes = [o.code for o in quick_outcomes(RULES, Format.SWISS, fixed)]
    assert "win-2-0" not in codes and "win-2-1" in codes and "loss-0-2" in codes
    assert "intentional-draw" not in codes
    win = next(o for o in quick_outcomes(RULES, Format.SWISS, fixed) if o.code == "win-2-1")
    # both phones tap their side of the same outcome: the same record, the penalty duel at its place
    mine = win.report(Side.A, fixed).duels
    theirs = next(o for o in quick_outcomes(RULES, Format.SWISS, fixed) if o.code == "loss-1-2").report(Side.B, fixed)
    assert mine == theirs.duels and contradiction(mine, fixed) is None


def test_the_slip_keys_keep_the_penalty_duel() -> None:  # PEN-1
    fixed = (PenaltyDuel(1, Side.A, "7"),)
    keys = [r.key for r in quick_results(RULES, Format.SWISS, fixed)]
    assert "2-0" not in keys and "2-1" in keys and "0-2" in keys
    assert all(contradiction(r.report.duels, fixed) is None for r in quick_results(RULES, Format.SWISS, fixed))


def test_arranged_refuses_counts_that_cannot_hold_the_penalty_duel() -> None:  # PEN-1
    assert arranged({Side.A: 2, Side.B: 0}, (Side.B, Side.A), (PenaltyDuel(1, Side.A),)) is None
    assert read([{"duel": 2, "loser": "b", "penalty": "3"}]) == (PenaltyDuel(2, Side.B, "3"),)


# --- finding 2: reports and slips keep the penalty duel -----------------------------------------------------


def test_a_one_tap_two_nil_no_longer_erases_a_penalty_duel_loss(event: Event, judge: User, organizer: User) -> None:
    m = _duel_loss_for_a(event, judge, organizer)  # INF-14: duel 1 lost by A
    assert m.penalty_duels == [{"duel": 1, "loser": "a", "penalty": m.penalty_duels[0]["penalty"]}]
    with pytest.raises(ServiceError) as refused:
        result_services.report_result(m, player=m.player_a, result=A_WINS())
    assert refused.value.problem.code == "contradicts-penalty-duel"
    assert refused.value.problem.params["name"] == m.player_a.name
    assert fresh(m).status == Match.Status.PENDING and fresh(m).record["duels"] == [{"winner": "B"}]


def test_the_phone_offers_only_results_that_keep_the_penalty_duel(event: Event, judge: User, organizer: User) -> None:
    m = _duel_loss_for_a(event, judge, organizer)
    token_a = links.issue_access(m.player_a, by=Staff(organizer))
    token_b = links.issue_access(m.player_b, by=Staff(organizer))
    client = Client()
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: "ja"})
    page = client.get(f"/p/{token_a}/").content.decode()
    assert 'value="win-2-1"' in page and 'value="win-2-0"' not in page
    assert "第1デュエルは罰則（デュエルの敗北）により" in page  # the notice says what the penalty decided
    r = client.post(f"/p/{token_a}/report/", {"quick": "win-2-0", "match": m.pk}, headers=JSON)
    assert r.status_code == 422
    client.post(f"/p/{token_a}/report/", {"quick": "win-2-1", "match": m.pk}, headers=JSON)
    client.post(f"/p/{token_b}/report/", {"quick": "loss-1-2", "match": m.pk}, headers=JSON)
    m = fresh(m)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "a")
    assert m.record["duels"][0] == {"winner": "B"}  # the penalty duel is still duel 1


def test_a_staff_slip_that_contradicts_the_penalty_duel_is_refused(event: Event, judge: User, organizer: User) -> None:
    m = _duel_loss_for_a(event, judge, organizer)
    with pytest.raises(ServiceError) as refused:
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS())
    assert refused.value.problem.code == "contradicts-penalty-duel"
    kept = ResultInput(({"winner": "B"}, {"winner": "A"}, {"winner": "A"}))
    assert result_services.enter_result(m, by=Staff(organizer), result=kept).result == "a"


def test_a_waiting_duel_loss_lands_when_the_next_round_is_paired(event: Event, judge: User, organizer: User) -> None:
    first = pair(event, organizer)
    play(event, organizer, first)  # round 1 finished: A players won
    loser = first[0].player_a
    pen = svc.issue_penalty(event, by=Staff(judge), player=loser, infraction="INF-14")
    assert pen.waiting_for_next_match  # PEN-1: no match being played, so the next one
    nxt = next(m for m in pair(event, organizer) if loser.pk in (m.player_a_id, m.player_b_id))
    nxt = fresh(nxt)
    side = "a" if nxt.player_a_id == loser.pk else "b"
    assert [(p["duel"], p["loser"]) for p in nxt.penalty_duels] == [(1, side)]
    assert fresh(pen).waiting_for_next_match is False


# --- finding 5: finished means one thing -------------------------------------------------------------------


def test_a_dq_keeps_a_reported_result_as_it_keeps_a_confirmed_one(event: Event, head: User, organizer: User) -> None:
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_b, result=A_WINS())  # B reports a loss: the match is over
    svc.issue_penalty(event, by=Staff(head), player=m.player_a, infraction="INF-1", rung="dq", reason="marked")
    m = fresh(m)
    assert (m.status, m.result) == (Match.Status.REPORTED, "a")  # used to flip to a forfeit win for B


# --- finding 4: an overturn on the correction path ---------------------------------------------------------


def test_an_overturn_after_the_round_keeps_the_result_and_tells_everyone(
    event: Event, judge: User, head: User, organizer: User
) -> None:
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-1", rung="match-loss",
                            reason="deck problem", prior_duels=[{"winner": "A"}])  # fmt: skip
    assert fresh(m).result == "b"
    rest = [x for x in Round.objects.get(event=event, number=1).matches.filter(is_bye=False) if x.pk != m.pk]
    play(event, organizer, rest)
    pair(event, organizer)  # round 2 runs
    appeal = appeals.file_appeal(fresh(m.player_a), reason="not mine", penalty=pen, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn", note="no evidence")
    m = fresh(m)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "b")  # used to go back to "no result"
    assert JudgeCall.objects.filter(event=event, match=m, topic="changed-after-confirmation").exists()
    told = Notice.objects.filter(match=m, kind="overturned-result-stays")
    assert sorted(n.player_id for n in told) == sorted([m.player_a_id, m.player_b_id])
    # the penalty's own notices give way: the page does not say the match loss still stands
    assert not Notice.objects.filter(match=m, kind="match-loss", closed_at__isnull=True).exists()
    assert AuditEntry.objects.filter(action="taikai.match.result_to_decide", object_id=str(m.pk)).exists()


def test_an_overturn_in_the_same_round_plays_on_from_the_duels_played(
    event: Event, judge: User, head: User, organizer: User
) -> None:
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-1", rung="match-loss",
                            reason="deck problem", prior_duels=[{"winner": "A"}])  # fmt: skip
    appeal = appeals.file_appeal(fresh(m.player_a), reason="not mine", penalty=pen, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn", note="no evidence")
    m = fresh(m)
    assert m.status == Match.Status.PENDING and m.result == ""
    assert Notice.objects.filter(match=m, kind="overturned-match-reopened").count() == 2
    assert fresh(m.round).status != Round.Status.FINISHED
