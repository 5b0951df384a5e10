"""Judge calls (JUDGE-1/2, TIME-4), integrity checks (END-*), the time procedure, table tools (DEV-1, LOOP-*)
and final prizes (PEN-2, PEN-3) through the services."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.core.ruleset import from_document
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, Round
from taikai.events.services import progress
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall, TableToolLog
from taikai.judging.services import calls, prizes, tools
from taikai.judging.services import penalties as svc
from taikai.judging.services import time_procedure as tps
from tests.factories import fresh, make_event, pair, play, staff

pytestmark = pytest.mark.django_db


def test_player_calls_a_judge_to_their_table(event: Event, judge: User, organizer: User) -> None:
    # JUDGE-1
    m = pair(event, organizer)[1]
    call = calls.raise_call(event, player=m.player_b, description="ruling on a chain", by=PlayerSelf(m.player_b))
    assert (call.table, call.match_id, call.source) == (m.table, m.pk, "player")
    assert calls.open_calls(event) == [call]
    calls.take_call(call, by=Staff(judge))
    calls.rule_call(call, by=Staff(judge), ruling="the chain resolves backwards")
    assert fresh(call).status == JudgeCall.Status.CLOSED and calls.open_calls(event) == []


def test_player_without_a_match_cannot_call(event: Event) -> None:
    # JUDGE-1
    with pytest.raises(ServiceError):
        calls.raise_call(
            event,
            player=Player.objects.filter(event=event).first(),
            by=PlayerSelf(Player.objects.filter(event=event).first()),
        )


def test_ruling_over_a_minute_offers_the_time_spent(event: Event, judge: User, organizer: User) -> None:
    # TIME-4 (CS 3.1: 一分以上)
    m = pair(event, organizer)[0]
    call = calls.raise_call(event, table=m.table, by=Staff(judge))
    calls.take_call(call, by=Staff(judge))
    call = fresh(call)
    assert calls.extension_offer(call, now=call.taken_at + dt.timedelta(seconds=59)) is None
    offer = calls.extension_offer(call, now=call.taken_at + dt.timedelta(seconds=60))
    assert offer is not None and offer.seconds == 60
    JudgeCall.objects.filter(pk=call.pk).update(taken_at=call.taken_at - dt.timedelta(seconds=150))  # 2:30
    calls.rule_call(call, by=Staff(judge), ruling="ok", extension_seconds=150, reason="long ruling")
    assert fresh(m).extension_seconds == 150
    assert AuditEntry.objects.get(action="taikai.match.time_extended").data["reason"] == "long ruling"


def test_spectator_report_reaches_the_queue(event: Event, organizer: User) -> None:
    # JUDGE-2
    m = pair(event, organizer)[2]
    call = calls.report(event, table=m.table, description="saw a card drawn twice", reporter="観戦者")
    assert call.source == "spectator" and call in calls.open_calls(event)
    mate = calls.report(event, table=m.table, description="LP wrong", teammate=True)
    assert mate.source == "teammate"
    with pytest.raises(ServiceError):
        calls.report(event, table=99, description="x")
    with pytest.raises(ServiceError):
        calls.report(event, table=m.table, description=" ")


def test_disputed_result_goes_to_the_queue_once(event: Event, organizer: User) -> None:
    # END-2, END-4
    m = pair(event, organizer)[0]
    a_wins = ResultInput(({"winner": "A"}, {"winner": "A"}))
    b_wins = ResultInput(({"winner": "B"}, {"winner": "B"}))
    result_services.report_result(m, player=m.player_a, result=a_wins)
    result_services.report_result(m, player=m.player_b, result=b_wins)
    queue = calls.open_calls(event)
    assert [c.topic for c in queue] == ["disputed"]
    assert len(calls.open_calls(event)) == 1


def test_result_changed_after_confirmation_goes_to_the_queue(event: Event, organizer: User) -> None:
    # END-2, END-3
    m = pair(event, organizer)[0]
    result_services.enter_result(m, by=Staff(organizer), result=ResultInput(({"winner": "A"},) * 2))
    result_services.correct_result(
        m, by=Staff(organizer), result=ResultInput(({"winner": "B"},) * 2), reason="slip misread"
    )
    assert [c.topic for c in calls.open_calls(event)] == ["changed-after-confirmation"]


def test_intentional_draw_in_elimination_is_refused_and_flagged(organizer: User) -> None:
    # END-2, MATCH-2
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    m = pair(event, organizer)[0]
    assert m.round.stage == Round.Stage.ELIMINATION
    with pytest.raises(ServiceError) as exc:
        result_services.report_result(m, player=m.player_a, result=ResultInput(basis="intentional-draw"))
    assert exc.value.problem.code == "id-not-in-elimination"
    # the refusal is announced (taikai.events.signals); judging flags it, whichever edge sent the report
    assert [c.topic for c in calls.open_calls(event)] == ["id-in-elimination"]


def test_intentional_draw_in_swiss_is_recorded(event: Event, organizer: User) -> None:
    # END-2
    m = pair(event, organizer)[0]
    draw = ResultInput(basis="intentional-draw")
    result_services.report_result(m, player=m.player_a, result=draw)
    result_services.report_result(m, player=m.player_b, result=draw)
    assert (fresh(m).result, fresh(m).basis) == ("draw", "intentional-draw")
    assert calls.open_calls(event) == []


def test_concession_basis_is_kept(event: Event, organizer: User) -> None:
    # END-1
    m = pair(event, organizer)[0]
    conceded = ResultInput(({"winner": "A"}, {"winner": "A"}), basis="concession-own-turn")
    result_services.enter_result(m, by=Staff(organizer), result=conceded)
    assert fresh(m).basis == "concession-own-turn"


def test_misreport_is_dq_losing_prize(event: Event, head: User) -> None:
    # END-2, INF-22
    p = Player.objects.filter(event=event).first()
    pen = svc.issue_penalty(event, by=Staff(head), player=p, infraction="INF-22")
    assert pen.prize_loss and fresh(p).dropped


def test_time_procedure_in_elimination_reaches_a_result(organizer: User) -> None:
    # TIME-E-1, TIME-E-2: walked step by step, stored, and entered as the table's result
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    judge = staff(event, "floor", "judge")
    m = pair(event, organizer)[0]
    run = tps.start(m, by=Staff(judge), between=False, turn_player="A", duels=[{"winner": "A"}])
    proc = tps.give(run, by=Staff(judge), step=["turn_end"])
    assert (proc.phase.value, proc.turn, proc.turn_player.value) == ("extra_turn", 1, "B")
    for _ in range(3):
        proc = tps.give(fresh(run), by=Staff(judge), step=["turn_end"])
    assert proc.phase.value == "life_points"
    tps.give(fresh(run), by=Staff(judge), step=["life_points", 3000, 2000])
    m = fresh(m)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "a")
    assert fresh(run).result_entered
    with pytest.raises(ServiceError):
        tps.give(fresh(run), by=Staff(judge), step=["turn_end"])


def test_time_procedure_survives_a_reload_and_refuses_wrong_inputs(event: Event, judge: User, organizer: User) -> None:
    # TIME-S-2
    m = pair(event, organizer)[0]
    run = tps.start(m, by=Staff(judge), between=False, turn_player="B", duels=[])
    tps.give(run, by=Staff(judge), step=["turn_end"])
    with pytest.raises(ServiceError) as exc:
        tps.give(fresh(run), by=Staff(judge), step=["first_player", "A"])
    assert exc.value.problem.code == "procedure-input"
    assert tps.replay(fresh(run), m).turn == 1  # replayed from the stored inputs
    for _ in range(3):
        tps.give(fresh(run), by=Staff(judge), step=["turn_end"])
    tps.give(fresh(run), by=Staff(judge), step=["life_points", 500, 500])
    assert fresh(m).result == "draw"  # TIME-S-2, TIME-S-5


def test_time_between_duels_in_swiss(event: Event, judge: User, organizer: User) -> None:
    # TIME-S-6
    m = pair(event, organizer)[0]
    tps.start(m, by=Staff(judge), between=True, duels=[{"winner": "B"}])
    assert fresh(m).result == "b"


def test_coin_and_die_are_server_side_and_logged(event: Event, judge: User) -> None:
    # DEV-1
    coins = {tools.flip_coin(event, 3, by=Staff(judge)).value for _ in range(40)}
    dice = {int(tools.roll_die(event, 3, by=Staff(judge)).value) for _ in range(60)}
    assert coins == {"heads", "tails"} and dice <= set(range(1, 7)) and len(dice) >= 4
    assert TableToolLog.objects.filter(table=3).count() == 100
    assert AuditEntry.objects.filter(action="taikai.judging.table_tool").count() == 100


def test_table_tools_need_a_judge_or_the_player(event: Event) -> None:
    # DEV-1
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ServiceError):
        tools.flip_coin(event, 1, by=Staff(AnonymousUser()))
    assert tools.flip_coin(
        event,
        1,
        player=Player.objects.filter(event=event).first(),
        by=PlayerSelf(Player.objects.filter(event=event).first()),
    ).value


def test_loop_counter_prompts_on_the_fourth_repetition(event: Event, judge: User) -> None:
    # LOOP-2 (CS 4.12): three times allowed, the 4th time the first actor must deviate
    states = [tools.loop_repeat(event, 5, by=Staff(judge)) for _ in range(4)]
    assert [s.repetitions for s in states] == [1, 2, 3, 4]
    assert [s.must_deviate for s in states] == [False, False, False, True]
    assert tools.loop_reset(event, 5, by=Staff(judge)).repetitions == 0
    assert tools.loop_state(event, 6).repetitions == 0


def test_the_loop_limit_is_the_rulesets(event: Event, judge: User) -> None:
    # LOOP-2: the repetition that makes the first actor deviate is a ruleset parameter (match.loop_limit)
    document = {**event.ruleset_document, "match": {**event.ruleset_document["match"], "loop_limit": 3}}
    house = from_document(document)
    Event.objects.filter(pk=event.pk).update(ruleset_document=house.to_dict(), ruleset_fingerprint=house.fingerprint)
    event = Event.objects.get(pk=event.pk)
    states = [tools.loop_repeat(event, 7, by=Staff(judge)) for _ in range(3)]
    assert [s.must_deviate for s in states] == [False, False, True]
    page = Client().get(f"/judging/rules/?event={event.pk}", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "3回目に同じ局面になった時" in page and "4回目に同じ局面" not in page


def test_rules_reference_covers_loops_concession_and_time(client: Client) -> None:
    # LOOP-1, LOOP-2, END-1
    ja = client.get("/judging/rules/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "LOOP-1" in ja and "LOOP-2" in ja and "投了" in ja and "エキストラターン" in ja
    client.cookies.load({"django_language": "en"})
    en = client.get("/judging/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Concession" in en or "投了" in en


RANKS = [("1st", 1, 1, False), ("2nd", 2, 2, False), ("3rd-4th", 3, 4, True)]


def _top4(organizer: User) -> Event:
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    for _ in range(2):
        play(event, organizer, pair(event, organizer))
    return event


def test_prize_standings_from_the_bracket(organizer: User) -> None:
    # PEN-3
    event = _top4(organizer)
    prizes.set_prize_ranks(event, by=Staff(organizer), ranks=RANKS)
    awards = prizes.prize_standings(event).awards
    assert awards is not None and not awards.playoff_needed
    assert [len(r.entrants) for r in awards.ranks] == [1, 1, 2]


def test_dq_of_second_place_calls_for_a_playoff_and_pairs_it(organizer: User) -> None:
    # PEN-3
    event = _top4(organizer)
    head = staff(event, "head", "head_judge")
    prizes.set_prize_ranks(event, by=Staff(organizer), ranks=RANKS)
    second = int(prizes.final_order(event)[1][0])
    svc.issue_penalty(event, by=Staff(head), player=Player.objects.get(pk=second), infraction="INF-19")
    awards = prizes.prize_standings(event).awards
    assert awards is not None and awards.playoff_needed
    assert awards.playoffs[0].slots == 1 and len(awards.playoffs[0].candidates) == 2
    rows = prizes.pair_playoffs(event, by=Staff(head))
    assert rows[0].prize_label == "2nd" and len(rows[0].pairs) == 1


def test_downgrade_lowers_the_prize_and_promotes(organizer: User) -> None:
    # PEN-2
    event = _top4(organizer)
    head = staff(event, "head", "head_judge")
    prizes.set_prize_ranks(
        event, by=Staff(organizer), ranks=[("1st", 1, 1, False), ("2nd", 2, 2, False), ("3rd", 3, 4, False)]
    )
    order = prizes.final_order(event)
    first = Player.objects.get(pk=int(order[0][0]))
    svc.issue_penalty(event, by=Staff(head), player=first, infraction="INF-9", rung="dq-downgrade", reason="less clear")
    awards = prizes.prize_standings(event).awards
    assert awards is not None and awards.ranks[1].entrants[0] == str(first.pk)
    assert awards.ranks[0].entrants == (order[1][0],)


def test_prize_ranks_are_validated_and_organizer_only(event: Event, judge: User, organizer: User) -> None:
    # PEN-3
    with pytest.raises(ServiceError):
        prizes.set_prize_ranks(event, by=Staff(organizer), ranks=[("2nd", 2, 2, False)])
    with pytest.raises(ServiceError):
        prizes.set_prize_ranks(event, by=Staff(judge), ranks=RANKS)
    progress.plan(event)
