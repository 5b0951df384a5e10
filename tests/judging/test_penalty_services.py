"""Penalties through the services: permissions (PEN-6), effects (PEN-1), teams (PEN-4), appeals, database."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User

from taikai.audit.models import AuditEntry
from taikai.core import penalties as core_pen
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, Team
from taikai.events.services import progress
from taikai.judging.models import Appeal, DatabaseRecord, Penalty
from taikai.judging.services import appeals, database, penalty_effects, penalty_history, penalty_reversal
from taikai.judging.services import penalties as svc
from tests.factories import fresh, make_event, pair, play, staff

pytestmark = pytest.mark.django_db


def test_floor_judge_cannot_disqualify_head_judge_can(event: Event, judge: User, head: User, organizer: User) -> None:
    # PEN-6
    pair(event, organizer)
    p = Player.objects.filter(event=event).first()
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-7")
    assert exc.value.problem.code == "not-head-judge"
    assert not Penalty.objects.exists() and not fresh(p).dropped
    pen = svc.issue_penalty(event, by=Staff(head), player=p, infraction="INF-7")
    assert pen.rung == "dq-no-prize" and fresh(p).dropped  # PEN-1: DQ drops the player
    assert AuditEntry.objects.filter(action="taikai.judging.penalty_issued", object_id=str(pen.pk)).exists()


def test_dropped_player_is_not_paired_again(event: Event, head: User, organizer: User) -> None:
    # PEN-1
    play(event, organizer, pair(event, organizer))
    p = Player.objects.filter(event=event).first()
    svc.issue_penalty(event, by=Staff(head), player=p, infraction="INF-22")
    nxt = pair(event, organizer)
    assert all(p.pk not in (m.player_a_id, m.player_b_id) for m in nxt)


def test_floor_judge_issues_warning_with_default(event: Event, judge: User) -> None:
    # PEN-7
    p = Player.objects.filter(event=event).first()
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-2")
    assert (pen.rung, pen.default_rung, pen.in_database) == ("warning", "warning", True)


def test_changing_the_default_needs_a_reason(event: Event, judge: User) -> None:
    # PEN-7
    p = Player.objects.filter(event=event).first()
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-2", rung="caution")
    assert exc.value.problem.code == "rung-reason-required"
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-2", rung="caution", reason="first event")
    assert pen.rung_reason == "first event" and not pen.in_database


def test_no_default_needs_a_chosen_rung(event: Event, judge: User) -> None:
    # INF-1 (judge decides), PEN-7
    p = Player.objects.filter(event=event).first()
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-1")
    assert exc.value.problem.code == "rung-required"
    assert svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-1", rung="caution", reason="2 min").rung


def test_duel_loss_completes_the_current_match(event: Event, judge: User, organizer: User) -> None:
    # PEN-1, INF-14: the opponent had won duel 1; the penalty duel makes it 2-0
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(
        event, by=Staff(judge), player=m.player_a, infraction="INF-14", prior_duels=[{"winner": "B"}]
    )
    m = fresh(m)
    assert (m.status, m.result, m.duel_wins_b) == (Match.Status.CONFIRMED, "b", 2)
    assert pen.effects[0]["kind"] == "result"
    assert AuditEntry.objects.filter(action="taikai.match.result_corrected", object_id=str(m.pk)).exists()


def test_duel_loss_mid_match_is_kept_in_the_record(event: Event, judge: User, organizer: User) -> None:
    # PEN-1, INF-14
    m = pair(event, organizer)[0]
    svc.issue_penalty(event, by=Staff(judge), player=m.player_b, infraction="INF-14")
    m = fresh(m)
    assert m.status == Match.Status.PENDING and m.record["duels"] == [{"winner": "A"}]


def test_duel_loss_after_the_match_waits_for_the_next_match(event: Event, judge: User, organizer: User) -> None:
    # PEN-1: "or the first duel of the next match"
    matches = pair(event, organizer)
    play(event, organizer, matches)
    p = matches[0].player_a
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-14")
    assert pen.waiting_for_next_match and penalty_effects.pending_penalties(event) == []
    pair(event, organizer)
    # it lands as the next match is paired (issue 22), not when a judge next opens the queue
    assert penalty_effects.pending_penalties(event) == [] and fresh(pen).waiting_for_next_match is False
    from taikai.events.models import current_match

    m = current_match(fresh(p))
    side = "B" if m.side_of(p) == "a" else "A"
    assert m.record["duels"] == [{"winner": side}] and not fresh(pen).waiting_for_next_match


def test_match_loss_makes_the_match_lost(event: Event, judge: User, organizer: User) -> None:
    # PEN-1
    m = pair(event, organizer)[0]
    svc.issue_penalty(
        event, by=Staff(judge), player=m.player_a, infraction="INF-3", rung="match-loss", reason="third time"
    )
    m = fresh(m)
    assert (m.result, m.status) == ("b", Match.Status.CONFIRMED)
    entry = AuditEntry.objects.get(action="taikai.match.result_corrected", object_id=str(m.pk))
    assert entry.data["reason"].startswith("PEN-1 match-loss")


def test_prize_downgrade_steps_are_recorded(event: Event, judge: User, organizer: User) -> None:
    # PEN-2
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(
        event,
        by=Staff(judge),
        player=m.player_a,
        infraction="INF-3",
        rung="match-loss-downgrade",
        reason="x",
        downgrade_steps=2,
    )
    assert pen.downgrade_steps == 2 and fresh(m).result == "b"


def test_team_member_dq_disqualifies_the_team(organizer: User) -> None:
    # PEN-4
    event = make_event(organizer, 6, is_team_event=True)
    head = staff(event, "head", "head_judge")
    players = list(Player.objects.filter(event=event).order_by("id"))
    team = Team.objects.create(event=event, name="チーム")
    Player.objects.filter(pk__in=[p.pk for p in players[:3]]).update(team=team)
    pen = svc.issue_penalty(event, by=Staff(head), player=players[0], infraction="INF-9")
    assert all(fresh(p).dropped for p in players[:3]) and not fresh(players[3]).dropped
    assert fresh(team).dropped_after_round is not None
    copies = Penalty.objects.filter(team_source=pen)
    assert {c.player_id for c in copies} == {players[1].pk, players[2].pk}
    assert all(c.rung == "dq-no-prize" for c in copies)


def test_team_match_loss_does_not_propagate(organizer: User) -> None:
    # PEN-4: only DQ or worse
    event = make_event(organizer, 6, is_team_event=True)
    head = staff(event, "head", "head_judge")
    players = list(Player.objects.filter(event=event).order_by("id"))
    team = Team.objects.create(event=event, name="チーム")
    Player.objects.filter(pk__in=[p.pk for p in players[:3]]).update(team=team)
    svc.issue_penalty(event, by=Staff(head), player=players[0], infraction="INF-2")
    assert Penalty.objects.count() == 1


def test_overturned_appeal_restores_result_and_undoes_drop(
    event: Event, judge: User, head: User, organizer: User
) -> None:
    # PEN-6
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(
        event, by=Staff(judge), player=m.player_a, infraction="INF-3", rung="match-loss", reason="r"
    )
    dq = svc.issue_penalty(event, by=Staff(head), player=m.player_a, infraction="INF-19")
    assert fresh(m).result == "b" and fresh(m.player_a).dropped
    # CS 3: the head judge's own DQ is not appealable; the floor judge's match loss is.
    with pytest.raises(ServiceError) as own:
        appeals.file_appeal(m.player_a, reason="I did not lie", penalty=dq, by=PlayerSelf(m.player_a))
    assert own.value.problem.code == "appeal-own-ruling"
    a1 = appeals.file_appeal(m.player_a, reason="not slow", penalty=pen, by=Staff(judge))
    with pytest.raises(ServiceError) as exc:
        appeals.decide_appeal(a1, by=Staff(judge), decision="overturn")
    assert exc.value.problem.code == "not-head-judge"
    appeals.decide_appeal(a1, by=Staff(head), decision="overturn", note="witness")
    penalty_reversal.reverse_penalty(dq, by=Staff(head))  # the head judge reconsiders their own ruling
    assert not fresh(m.player_a).dropped and not fresh(m.player_a).disqualified
    m = fresh(m)
    assert (m.status, m.result, m.record) == (Match.Status.PENDING, "", None)
    assert fresh(a1).status == Appeal.Status.OVERTURNED and fresh(dq).overturned and fresh(pen).overturned
    assert AuditEntry.objects.filter(action="taikai.judging.effect_reversed").count() == 2


def test_upheld_appeal_keeps_the_penalty(event: Event, judge: User, head: User) -> None:
    # PEN-6, JUDGE-1
    p = Player.objects.filter(event=event).first()
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-17")
    a = appeals.file_appeal(p, reason="it was my deck box", penalty=pen, by=PlayerSelf(p))
    appeals.decide_appeal(a, by=Staff(head), decision="uphold")
    assert not fresh(pen).overturned and fresh(a).status == Appeal.Status.UPHELD
    with pytest.raises(ServiceError):
        appeals.decide_appeal(a, by=Staff(head), decision="overturn")


def test_team_dq_overturned_restores_every_member(organizer: User) -> None:
    # PEN-4, PEN-6
    event = make_event(organizer, 6, is_team_event=True)
    head = staff(event, "head", "head_judge")
    players = list(Player.objects.filter(event=event).order_by("id"))
    team = Team.objects.create(event=event, name="T")
    Player.objects.filter(pk__in=[p.pk for p in players[:3]]).update(team=team)
    pen = svc.issue_penalty(event, by=Staff(head), player=players[0], infraction="INF-6")
    penalty_reversal.reverse_penalty(pen, by=Staff(head))
    assert not any(fresh(p).dropped for p in players[:3]) and fresh(team).dropped_after_round is None


def test_warning_from_an_earlier_event_suggests_escalation(organizer: User) -> None:
    # PEN-5
    first = make_event(organizer, 4, name="第1回")
    judge1 = staff(first, "floor", "judge")
    p1 = Player.objects.filter(event=first).first()
    svc.issue_penalty(first, by=Staff(judge1), player=p1, infraction="INF-3")
    second = make_event(organizer, 4, name="第2回", date=dt.date(2027, 1, 10))
    staff(second, "floor", "judge")
    p2 = Player.objects.get(event=second, card_game_id=p1.card_game_id)
    rows = penalty_history.history(p2.card_game_id, event=second)
    assert [(r["event"], r["rung"]) for r in rows] == [("第1回", "warning")]
    s = penalty_history.suggestion(second, p2, "INF-3")
    assert (s.rung, s.escalated) == ("duel-loss", True)
    pen = svc.issue_penalty(second, by=Staff(judge1), player=p2, infraction="INF-3")
    assert pen.rung == "duel-loss" and pen.rung_reason == "PEN-5"
    assert penalty_history.suggestion(second, p2, "INF-2").rung == "warning"  # another infraction: no escalation


def test_a_similar_violation_at_an_earlier_event_escalates_not_only_the_identical_one(organizer: User) -> None:
    # PEN-5 (CS 1.3 同様の違反を繰り返した場合): a warning for slow siding (INF-4) at one event, then long
    # thinking (INF-3) at the next: the same kind, slow play, so one rung heavier than the warning
    first = make_event(organizer, 4, name="第1回")
    judge = staff(first, "floor", "judge")
    p1 = Player.objects.filter(event=first).first()
    svc.issue_penalty(first, by=Staff(judge), player=p1, infraction="INF-4")
    second = make_event(organizer, 4, name="第2回", date=dt.date(2027, 1, 10))
    staff(second, "floor", "judge")
    p2 = Player.objects.get(event=second, card_game_id=p1.card_game_id)
    s = penalty_history.suggestion(second, p2, "INF-3")
    assert (s.rung, s.default, s.escalated, s.earlier) == ("duel-loss", "warning", True, 1)
    # another kind (rushing the opponent, INF-2) and "other" (the judge decides) are not escalated
    assert penalty_history.suggestion(second, p2, "INF-2") == core_pen.Suggestion("warning", "warning", False, 0)
    assert penalty_history.suggestion(second, p2, "INF-OTHER").rung is None


def test_slow_play_cautions_escalate_within_the_event_by_kind(event: Event, judge: User) -> None:
    # INF-23 (OFF C: 「注意」から始まる), PEN-5: a caution for wasting time, then wasting time again: a warning
    p = Player.objects.filter(event=event).first()
    first = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-23")
    assert (first.rung, first.in_database) == ("caution", False)
    again = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-23")
    assert (again.rung, again.rung_reason) == ("warning", "PEN-5")


def test_under_the_official_rules_alone_nothing_is_kept_and_any_judge_disqualifies(organizer: User) -> None:
    # PEN-5, PEN-6 are CS-only (CS 1.3, CS 3): under dkt-2011 a warning is not kept in a violator database,
    # an earlier event's warning escalates nothing, and a floor judge may disqualify (OFF: 審判の判断)
    cs = make_event(organizer, 4, name="CS")
    p_cs = Player.objects.filter(event=cs).first()
    svc.issue_penalty(cs, by=Staff(staff(cs, "floor", "judge")), player=p_cs, infraction="INF-3")
    off = make_event(organizer, 4, name="公認大会", ruleset_name="dkt-2011", date=dt.date(2027, 1, 10))
    judge = staff(off, "floor", "judge")
    p = Player.objects.get(event=off, card_game_id=p_cs.card_game_id)
    # OFF names no default; no database to escalate from
    assert penalty_history.suggestion(off, p, "INF-3").rung is None
    warned = svc.issue_penalty(off, by=Staff(judge), player=p, infraction="INF-3", rung="warning", reason="長考")
    assert not warned.in_database
    dq = svc.issue_penalty(off, by=Staff(judge), player=p, infraction="INF-7", rung="dq", reason="故意")
    assert fresh(p).disqualified and dq.rung == "dq"
    with pytest.raises(ServiceError) as exc:  # CS 1.2's rungs are not on OFF's ladder
        svc.issue_penalty(off, by=Staff(judge), player=p, infraction="INF-7", rung="dq-downgrade", reason="x")
    assert exc.value.problem.code == "unknown-rung"


def test_cautions_are_not_in_the_database_but_manners_escalate_in_the_event(event: Event, judge: User) -> None:
    # PEN-5, INF-21
    p = Player.objects.filter(event=event).first()
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-21")
    assert pen.rung == "caution" and not pen.in_database
    assert penalty_history.history(p.card_game_id) == []
    assert penalty_history.suggestion(event, p, "INF-21").rung == "warning"


def test_database_search_export_import(event: Event, judge: User, head: User, organizer: User) -> None:
    # PEN-5
    p = Player.objects.filter(event=event).first()
    svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-4")
    found = database.search(event, by=Staff(judge), query=p.card_game_id)
    assert found[0]["rows"][0]["rung"] == "warning"
    assert database.search(event, by=Staff(judge), query=p.name[:2])
    data = database.export_database(event, by=Staff(judge), source="serverA")
    assert data["records"][0]["card_game_id"] == p.card_game_id
    # the other server of the series imports it (here: the same database, as another source)
    data["records"][0]["key"] = "serverB:1"
    with pytest.raises(ServiceError):
        database.import_database(event, by=Staff(judge), data=data)  # head judge only
    assert database.import_database(event, by=Staff(head), data=data) == 1
    assert database.import_database(event, by=Staff(head), data=data) == 0
    assert DatabaseRecord.objects.count() == 1
    assert len(penalty_history.history(p.card_game_id)) == 2
    with pytest.raises(ServiceError):
        database.import_database(event, by=Staff(head), data={"format": "other"})


def test_players_cannot_search_the_database(event: Event) -> None:
    # PEN-5: access restricted to judges and organizers
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ServiceError):
        database.search(event, by=Staff(AnonymousUser()), query="1000000000")


def test_round_pairing_unchanged_by_light_penalties(event: Event, judge: User, organizer: User) -> None:
    # PEN-1: caution/warning have no automatic effect
    m = pair(event, organizer)[0]
    svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-12")
    assert fresh(m).status == Match.Status.PENDING and fresh(m).record is None
    assert progress.plan(event).open_tables == 4


def test_marked_sleeves_are_recorded_as_an_infraction(event: Event, judge: User) -> None:
    # DECK-12 (physical, recorded as infraction INF-11 marked cards or sleeves; the judge picks the rung)
    p = Player.objects.filter(event=event).first()
    pen = svc.issue_penalty(
        event,
        by=Staff(judge),
        player=p,
        infraction="INF-11",
        rung="warning",
        reason="sleeves replaced at once",
        description="two sleeves with bent corners",
    )
    assert (pen.infraction, pen.rung) == ("INF-11", "warning")
    assert AuditEntry.objects.filter(event_id=event.pk, action="taikai.judging.penalty_issued").exists()
