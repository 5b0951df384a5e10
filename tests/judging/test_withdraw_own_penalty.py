"""PEN-6 (issue 23, finding 10): the head judge's own ruling cannot be appealed (CS 3), so the head judge
withdraws it, logged with a reason, on the correction path: the table returns to what it held before, a DQ
is lifted, the players are told it was withdrawn (not overturned on appeal)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.audit.models import AuditEntry
from taikai.events.actors import Staff
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match, Notice
from taikai.events.notice_texts import notice_text
from taikai.events.services import results
from taikai.judging import actions
from taikai.judging.models import Penalty
from taikai.judging.services import appeals, penalty_reversal
from taikai.judging.services import penalties as svc
from tests.factories import A_WINS, PASSWORD, fresh, pair


def _dq(event: Event, head: User, match: Match) -> Penalty:
    return svc.issue_penalty(event, by=Staff(head), player=match.player_a, infraction="INF-19")


def test_a_withdrawn_dq_puts_the_table_being_played_back_and_lifts_the_dq(
    event: Event, organizer: User, head: User
) -> None:  # PEN-6
    table = pair(event, organizer)[0]
    dq = _dq(event, head, table)
    assert fresh(table).ruling == "dq-forfeit" and fresh(table.player_a).disqualified
    with pytest.raises(ServiceError) as refused:
        appeals.file_appeal(table.player_a, reason="押し間違い", penalty=dq, by=Staff(head))
    assert refused.value.problem.code == "appeal-own-ruling"  # CS 3: never an appeal
    penalty_reversal.withdraw_penalty(dq, by=Staff(head), reason="押し間違い（別の卓の選手）")
    m, leaver = fresh(table), fresh(table.player_a)
    assert (m.status, m.result, m.ruling) == (Match.Status.PENDING, "", "")
    assert not leaver.disqualified and leaver.dropped_after_round is None
    assert fresh(dq).overturned
    entry = AuditEntry.objects.get(action=actions.PENALTY_WITHDRAWN, object_id=str(dq.pk))
    assert entry.data["reason"] == "押し間違い（別の卓の選手）"
    told = {n.kind for n in Notice.objects.filter(player=leaver, closed_at__isnull=True)}
    assert {"withdrawn-match-reopened", "disqualification-withdrawn"} <= told
    assert "dq-forfeit" not in told  # the DQ's own notice gives way to the withdrawal's
    words = notice_text("withdrawn-match-reopened", {"round": 1, "table": table.table}, "ja")
    assert "ヘッドジャッジが自身の罰則を取り消しました" in words and "上訴" not in words


def test_a_withdrawn_match_loss_restores_the_confirmed_result(
    event: Event, organizer: User, head: User
) -> None:  # PEN-6
    table = pair(event, organizer)[0]
    results.enter_result(table, by=Staff(organizer), result=A_WINS())
    loss = svc.issue_penalty(
        event, by=Staff(head), player=table.player_a, infraction="INF-3", rung="match-loss", reason="r",
        lands_on="current",
    )  # fmt: skip
    assert fresh(table).result == "b" and fresh(table).ruling == "match-loss"
    penalty_reversal.withdraw_penalty(loss, by=Staff(head), reason="誤った卓")
    m = fresh(table)
    assert (m.status, m.result, m.ruling) == (Match.Status.CONFIRMED, "a", "")
    corrected = AuditEntry.objects.filter(action="taikai.match.result_corrected", object_id=str(m.pk)).last()
    assert corrected is not None and corrected.data["cause"] == "withdrawal"
    kinds = set(Notice.objects.filter(match=m, closed_at__isnull=True).values_list("kind", flat=True))
    assert kinds == {"withdrawn-result-restored"}


def test_only_the_head_judges_own_penalty_is_withdrawn_with_a_reason(
    event: Event, organizer: User, head: User, judge: User
) -> None:  # PEN-6
    table = pair(event, organizer)[0]
    warning = svc.issue_penalty(event, by=Staff(judge), player=table.player_b, infraction="INF-2")
    with pytest.raises(ServiceError) as other:
        penalty_reversal.withdraw_penalty(warning, by=Staff(head), reason="x")
    assert other.value.problem.code == "withdraw-not-head-judge-ruling"  # the player appeals it instead
    dq = _dq(event, head, table)
    with pytest.raises(PermissionDenied):
        penalty_reversal.withdraw_penalty(dq, by=Staff(judge), reason="x")
    with pytest.raises(ServiceError) as no_reason:
        penalty_reversal.withdraw_penalty(dq, by=Staff(head), reason="  ")
    assert no_reason.value.problem.code == "reason-required"
    penalty_reversal.withdraw_penalty(dq, by=Staff(head), reason="押し間違い")
    with pytest.raises(ServiceError) as twice:
        penalty_reversal.withdraw_penalty(dq, by=Staff(head), reason="again")
    assert twice.value.problem.code == "already-overturned"


def test_the_head_judge_withdraws_from_the_penalties_page_asked_twice(
    event: Event, organizer: User, head: User, client: Client
) -> None:  # PEN-6
    table = pair(event, organizer)[0]
    dq = _dq(event, head, table)
    client.login(username=head.username, password=PASSWORD)
    page = client.get(f"/events/{event.pk}/judging/penalties/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "この罰則を取り消す（ヘッドジャッジ自身の裁定）" in page
    url = f"/events/{event.pk}/judging/penalties/{dq.pk}/withdraw/"
    ask = client.post(url, {"reason": "押し間違い"}, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "への罰則を取り消しますか" in ask and not fresh(dq).overturned
    client.post(url, {"reason": "押し間違い", "confirmed": "1", "withdraw": "1"})
    assert fresh(dq).overturned and not fresh(table.player_a).disqualified
