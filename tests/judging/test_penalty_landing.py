"""Where penalties, disqualifications and reports meet the match (issue 13): INF-20 after time, a DQ during a
match, where a duel or match loss lands (PEN-1), reports that differ from the game (END-2, INF-22)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai import messages
from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, Round, TeamMatch
from taikai.events.services import clock as clock_services
from taikai.events.services import links
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services import teams as team_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall, Penalty
from taikai.judging.services import penalties as svc
from taikai.judging.services import penalty_effects, penalty_reversal, time_procedure
from tests.factories import A_WINS, fresh, make_event, pair, play, staff

pytestmark = pytest.mark.django_db


def side_of(match: Match, player: Player) -> str:
    return "A" if match.player_a_id == player.pk else "B"


# --- 1. INF-20 after time (CS 2.1 B) ------------------------------------------------------------------


def test_inf_20_time_s_5_penalised_in_duel_1_under_time_the_opponent_wins_the_match(
    event: Event, judge: User, organizer: User
) -> None:
    # TIME-S-5: the record used to stay pending, waiting for a duel 2
    m = pair(event, organizer)[0]
    time_procedure.start(m, by=Staff(judge), between=False, turn_player="A", duels=[])
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-20")
    m = fresh(m)
    assert (m.status, m.result, m.record["duels"]) == ("confirmed", "b", [{"winner": "B", "time_called": True}])
    assert "TIME-S-5" in m.record["rules"]
    assert (pen.lands_on, pen.match_id, pen.effects[0]["kind"]) == ("current", m.pk, "time-procedure")


def test_inf_20_time_s_4_one_nil_up_and_penalised_under_time_in_duel_2_is_a_match_draw(
    event: Event, judge: User, organizer: User
) -> None:
    # TIME-S-4 (1-1 after time in duel 2): taikai used to expect an ordinary duel 3
    m = pair(event, organizer)[0]
    time_procedure.start(m, by=Staff(judge), between=False, turn_player="B", duels=[{"winner": "A"}])
    svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-20")
    m = fresh(m)
    assert (m.status, m.result, m.duel_wins_a, m.duel_wins_b) == ("confirmed", "draw", 1, 1)
    assert "TIME-S-4" in m.record["rules"]


def test_inf_20_time_e_5_in_elimination_the_same_penalty_sends_the_table_to_an_extra_duel(organizer: User) -> None:
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    judge = staff(event, "floor", "judge")
    m = pair(event, organizer)[0]
    run = time_procedure.start(m, by=Staff(judge), between=False, turn_player="B", duels=[{"winner": "A"}])
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-20")
    proc = time_procedure.replay(fresh(run), fresh(m))
    assert (proc.phase.value, proc.state.next.value) == ("extra_duel_rps", "extra_duel")  # TIME-E-5
    assert fresh(m).status == Match.Status.PENDING
    # an appeal overturns it: the step is taken back, the table is where it was
    penalty_reversal.reverse_penalty(pen, by=Staff(staff(event, "head", "head_judge")))
    assert fresh(run).inputs == [] and time_procedure.replay(fresh(run), fresh(m)).phase.value == "finish_turn"


def test_inf_20_without_a_time_procedure_the_judge_says_time_was_called(
    event: Event, judge: User, organizer: User
) -> None:
    # TIME-S-5 by the penalty form's "time was called in this duel"
    m = pair(event, organizer)[0]
    svc.issue_penalty(event, by=Staff(judge), player=m.player_b, infraction="INF-20", time_called=True)
    assert (fresh(m).result, fresh(m).status) == ("a", "confirmed")


def test_inf_20_is_refused_in_the_rules_words_where_time_was_never_called(
    event: Event, judge: User, organizer: User
) -> None:
    # INF-20 (CS 2.1 B: 対戦時間終了後、決着がつかなかった場合): no time procedure, no duel under time, the round
    # clock not run out, and the judge did not say time was called
    m = pair(event, organizer)[0]
    before = Penalty.objects.count()
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-20")
    assert exc.value.problem.code == "infraction-needs-time-called"
    assert "対戦時間終了後" in messages.text(exc.value.problem, "ja")
    assert "after time was called" in messages.text(exc.value.problem, "en")
    assert Penalty.objects.count() == before and fresh(m).status == Match.Status.PENDING  # nothing written


def test_inf_20_is_accepted_once_the_round_clock_has_run_out(event: Event, judge: User, organizer: User) -> None:
    # INF-20: time called for the round (TIME-1) is time called at every table still playing
    m = pair(event, organizer)[0]
    rnd = m.round
    clock_services.start_round(rnd, by=Staff(organizer))
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(seconds=rnd.time_limit_seconds + 5))
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-20")
    assert pen.rung == "duel-loss" and pen.lands_on == "current"


# --- 2. a DQ during a match resolves it ----------------------------------------------------------------


def test_pen_1_a_dq_during_the_last_match_resolves_it_and_the_next_round_pairs_at_once(
    event: Event, head: User, organizer: User
) -> None:
    # It used to stay pending: round-not-finished until someone typed a result
    matches = pair(event, organizer)
    play(event, organizer, matches[1:])
    last = matches[0]
    dq = svc.issue_penalty(event, by=Staff(head), player=last.player_a, infraction="INF-9")
    m = fresh(last)
    assert (m.status, m.result, m.version) == ("confirmed", "b", last.version + 1)
    assert dq.lands_on == "current" and fresh(dq.player).dropped
    assert AuditEntry.objects.filter(action="taikai.match.result_corrected", object_id=str(m.pk)).exists()
    assert Round.objects.get(pk=m.round_id).status == Round.Status.FINISHED
    nxt = pair(event, organizer)  # no round-not-finished
    assert all(last.player_a_id not in (n.player_a_id, n.player_b_id) for n in nxt)


def test_pen_1_a_dq_after_the_match_leaves_its_result(event: Event, head: User, organizer: User) -> None:
    matches = pair(event, organizer)
    play(event, organizer, matches)
    dq = svc.issue_penalty(event, by=Staff(head), player=matches[0].player_b, infraction="INF-9")
    assert fresh(matches[0]).result == "a" and dq.lands_on == "" and not dq.waiting_for_next_match


def test_pen_4_a_team_dq_resolves_every_seat_match_of_the_team(organizer: User) -> None:
    event = make_event(organizer, 0, is_team_event=True)
    head = staff(event, "head", "head_judge")
    for t in range(2):
        members = [{"name": f"T{t}{s}", "card_game_id": f"{3000000000 + t * 10 + i}"} for i, s in enumerate("ABC")]
        team_services.register_team(event, by=Staff(organizer), name=f"チーム{t}", members=members)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    seats = list(rnd.matches.order_by("seat"))
    result_services.enter_result(seats[0], by=Staff(organizer), result=A_WINS())  # seat A already over
    culprit = seats[1].player_a
    svc.issue_penalty(event, by=Staff(head), player=culprit, infraction="INF-9")
    results = {m.seat: (m.status, m.result) for m in rnd.matches.all()}
    assert results == {"A": ("confirmed", "a"), "B": ("confirmed", "b"), "C": ("confirmed", "b")}
    assert TeamMatch.objects.get(round=rnd).result == "b"  # settled: 2 of 3 seats
    assert fresh(rnd).status == Round.Status.FINISHED


# --- 11. where a duel or match loss lands --------------------------------------------------------------


def test_pen_1_a_match_loss_after_a_confirmed_match_waits_for_the_next_one(
    event: Event, judge: User, organizer: User
) -> None:
    # It used to overwrite the confirmed match silently
    matches = pair(event, organizer)
    play(event, organizer, matches)
    p = matches[0].player_a
    pen = svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-3", rung="match-loss", reason="third")
    assert (fresh(matches[0]).result, pen.lands_on, pen.waiting_for_next_match) == ("a", "next", True)
    entry = AuditEntry.objects.get(action="taikai.judging.penalty_issued", object_id=str(pen.pk))
    assert entry.after["lands_on"] == "next"
    nxt = next(m for m in pair(event, organizer) if p.pk in (m.player_a_id, m.player_b_id))
    # PEN-1: it lands as the next match is paired (issue 22), not when a judge next opens the queue
    assert penalty_effects.pending_penalties(event) == [] and fresh(pen).waiting_for_next_match is False
    m = fresh(nxt)
    assert m.status == "confirmed" and m.result == ("b" if side_of(m, p) == "A" else "a")
    assert fresh(pen).match_id == m.pk and not fresh(pen).waiting_for_next_match


def test_pen_1_the_judge_may_put_a_match_loss_on_the_match_just_finished(
    event: Event, judge: User, organizer: User
) -> None:
    matches = pair(event, organizer)
    play(event, organizer, matches)
    p = matches[0].player_a
    pen = svc.issue_penalty(
        event, by=Staff(judge), player=p, infraction="INF-3", rung="match-loss", reason="r", lands_on="current"
    )
    assert (fresh(matches[0]).result, pen.lands_on, pen.match_id) == ("b", "current", matches[0].pk)
    # a duel loss cannot be put on a match already over (no duel is being played there)
    with pytest.raises(ServiceError) as exc:
        svc.issue_penalty(event, by=Staff(judge), player=p, infraction="INF-14", lands_on="current")
    assert exc.value.problem.code == "penalty-lands-current-impossible"
    assert Penalty.objects.count() == 1


def test_pen_1_the_judge_may_send_a_duel_loss_to_the_next_match(event: Event, judge: User, organizer: User) -> None:
    m = pair(event, organizer)[0]
    pen = svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-14", lands_on="next")
    assert (fresh(m).record, pen.waiting_for_next_match, pen.lands_on) == (None, True, "next")


def test_pen_1_the_player_sees_where_the_penalty_landed(event: Event, judge: User, organizer: User) -> None:
    m = pair(event, organizer)[0]
    token = links.issue_access(m.player_a, by=Staff(organizer))
    svc.issue_penalty(event, by=Staff(judge), player=m.player_a, infraction="INF-3", rung="match-loss", reason="r")
    page = Client().get(f"/p/{token}/record/").content.decode()
    assert "player-penalties" in page and f"{m.table}" in page and "INF-3" in page


# --- 6. reports that differ from the game (END-2, CS 4.3, INF-22) ---------------------------------------


def id_with(*winners: str) -> ResultInput:
    return ResultInput(tuple({"winner": w} for w in winners), basis="intentional-draw")


def test_end_2_both_players_reporting_an_id_with_two_won_duels_is_refused_and_queued(
    event: Event, organizer: User
) -> None:
    # INF-22: it used to be confirmed as a draw without a word
    m = pair(event, organizer)[0]
    for player in (m.player_a, m.player_b):
        with pytest.raises(ServiceError) as exc:
            result_services.report_result(m, player=player, result=id_with("A", "A"))
        assert exc.value.problem.code == "id-contradicts-duels"
    assert (fresh(m).status, fresh(m).reports.count()) == ("pending", 0)
    [call] = JudgeCall.objects.filter(event=event, topic="possible-misreport")
    assert call.match_id == m.pk and "2–0" in call.description


def test_end_2_staff_entering_an_id_with_a_won_duel_is_refused_not_dropped(event: Event, organizer: User) -> None:
    # It used to be saved as 0-0 with the duel dropped
    m = pair(event, organizer)[0]
    with pytest.raises(ServiceError) as exc:
        result_services.enter_result(m, by=Staff(organizer), result=id_with("B"))
    assert exc.value.problem.code == "id-contradicts-duels"
    assert fresh(m).status == "pending" and JudgeCall.objects.filter(topic="possible-misreport").count() == 1


def test_end_2_an_id_at_one_win_each_keeps_its_duels(event: Event, organizer: User) -> None:
    m = result_services.enter_result(pair(event, organizer)[0], by=Staff(organizer), result=id_with("A", "B"))
    assert (m.result, m.duel_wins_a, m.duel_wins_b, len(m.record["duels"])) == ("draw", 1, 1, 2)


def test_end_2_a_broken_id_agreement_is_reported_as_played_and_nobody_is_flagged(event: Event, organizer: User) -> None:
    # CS 4.3: a player who breaks an agreement to draw and wins has simply won
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_a, result=A_WINS())
    m = result_services.report_result(m, player=m.player_b, result=A_WINS())
    assert (m.status, m.result) == ("confirmed", "a") and not JudgeCall.objects.exists()


# --- 9. a drawn duel in single elimination -------------------------------------------------------------


def test_match_2_a_drawn_duel_in_elimination_is_reported_and_the_match_goes_on(organizer: User) -> None:
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    m = pair(event, organizer)[0]
    drawn = ResultInput(({"winner": "A"}, {"draw": True}, {"winner": "A"}))
    m = result_services.enter_result(m, by=Staff(organizer), result=drawn)
    assert (m.result, m.duel_wins_a, m.duel_draws) == ("a", 2, 1)


# --- 13. MATCH-3: duel 1's rock-paper-scissors in the record -------------------------------------------


def test_match_3_the_opening_is_kept_and_never_disputes_a_report(event: Event, organizer: User) -> None:
    m = pair(event, organizer)[0]
    with_opening = ResultInput(({"winner": "A"}, {"winner": "A"}), opening={"rps_winner": "B", "first": "A"})
    result_services.report_result(m, player=m.player_a, result=with_opening)
    m = result_services.report_result(m, player=m.player_b, result=A_WINS())  # B left it out
    assert m.status == "confirmed"
    assert fresh(m).reports.first().record["opening"] == {"rps_winner": "B", "first": "A"}


def test_pen_1_the_penalty_form_shows_the_match_and_records_the_judges_choice(
    event: Event, judge: User, organizer: User
) -> None:
    from tests.factories import PASSWORD

    m = pair(event, organizer)[0]
    time_procedure.start(m, by=Staff(judge), between=False, turn_player="A", duels=[])
    client = Client()
    client.login(username="floor", password=PASSWORD)
    url = f"/events/{event.pk}/judging/penalties/new/"
    query: dict[str, int | str] = {"player": m.player_a.pk, "infraction": "INF-14"}
    page = client.get(url, query).content.decode()
    assert "penalty-landing" in page and "time-running" in page and m.player_b.name in page
    client.post(url, {"player": m.player_a.pk, "infraction": "INF-14", "issue": "1", "lands_on": "next"})
    pen = Penalty.objects.get()
    assert (pen.lands_on, pen.waiting_for_next_match, fresh(m).status) == ("next", True, "pending")
