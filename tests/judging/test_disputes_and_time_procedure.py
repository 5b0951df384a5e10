"""Disputes settle and close; the time procedure confirms an early start and takes back a mis-tap (issue 14.19-21)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall, TimeProcedureRun
from taikai.judging.services import time_procedure as tps
from tests.factories import PASSWORD, fresh, pair
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

A_WINS = ResultInput(({"winner": "A"}, {"winner": "A"}))
B_WINS = ResultInput(({"winner": "B"}, {"winner": "A"}, {"winner": "B"}))


def disputed(event: Event, organizer: User) -> Match:
    m = pair(event, organizer)[0]
    result_services.report_result(m, player=m.player_a, result=A_WINS)
    result_services.report_result(m, player=m.player_b, result=B_WINS)
    return fresh(m)


def test_the_dispute_card_shows_both_reports_in_words(event: Event, organizer: User, judge: User) -> None:
    # END-4: the judge sees what each player reported, by name, before going to the table.
    m = disputed(event, organizer)
    client = Client()
    client.login(username=judge.username, password=PASSWORD)
    page = visible_text(client.get(f"/events/{event.pk}/judging/").content.decode())
    assert "結果の不一致" in page and "不正確認" not in page
    assert f"{m.player_a.name} 報告: {m.player_a.name} の勝ち 2–0" in page
    assert f"{m.player_b.name} 報告: {m.player_b.name} の勝ち 2–1" in page
    call = JudgeCall.objects.get(match=m)
    detail = visible_text(client.get(f"/events/{event.pk}/judging/calls/{call.pk}/").content.decode())
    assert f"{m.player_b.name} の勝ち 2–1" in detail and "winner" not in detail


def test_the_dispute_call_closes_when_the_result_is_entered(event: Event, organizer: User) -> None:
    # END-4: once staff enter the settled result, the call is done (audited, by taikai itself).
    m = disputed(event, organizer)
    call = JudgeCall.objects.get(match=m, topic="disputed")
    assert call.status == JudgeCall.Status.OPEN
    result_services.enter_result(m, by=Staff(organizer), result=B_WINS)
    assert fresh(call).status == JudgeCall.Status.CLOSED
    assert AuditEntry.objects.filter(action="taikai.judging.call_settled", object_id=str(call.pk)).count() == 1


def test_the_queue_folds_away_older_rounds_calls(event: Event, organizer: User, judge: User) -> None:
    first = pair(event, organizer)
    client = Client()
    client.login(username=judge.username, password=PASSWORD)
    client.post(f"/events/{event.pk}/judging/calls/new/", {"table": first[0].table, "description": "old call"})
    for m in first:
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS)
    second = pair(event, organizer)
    client.post(f"/events/{event.pk}/judging/calls/new/", {"table": second[1].table, "description": "new call"})
    page = client.get(f"/events/{event.pk}/judging/").content.decode()
    folded = page.index('<details class="card older-calls">')
    assert page.index("new call") < folded < page.index("old call")


def test_an_early_start_asks_first_and_a_mis_tap_can_be_undone(event: Event, organizer: User, judge: User) -> None:
    # TIME-S-1: the procedure belongs to the end of the round; started early only on purpose.
    m = pair(event, organizer)[0]
    clock_services.start_round(m.round, by=Staff(organizer))
    client = Client()
    client.login(username=judge.username, password=PASSWORD)
    url = f"/events/{event.pk}/judging/matches/{m.pk}/time/"
    asked = visible_text(client.post(url, {"start": "1", "when": "during", "turn_player": "A"}).content.decode())
    assert "まだ時間になっていません" in asked and not TimeProcedureRun.objects.filter(match=m).exists()
    client.post(url, {"start": "1", "when": "during", "turn_player": "A", "early": "yes"})
    run = TimeProcedureRun.objects.get(match=m)
    client.post(url, {"step": "turn_end"})
    client.post(url, {"step": "turn_end"})  # the mis-tap
    assert len(fresh(run).inputs) == 2
    client.post(url, {"undo": "1"})
    assert fresh(run).inputs == [["turn_end"]]
    assert AuditEntry.objects.filter(action="taikai.judging.time_procedure_undone").count() == 1


def test_the_procedures_result_names_the_winner_in_words(event: Event, organizer: User, judge: User) -> None:
    # TIME-S-2: more LP after the extra turns wins the duel; 1-0 with time called in duel 2 wins the match.
    m = pair(event, organizer)[0]
    run = tps.start(m, by=Staff(judge), between=False, turn_player="A", duels=[{"winner": "B"}])
    for _ in range(1 + event.ruleset.time.extra_turns):
        tps.give(run, by=Staff(judge), step=["turn_end"])
    tps.give(run, by=Staff(judge), step=["life_points", 800, 4000])
    assert fresh(m).status == Match.Status.CONFIRMED
    client = Client()
    client.login(username=judge.username, password=PASSWORD)
    page = visible_text(client.get(f"/events/{event.pk}/judging/matches/{m.pk}/time/").content.decode())
    assert f"{m.player_b.name} の勝ち 2–0" in page and "結果:" not in page


def test_the_prize_table_reads_japanese_labels_and_commas(event: Event, organizer: User) -> None:
    # PEN-2/PEN-3 start from the organizer's prize ranks; a spreadsheet's comma-separated lines read too.
    client = Client()
    client.force_login(organizer)
    client.post(f"/events/{event.pk}/judging/prizes/", {"ranks": "優勝,1,1\n準優勝、２、２\nベスト4 3 4 ="})
    ranks = [(r.label, r.first, r.last, r.shared) for r in event.prize_ranks.order_by("first")]
    assert ranks == [("優勝", 1, 1, False), ("準優勝", 2, 2, False), ("ベスト4", 3, 4, True)]
