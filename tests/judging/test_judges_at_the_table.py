"""Issue 24, items 10-14 and 16: what a judge does at the table, through the pages, without a browser.

The browser walk of the same (390x844, ja-JP, taps, the judge and both players at once) is
tests/judging/test_judges_at_the_table_browser.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.audit import feed
from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match
from taikai.events.services import clock as clock_services
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall, TimeProcedureRun
from taikai.judging.services import appeals, calls
from taikai.judging.services import penalties as penalty_services
from taikai.judging.services import time_procedure as tps
from tests.factories import PASSWORD, fresh, pair, staff
from tests.visible import visible_text

pytestmark = pytest.mark.django_db


def _client(user: User) -> Client:
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    client.cookies["taikai_language"] = "ja"
    return client


def _page(client: Client, url: str) -> str:
    return visible_text(client.get(url).content.decode())


def _to_lp(run: TimeProcedureRun, judge: User, event: Event) -> None:
    for _ in range(1 + event.ruleset.time.extra_turns):  # the called turn, then the extra turns (TIME-S-1)
        tps.give(run, by=Staff(judge), step=["turn_end"], enter=False)


# --- 10. one thumb: the winner buttons, the duel-by-duel form one tap away -----------------------------------------


def test_the_judges_result_page_offers_each_result_in_words_and_saves_on_the_second_tap(
    event: Event, organizer: User
) -> None:  # MATCH-1: the one-tap results are those the ruleset's match allows, named by the winner
    m = pair(event, organizer)[0]
    client = Client()
    client.force_login(organizer)
    client.cookies["taikai_language"] = "ja"
    url = f"/events/{event.pk}/matches/{m.pk}/result/"
    html = client.get(url).content.decode()
    assert f"{m.player_a.name} の勝ち 2–1" in html and f"{m.player_b.name} の勝ち 2–0" in html
    assert '<details class="card duel-detail">' in html  # the duel-by-duel form folded, one tap away
    asked = client.post(url, {"outcome": "2-1", "version": m.version})
    assert "これでよいですか" in visible_text(asked.content.decode())
    assert fresh(m).status == Match.Status.PENDING  # one tap asks; it does not save
    client.post(url, {"outcome": "2-1", "version": m.version, "confirm": "yes"})
    saved = fresh(m)
    assert saved.status == Match.Status.CONFIRMED and saved.result == "a" and saved.duel_wins_b == 1


# --- 11. the time procedure's deciding step can be undone; a floor judge is told first; the judge corrects -------


def test_time_s_2_the_deciding_step_waits_for_the_judge_and_can_be_undone(
    event: Event, organizer: User, judge: User
) -> None:
    # TIME-S-2: more LP after the extra turns wins the duel; the judge confirms it before it is the table's result
    m = pair(event, organizer)[0]
    client = _client(judge)
    url = f"/events/{event.pk}/judging/matches/{m.pk}/time/"
    client.post(url, {"start": "1", "when": "during", "turn_player": "A", "duel1": "B", "early": "yes"})
    run = TimeProcedureRun.objects.get(match=m)
    _to_lp(run, judge, event)
    client.post(url, {"step": "life_points", "lp_a": "800", "lp_b": "4000"})  # B wins duel 2: 0-2
    page = _page(client, url)
    assert f"{m.player_b.name} の勝ち 2–0" in page and "この結果で確定する" in page
    assert fresh(m).status == Match.Status.PENDING
    client.post(url, {"undo": "1"})  # the LP were typed the wrong way round
    assert fresh(run).inputs[-1] == ["turn_end"] and fresh(m).status == Match.Status.PENDING
    client.post(url, {"step": "life_points", "lp_a": "4000", "lp_b": "800"})  # A wins duel 2: 1-1, time: a draw
    client.post(url, {"enter": "1"})
    decided = fresh(m)
    assert decided.status == Match.Status.CONFIRMED and decided.result == "draw"
    assert AuditEntry.objects.filter(action="taikai.judging.time_procedure_undone").count() == 1
    assert "この結果を訂正する" in _page(client, url)


def test_the_procedure_refuses_to_enter_a_result_it_has_not_reached(event: Event, organizer: User, judge: User) -> None:
    # TIME-S-1: while the extra turns go on there is no result to enter
    m = pair(event, organizer)[0]
    run = tps.start(m, by=Staff(judge), between=False, turn_player="A", duels=[], enter=False)
    with pytest.raises(ServiceError) as refused:
        tps.enter_decided(run, by=Staff(judge))
    assert refused.value.problem.code == "procedure-not-done"


def test_a_floor_judge_is_told_what_they_may_do_before_any_form(event: Event, organizer: User, judge: User) -> None:
    m = pair(event, organizer)[0]
    client = _client(judge)
    html = client.get(f"/events/{event.pk}/matches/{m.pk}/result/").content.decode()
    page = visible_text(html)
    assert "この卓の結果は大会運営者が入力します" in page and "ジャッジができること" in page
    assert 'name="outcome"' not in html and 'name="duel1"' not in html  # nothing to fill in and be refused for
    assert "時間切れの処理" in page


def test_end_3_the_judge_who_entered_a_result_corrects_it_and_another_judge_does_not(
    event: Event, organizer: User, judge: User
) -> None:  # END-3: a correction with a reason, the old result kept in the log
    m = pair(event, organizer)[0]
    run = tps.start(m, by=Staff(judge), between=True, turn_player="A", duels=[{"winner": "A"}], enter=False)
    tps.enter_decided(run, by=Staff(judge))  # TIME-S-6: 1-0 between duels wins the match
    assert fresh(m).result == "a"
    other = staff(event, "floor2", "judge")
    b_wins = ResultInput(({"winner": "B"},), time_called_between_duels=True)
    with pytest.raises(PermissionDenied):
        result_services.correct_result(fresh(m), by=Staff(other), result=b_wins, reason="押し間違い")
    client = _client(judge)
    url = f"/events/{event.pk}/matches/{m.pk}/result/"
    assert "訂正後の結果" in _page(client, url)
    assert "この結果の訂正は大会運営者が行います" in _page(_client(other), url)
    result_services.correct_result(fresh(m), by=Staff(judge), result=b_wins, reason="押し間違い")
    assert fresh(m).result == "b"
    assert AuditEntry.objects.filter(action="taikai.match.result_corrected", object_id=str(m.pk)).count() == 1


# --- 12. the flags reach the live queue; tables still playing after time are marked -------------------------------


def test_end_2_an_integrity_flag_is_a_live_judge_call_message() -> None:
    # END-2, END-4: a refused intentional draw over a lead and a disputed report are flagged (integrity_flagged);
    # the judges' queue refreshes on "judge-call", so the flag must be one
    assert feed.KINDS["taikai.judging.integrity_flagged"] == "judge-call"


def test_end_2_the_misreport_flag_says_the_score_without_english(event: Event, organizer: User) -> None:
    # END-2, INF-22: an intentional draw reported over a 1-0 lead
    m = pair(event, organizer)[0]
    over_a_lead = ResultInput(({"winner": "A"},), basis="intentional-draw")
    with pytest.raises(ServiceError):
        result_services.report_result(m, player=m.player_b, result=over_a_lead)
    call = JudgeCall.objects.get(match=m, topic="possible-misreport")
    assert "1–0" in call.description and "intentional" not in call.description
    assert AuditEntry.objects.filter(action="taikai.judging.integrity_flagged", object_id=str(call.pk)).exists()


def test_time_1_tables_still_playing_after_time_are_marked(event: Event, organizer: User, judge: User) -> None:
    # TIME-1: the round clock (and the table's extensions) ran out and the table has no result
    matches = pair(event, organizer)
    rnd = matches[0].round
    clock_services.start_round(rnd, by=Staff(organizer))
    type(rnd).objects.filter(pk=rnd.pk).update(
        started_at=timezone.now() - dt.timedelta(seconds=rnd.time_limit_seconds + 60)
    )
    result_services.enter_result(matches[1], by=Staff(organizer), result=ResultInput(({"winner": "A"},) * 2))
    Match.objects.filter(pk=matches[2].pk).update(extension_seconds=600)  # ten minutes added: still in time
    html = _client(judge).get(f"/events/{event.pk}/judging/").content.decode()
    section = html[html.index('id="overtime"') : html.index("</section>", html.index('id="overtime"'))]
    assert f"/judging/matches/{matches[0].pk}/time/" in section
    assert matches[1].player_a.name not in section and matches[2].player_a.name not in section
    assert f"制限時間を過ぎて対戦中の卓: {len(matches) - 2}" in visible_text(html)


# --- 13. what was typed survives a refusal ------------------------------------------------------------------------


def test_pen_7_a_refused_penalty_keeps_what_the_judge_typed(event: Event, organizer: User, judge: User) -> None:
    # PEN-7: a rung other than the default needs a reason; refused, the description and the rung stay on the form
    m = pair(event, organizer)[0]
    client = _client(judge)
    post = {
        "player": m.player_a_id,
        "infraction": "INF-2",
        "rung": "caution",
        "description": "相手を急かした",
        "issue": "1",
    }
    html = client.post(f"/events/{event.pk}/judging/penalties/new/", post).content.decode()
    assert "相手を急かした</textarea>" in html
    assert '<option value="caution" selected' in html


# --- 14. appeals: keep or cancel the penalty, shown with its words and its judge ------------------------------------


def test_pen_6_the_appeal_card_names_the_penalty_and_its_judge(
    event: Event, organizer: User, judge: User, head: User
) -> None:
    # PEN-6: the head judge decides appeals of another judge's ruling
    m = pair(event, organizer)[0]
    penalty = penalty_services.issue_penalty(
        event, by=Staff(judge), player=m.player_a, infraction="INF-2", description="何度も急かした"
    )
    appeals.file_appeal(m.player_a, reason="急かしていません", penalty=penalty, by=Staff(judge))
    page = _page(_client(head), f"/events/{event.pk}/judging/")
    assert "罰則を維持" in page and "罰則を取り消す" in page and "支持する" not in page
    assert "警告 · 対戦相手をせかす・罵倒する" in page
    assert "floor が裁定" in page and "何度も急かした" in page and "急かしていません" in page


# --- 16. time extensions in minutes ---------------------------------------------------------------------------------


def test_time_4_the_extension_is_one_field_in_minutes_offered_from_the_ruling(
    event: Event, organizer: User, judge: User
) -> None:  # TIME-4: at most what the ruling took, in whole minutes
    m = pair(event, organizer)[0]
    call = calls.raise_call(event, table=m.table, by=Staff(judge))
    calls.take_call(call, by=Staff(judge))
    JudgeCall.objects.filter(pk=call.pk).update(taken_at=timezone.now() - dt.timedelta(seconds=150))
    client = _client(judge)
    url = f"/events/{event.pk}/judging/calls/{call.pk}/"
    html = client.get(url).content.decode()
    assert html.count('name="extension_minutes"') == 1 and 'name="extension_seconds"' not in html
    assert 'name="extension_minutes" type="number" min="0" max="60" step="1" inputmode="numeric" value="2"' in html
    client.post(url, {"rule": "1", "ruling": "裁定", "extension_minutes": "2"})
    assert fresh(m).extension_seconds == 120 and fresh(call).status == JudgeCall.Status.CLOSED


def test_pen_1_the_duels_already_played_stay_chosen_after_a_refusal(event: Event, organizer: User, judge: User) -> None:
    # PEN-1: a duel loss lands on the duel being played; the duels chosen before a refusal are still chosen
    m = pair(event, organizer)[0]
    client = _client(judge)
    post = {"player": m.player_a_id, "infraction": "INF-2", "rung": "caution", "prior_given": "1", "prior1": "B"}
    html = client.post(f"/events/{event.pk}/judging/penalties/new/", {**post, "issue": "1"}).content.decode()
    assert '<option value="B" selected>' in html


def test_pen_6_going_back_from_the_disqualification_question_keeps_the_text(
    event: Event, organizer: User, head: User
) -> None:  # PEN-6: the head judge is asked twice; "Cancel" is not "start again"
    m = pair(event, organizer)[0]
    client = _client(head)
    url = f"/events/{event.pk}/judging/penalties/new/"
    post = {"player": m.player_a_id, "infraction": "INF-7", "rung": "dq", "description": "カードの効果を偽った"}
    asked = client.post(url, {**post, "issue": "1"}).content.decode()
    back = asked[asked.index('<a class="button" href="') + 24 :].split('"')[0].replace("&amp;", "&")
    assert "カードの効果を偽った</textarea>" in client.get(back).content.decode()


def test_judge_1_a_ruling_typed_on_the_call_survives_going_to_the_penalty(
    event: Event, organizer: User, judge: User
) -> None:
    # JUDGE-1: the ruling is recorded with the call; going to a penalty keeps it (on the call, in the penalty form)
    m = pair(event, organizer)[0]
    call = calls.raise_call(event, table=m.table, by=Staff(judge))
    client = _client(judge)
    url = f"/events/{event.pk}/judging/calls/{call.pk}/"
    went = client.post(url, {"ruling": "墓地のカードを戻させた", "extension_minutes": "", "penalty": m.player_b_id})
    assert went.status_code == 302 and fresh(call).ruling == "墓地のカードを戻させた"
    assert fresh(call).status != JudgeCall.Status.CLOSED
    picked = client.get(went["Location"]).content.decode()  # choosing the infraction carries the text along
    assert '<input type="hidden" name="description" value="墓地のカードを戻させた">' in picked
    assert "墓地のカードを戻させた</textarea>" in client.get(went["Location"] + "&infraction=INF-2").content.decode()
    assert "墓地のカードを戻させた</textarea>" in client.get(url).content.decode()
