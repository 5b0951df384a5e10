"""A DQ, a REG-2 mark or a drop while the player's table is being played (issue 23, finding 4): the open match
ends as ``core.open_match`` reads the rules, on the correction path; the table, the standings row and both
players' pages say what happened, and the next round pairs."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils import translation

from taikai.audit.models import AuditEntry
from taikai.events import actions as event_actions
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Event, Match, Notice
from taikai.events.notice_texts import notice_text
from taikai.events.result_words import result_text
from taikai.events.services import participation
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.services.standings import standings_for
from taikai.judging.services import penalties, time_procedure
from tests.factories import A_WINS, fresh, pair


def _finish_others(organizer: User, matches: list[Match]) -> None:
    for m in matches[1:]:
        result_services.enter_result(m, by=Staff(organizer), result=A_WINS())


def _words(match: Match, lang: str = "ja") -> str:
    with translation.override(lang):
        return result_text(fresh(match))


def _notices(match: Match) -> dict[int, str]:
    return {n.player_id: notice_text(n.kind, n.params, "ja") for n in Notice.objects.filter(match=match)}


def test_a_drop_mid_match_concedes_it_and_the_next_round_pairs(event: Event, organizer: User) -> None:  # END-1
    matches = pair(event, organizer)
    table = matches[0]
    leaver, opponent = table.player_a, table.player_b
    participation.drop_player(leaver, by=PlayerSelf(leaver))
    m = fresh(table)
    assert (m.status, m.result, m.ruling) == (Match.Status.CONFIRMED, "b", "drop-concession")
    assert (m.duel_wins_b, m.duel_wins_a) == (2, 0)
    assert f"{opponent.name} の勝ち 2–0" in _words(m)
    assert f"{leaver.name} が対戦中に棄権（ドロップ）し投了" in _words(m)
    told = _notices(m)
    assert set(told) == {leaver.pk, opponent.pk}
    assert f"{leaver.name} が対戦中に棄権（ドロップ）したため" in told[opponent.pk]
    entry = AuditEntry.objects.filter(action=event_actions.RESULT_CORRECTED, object_id=str(m.pk)).get()
    assert entry.data["cause"] == "leaving" and entry.data["reason"] == "drop-concession"
    _finish_others(organizer, matches)
    nxt = round_services.pair_next_round(event, by=Staff(organizer))  # the dropped player's table waits no more
    paired = {p for mm in nxt.matches.all() for p in (mm.player_a_id, mm.player_b_id)}
    assert leaver.pk not in paired and opponent.pk in paired


def test_a_drop_after_the_table_reported_leaves_the_report_as_it_is(event: Event, organizer: User) -> None:  # END-3
    table = pair(event, organizer)[0]
    result_services.report_result(table, player=table.player_b, result=A_WINS())
    participation.drop_player(table.player_a, by=Staff(organizer))
    m = fresh(table)
    assert (m.status, m.result, m.ruling) == (Match.Status.REPORTED, "a", "")
    assert not Notice.objects.filter(match=m).exists()


def test_a_drop_between_rounds_changes_no_table(event: Event, organizer: User) -> None:  # END-1
    matches = pair(event, organizer)
    result_services.enter_result(matches[0], by=Staff(organizer), result=A_WINS())
    before = fresh(matches[0]).version
    participation.drop_player(matches[0].player_b, by=Staff(organizer))
    assert fresh(matches[0]).version == before and fresh(matches[0]).ruling == ""


def test_losing_the_right_to_take_part_mid_match_forfeits_it_and_marks_the_row(
    event: Event, organizer: User
) -> None:  # REG-2
    matches = pair(event, organizer)
    table = matches[0]
    leaver, opponent = table.player_a, table.player_b
    participation.mark_ineligible(leaver, by=Staff(organizer), reason="IDの登録情報に誤り")
    m = fresh(table)
    assert (m.status, m.result, m.ruling) == (Match.Status.CONFIRMED, "b", "ineligible-forfeit")
    assert f"{leaver.name} が参加資格を失ったため" in _words(m)
    told = _notices(m)
    assert "参加資格を失ったため" in told[opponent.pk] and "参加資格を失ったため" in told[leaver.pk]
    own = Notice.objects.get(player=leaver, kind="ineligible")
    assert "IDの登録情報に誤り" in notice_text(own.kind, own.params, "ja")
    row = next(r for r in standings_for(event) if r.player_id == leaver.pk)
    assert row.ineligible and not next(r for r in standings_for(event) if r.player_id == opponent.pk).ineligible
    _finish_others(organizer, matches)
    nxt = round_services.pair_next_round(event, by=Staff(organizer))
    assert leaver.pk not in {p for mm in nxt.matches.all() for p in (mm.player_a_id, mm.player_b_id)}


def test_a_dq_mid_match_says_on_the_table_that_the_player_was_disqualified(
    event: Event, organizer: User, head: User
) -> None:  # PEN-1
    matches = pair(event, organizer)
    table = matches[0]
    penalties.issue_penalty(event, by=Staff(head), player=table.player_a, infraction="INF-19")
    m = fresh(table)
    assert (m.status, m.result, m.ruling) == (Match.Status.CONFIRMED, "b", "dq-forfeit")
    assert f"{table.player_b.name} の勝ち 2–0（{table.player_a.name} の失格による）" == _words(m)
    assert f"{table.player_a.name} was disqualified" in _words(m, "en")
    _finish_others(organizer, matches)
    round_services.pair_next_round(event, by=Staff(organizer))


def test_a_played_result_names_no_ruling(event: Event, organizer: User) -> None:  # END-4
    table = pair(event, organizer)[0]
    result_services.enter_result(table, by=Staff(organizer), result=A_WINS())
    assert _words(table) == f"{table.player_a.name} の勝ち 2–0"


def test_a_drop_while_time_is_called_at_the_table_ends_the_time_procedure_too(
    event: Event, organizer: User, judge: User
) -> None:  # END-1, TIME-S-1
    table = pair(event, organizer)[0]
    run = time_procedure.start(table, by=Staff(judge), between=False, turn_player="A", duels=[{"winner": "A"}])
    assert time_procedure.running(fresh(table)) is not None
    participation.drop_player(table.player_b, by=PlayerSelf(table.player_b))
    assert fresh(table).ruling == "drop-concession" and fresh(table).result == "a"
    assert time_procedure.running(fresh(table)) is None and fresh(run).result_entered
