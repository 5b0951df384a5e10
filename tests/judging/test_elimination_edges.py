"""Single-elimination edges the text is silent on (issue 23, finding 5): a game drawn during the extra turns
or the extra duel, and 1–1–1. The judge records each (the forms have a row for every duel core asks for),
taikai applies its reading, and the judges' queue shows it flagged."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from taikai.events.actors import Staff
from taikai.events.models import Event, Match, StaffRole
from taikai.events.services import links, results
from taikai.events.services.result_form import result_form
from taikai.events.services.result_input import ResultInput
from taikai.judging.models import JudgeCall
from taikai.judging.services import time_procedure as tps
from tests.factories import PASSWORD, fresh, make_event, pair, staff


def _elimination(organizer: User) -> tuple[Event, Match, Any]:
    event = make_event(organizer, 4, format=Event.Format.ELIMINATION)
    judge = staff(event, "head", StaffRole.Role.HEAD_JUDGE)
    return event, pair(event, organizer)[0], judge


def _flags(match: Match) -> set[str]:
    return set(JudgeCall.objects.filter(match=match, source="integrity").values_list("topic", flat=True))


def test_match_2_one_all_and_a_draw_goes_to_the_extra_duel_entered_on_the_staff_form(organizer: User) -> None:
    # MATCH-2, TIME-E-5: 1-1-1 has no 4th duel (最大３デュエル): the extra duel decides, on the form's extra row
    event, table, head = _elimination(organizer)
    form = result_form(table)
    assert [(r.number, r.extra_duel, r.draw) for r in form.rows][3:] == [(4, True, True), (5, True, True)]
    post = {"duel1": "A", "duel2": "draw", "duel3": "B", "duel4": "B", "duel4_extra": "1"}
    results.enter_result(table, by=Staff(organizer), result=ResultInput.from_post(post))
    m = fresh(table)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "b")
    assert _flags(m) == {"reading-tied-after-most-duels"}


def test_time_e_7_a_game_drawn_in_the_extra_turns_is_recorded_and_flagged(organizer: User) -> None:
    event, table, head = _elimination(organizer)
    post = {"duel1": "A", "duel2": "draw", "duel2_tc": "1"}  # A 1-0 up, then the game drew after time
    results.enter_result(table, by=Staff(organizer), result=ResultInput.from_post(post))
    m = fresh(table)
    assert (m.result, m.duel_wins_a, m.duel_draws) == ("a", 1, 1)
    assert _flags(m) == {"reading-draw-after-time"}


def test_time_e_6_a_drawn_extra_duel_is_played_again_on_the_replay_row(organizer: User) -> None:
    event, table, head = _elimination(organizer)
    post = {"between": "1", "duel4": "draw", "duel4_extra": "1", "duel5": "time", "duel5_extra": "1",
            "duel5_lp_a": "8000", "duel5_lp_b": "6500"}  # fmt: skip
    results.enter_result(table, by=Staff(organizer), result=ResultInput.from_post(post))
    m = fresh(table)
    assert m.result == "a" and _flags(m) == {"reading-draw-in-extra-duel"}


def test_time_e_7_the_judge_records_a_game_draw_in_the_time_procedure(organizer: User) -> None:
    # the judge was stuck: the procedure offered no draw in single elimination
    event, table, head = _elimination(organizer)
    run = tps.start(table, by=Staff(head), between=False, turn_player="A", duels=[])
    proc = tps.give(run, by=Staff(head), step=["draw"])  # 0-0 after a drawn duel: the extra duel
    assert proc.phase.value == "extra_duel_rps" and "TIME-E-5" in proc.state.rules
    tps.give(fresh(run), by=Staff(head), step=["first_player", "B"])
    tps.give(fresh(run), by=Staff(head), step=["draw"])  # the extra duel drew too: played again
    tps.give(fresh(run), by=Staff(head), step=["first_player", "A"])
    tps.give(fresh(run), by=Staff(head), step=["win", "B"])
    m = fresh(table)
    assert (m.status, m.result) == (Match.Status.CONFIRMED, "b")
    assert _flags(m) == {"reading-draw-after-time", "reading-draw-in-extra-duel"}


def test_time_e_6_the_flag_is_in_the_head_judges_queue_in_words(organizer: User, client: Client) -> None:
    event, table, head = _elimination(organizer)
    post = {"duel1": "A", "duel2": "draw", "duel3": "B", "duel4": "B", "duel4_extra": "1"}
    results.enter_result(table, by=Staff(organizer), result=ResultInput.from_post(post))
    client.login(username=head.username, password=PASSWORD)
    page = client.get(f"/events/{event.pk}/judging/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "トーナメントで1勝1敗1引き分け" in page and "エキストラデュエルで判定" in page


def test_time_e_6_both_forms_offer_the_extra_duel_rows_with_a_draw(organizer: User, client: Client) -> None:
    event, table, head = _elimination(organizer)
    client.force_login(organizer)
    staff_page = client.get(f"/events/{event.pk}/matches/{table.pk}/result/", HTTP_ACCEPT_LANGUAGE="ja")
    token = links.issue_access(table.player_a, by=Staff(organizer))
    phone = Client().get(f"/p/{token}/", HTTP_ACCEPT_LANGUAGE="ja")
    for page in (staff_page.content.decode(), phone.content.decode()):
        assert 'name="duel5_extra"' in page and page.count('name="duel5" value="draw"') == 1
        assert 'name="duel4" value="draw"' in page and "引き分けたエキストラデュエルのやり直し" in page


def test_time_e_6_the_rules_page_states_the_readings_from_the_ruleset(organizer: User) -> None:
    # MATCH-2, TIME-E-5..7, PEN-1, REG-2, PEN-6: the readings where the text is silent are written on the page
    page = Client().get("/judging/rules/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "エキストラデュエル（8000LP・4ターン、先攻後攻はじゃんけん）をやり直します" in page
    assert "マッチは最大3デュエルなので4デュエル目は行わず" in page
    assert "相手プレイヤーがマッチの勝者" in page and "理由を記録して取り消せます" in page
    english = Client()
    english.cookies.load({"taikai_language": "en"})
    en = english.get("/judging/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "the extra duel (8000 LP, 4 turns" in en and "withdrawn by the head judge, with a reason" in en


def test_match_5_match_6_the_rules_page_says_what_the_players_do_at_the_table() -> None:
    # MATCH-5 (マスタールール２), MATCH-6 (エクストラデッキとサイドデッキの枚数を提示する): played at the table,
    # not recorded by taikai; the rules page says so in both languages
    page = Client().get("/judging/rules/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "大会ルールは「マスタールール２」です" in page
    assert "エクストラデッキとサイドデッキの枚数を対戦相手に見せます" in page
    english = Client()
    english.cookies.load({"taikai_language": "en"})
    en = english.get("/judging/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "played under Master Rule 2" in en and "how many cards are in their extra deck and side deck" in en
