"""Appeals to the head judge (PEN-6, JUDGE-1): filed by the player or a judge on their behalf; the head judge
upholds or overturns; overturning a penalty reverses its effects.

CS 3: a player may appeal to the head judge against the rulings of the *other* judges
(ヘッドジャッジ以外のジャッジの判断に不服がある場合): the head judge's own ruling or penalty (a DQ always is one) is
final and cannot be appealed."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from taikai.audit.services import record
from taikai.events.actors import Actor, audit_user, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, StaffRole
from taikai.events.permissions import HEAD_JUDGE_ROLES, require_head_judge, require_player_or_judge
from taikai.judging import actions
from taikai.judging.models import Appeal, JudgeCall, Penalty
from taikai.judging.services.penalty_reversal import reverse_penalty


def _state(a: Appeal) -> dict[str, Any]:
    return {"status": a.status, "penalty": a.penalty_id, "call": a.call_id, "note": a.decision_note}


def _head_judge_ids(event: Event) -> set[int]:
    return set(StaffRole.objects.filter(event=event, role__in=HEAD_JUDGE_ROLES).values_list("user_id", flat=True))


def by_head_judge(penalty: Penalty | None = None, call: JudgeCall | None = None) -> bool:
    """Whether the ruling appealed against is the head judge's own (CS 3: not appealable)."""
    if penalty is not None:
        source = penalty.team_source or penalty
        return source.issued_by_id in _head_judge_ids(penalty.event)
    if call is not None and call.taken_by_id is not None:
        return call.taken_by_id in _head_judge_ids(call.event)
    return False


def file_appeal(
    player: Player,
    *,
    reason: str,
    penalty: Penalty | None = None,
    call: JudgeCall | None = None,
    by: Actor,
) -> Appeal:
    """The player (``PlayerSelf``, from their phone) or a judge for them appeals a ruling or a penalty."""
    event = player.event
    require_player_or_judge(by, player)
    if not reason.strip():
        raise ServiceError("description-required")
    for target in (penalty, call):
        if target is not None and target.event_id != event.pk:
            raise ServiceError("not-in-event")
    if penalty is not None and penalty.player_id != player.pk:
        raise ServiceError("not-in-event")
    if by_head_judge(penalty, call):
        raise ServiceError("appeal-own-ruling")  # CS 3: appeals go to the head judge against other judges
    with transaction.atomic():
        appeal = Appeal.objects.create(
            event=event,
            player=player,
            penalty=penalty,
            call=call,
            filed_by_user=audit_user(by),
            reason=reason.strip()[:4000],
        )
        record(
            actions.APPEAL_FILED,
            actor=by,
            obj=appeal,
            after=_state(appeal),
        )
    return appeal


def decide_appeal(appeal: Appeal, *, by: Actor, decision: str, note: str = "") -> Appeal:
    """PEN-6: only the head judge decides; ``decision`` is "uphold" or "overturn"."""
    require_head_judge(by, appeal.event)
    if decision not in ("uphold", "overturn"):
        raise ServiceError("bad-decision")
    with transaction.atomic():
        appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
        if appeal.status != Appeal.Status.OPEN:
            raise ServiceError("appeal-decided")
        before = _state(appeal)
        if decision == "overturn" and appeal.penalty is not None and not appeal.penalty.overturned:
            reverse_penalty(appeal.penalty, by=by)
        appeal.status = Appeal.Status.OVERTURNED if decision == "overturn" else Appeal.Status.UPHELD
        appeal.decided_by, appeal.decided_at, appeal.decision_note = user_of(by), timezone.now(), note.strip()[:4000]
        appeal.save()
        record(
            actions.APPEAL_DECIDED, actor=by, event_id=appeal.event_id, obj=appeal, before=before, after=_state(appeal)
        )
    return appeal
