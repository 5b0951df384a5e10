"""What the judged-histories property (tests/events/test_decision_histories_judged.py) found, one case each."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, Notice, Player
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall, Penalty
from taikai.judging.services import appeals
from taikai.judging.services import penalties as svc
from tests.factories import A_WINS, fresh, pair, play

pytestmark = pytest.mark.django_db


def _duel_loss(event: Event, judge: User, player: Player) -> Penalty:
    return svc.issue_penalty(event, by=Staff(judge), player=player, infraction="INF-14", rung="duel-loss")


def test_two_waiting_duel_losses_land_as_two_duels(event: Event, judge: User, organizer: User) -> None:  # PEN-1
    first = pair(event, organizer)
    play(event, organizer, first)
    loser = first[0].player_b
    _duel_loss(event, judge, loser)
    _duel_loss(event, judge, loser)
    nxt = next(m for m in pair(event, organizer) if loser.pk in (m.player_a_id, m.player_b_id))
    nxt = fresh(nxt)
    side = nxt.side_of(loser)
    assert sorted((p["duel"], p["loser"]) for p in nxt.penalty_duels) == [(1, side), (2, side)]
    assert nxt.status == Match.Status.CONFIRMED and nxt.result == ("b" if side == "a" else "a")


def test_waiting_losses_of_both_players_of_a_table_keep_one_loser_per_duel(
    event: Event, judge: User, organizer: User
) -> None:  # PEN-1
    first = pair(event, organizer)
    play(event, organizer, first)
    winners = [m.player_a for m in first]  # they meet again in round 2 (1-0 against 1-0)
    for p in winners:
        _duel_loss(event, judge, p)
    for m in pair(event, organizer):
        m = fresh(m)
        duels = [p["duel"] for p in m.penalty_duels]
        assert len(duels) == len(set(duels)), m.penalty_duels  # a duel has one loser


def test_a_waiting_match_loss_beside_a_waiting_duel_loss_pairs_the_round(
    event: Event, judge: User, organizer: User
) -> None:  # PEN-1
    first = pair(event, organizer)
    play(event, organizer, first)
    p = first[0].player_a
    _duel_loss(event, judge, p)
    svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-1", rung="match-loss", reason="deck")
    second = pair(event, organizer)  # used to raise: the second waiting penalty met a decided match
    m = fresh(next(m for m in second if p.pk in (m.player_a_id, m.player_b_id)))
    assert m.status == Match.Status.CONFIRMED and m.result == ("b" if m.side_of(p) == "a" else "a")


def test_overturning_the_first_of_two_penalty_duels_keeps_the_second(
    event: Event, judge: User, head: User, organizer: User
) -> None:  # PEN-1, PEN-6
    m = pair(event, organizer)[0]
    one = _duel_loss(event, judge, m.player_a)
    _duel_loss(event, judge, m.player_b)  # 1-1, still played
    appeal = appeals.file_appeal(fresh(m.player_a), reason="not mine", penalty=one, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn")
    m = fresh(m)
    assert m.status == Match.Status.PENDING
    duels = (m.record or {}).get("duels", [])
    for p in m.penalty_duels:  # the penalty duel that stands is in the record at its place
        assert len(duels) >= p["duel"] and duels[p["duel"] - 1]["winner"] == ("B" if p["loser"] == "a" else "A")
    assert [p["duel"] for p in m.penalty_duels] == [2]  # the overturned one is an ordinary duel again
    # the judges rule on it; both players are told
    assert JudgeCall.objects.filter(match=m, topic="changed-after-confirmation", status=JudgeCall.Status.OPEN).exists()
    assert Notice.objects.filter(match=m, kind="overturned-duel-to-rule").count() == 2


def test_an_overturned_match_loss_on_a_disputed_table_does_not_confirm_one_side(
    event: Event, judge: User, head: User, organizer: User
) -> None:  # END-4, PEN-6
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_a, result=A_WINS())
    b_wins = ResultInput(({"winner": "B"}, {"winner": "B"}))
    result_services.report_result(fresh(m), player=m.player_b, result=b_wins)
    assert fresh(m).status == Match.Status.DISPUTED
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-1", rung="match-loss",
                            reason="deck", lands_on="current")  # fmt: skip
    appeal = appeals.file_appeal(fresh(m.player_a), reason="not mine", penalty=pen, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn")
    m = fresh(m)
    assert m.status == Match.Status.DISPUTED  # the dispute was never settled: the judges still decide it
    assert JudgeCall.objects.filter(match=m, status=JudgeCall.Status.OPEN).exists()
    assert Notice.objects.filter(match=m, kind="overturned-result-restored").count() == 2


def test_the_duels_played_before_an_overturned_match_loss_stand(
    event: Event, judge: User, head: User, organizer: User
) -> None:  # PEN-1, PEN-6: the reopened notice says the duels before the penalty stand
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-1", rung="match-loss",
                            reason="deck", prior_duels=[{"winner": "A"}])  # fmt: skip
    appeal = appeals.file_appeal(fresh(m.player_a), reason="not mine", penalty=pen, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn")
    m = fresh(m)
    assert m.status == Match.Status.PENDING and (m.record or {}).get("duels") == [{"winner": "A"}]


def test_overturning_the_first_of_two_penalty_duels_that_decided_the_match_keeps_the_result(
    event: Event, judge: User, head: User, organizer: User
) -> None:  # PEN-1, PEN-6; seed 271165007785276133026667384947036344322 of the property
    m = pair(event, organizer)[0]
    one = _duel_loss(event, judge, m.player_a)
    _duel_loss(event, judge, m.player_a)  # 0-2 by penalties: the second penalty duel decides the match
    assert fresh(m).status == Match.Status.CONFIRMED
    appeal = appeals.file_appeal(fresh(m.player_a), reason="not mine", penalty=one, by=Staff(judge))
    appeals.decide_appeal(appeal, by=Staff(head), decision="overturn")
    m = fresh(m)
    # reopening to the empty record from before the first would drop the second, which stands
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "b")
    assert [d["winner"] for d in m.record["duels"]] == ["B", "B"]
    assert [(p["duel"], p["loser"]) for p in m.penalty_duels] == [(2, "a")]
    assert JudgeCall.objects.filter(match=m, topic="changed-after-confirmation", status=JudgeCall.Status.OPEN).exists()
    assert Notice.objects.filter(match=m, kind="overturned-duel-to-rule").count() == 2
