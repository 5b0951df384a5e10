"""A penalty taken back: an appeal overturns it, or the head judge withdraws their own ruling (PEN-6). Its effects
are undone on the correction path (results restored, drops lifted, the team's copies with it), all logged."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from taikai.audit.services import fields_of, record
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Match, Player, StaffRole, Team
from taikai.events.permissions import HEAD_JUDGE_ROLES, require_head_judge
from taikai.events.services import rulings
from taikai.judging import actions
from taikai.judging.models import PENALTY_FIELDS, Penalty, TimeProcedureRun
from taikai.judging.services import time_procedure


def reverse_penalty(penalty: Penalty, *, by: Actor, how: str = "overturn") -> Penalty:
    """Undo a penalty's effects (an appeal overturned it, or the head judge withdrew it: ``how``): results
    restored, drops undone, all logged. PEN-6: overturning is the head judge's decision, so only the head
    judge reverses a penalty."""
    require_head_judge(by, penalty.event)
    with transaction.atomic():
        penalty = Penalty.objects.select_for_update(of=("self",)).select_related("event").get(pk=penalty.pk)
        if penalty.overturned:
            raise ServiceError("already-overturned")
        for effect in reversed(penalty.effects):
            _undo(penalty, by, effect, how)
        penalty.overturned, penalty.overturned_at = True, timezone.now()
        penalty.waiting_for_next_match = False
        penalty.save()
        for copy in penalty.team_copies.filter(overturned=False):
            reverse_penalty(copy, by=by, how=how)
    return penalty


def issued_by_head_judge(penalty: Penalty) -> bool:
    """The penalty (for a team copy: the member's penalty it copies) is a head judge's own ruling (CS 3)."""
    source = penalty.team_source or penalty
    return (
        source.issued_by_id is not None
        and StaffRole.objects.filter(
            event_id=penalty.event_id, user_id=source.issued_by_id, role__in=HEAD_JUDGE_ROLES
        ).exists()
    )


def withdraw_penalty(penalty: Penalty, *, by: Actor, reason: str) -> Penalty:
    """PEN-6: the head judge withdraws a penalty of their own (a DQ given by a mis-tap, a ruling they take
    back). Their ruling cannot be appealed (CS 3: appeals go to the head judge against the other judges), so
    this is the one way back: logged with its reason, never an appeal. Its effects are undone on the
    correction path as an overturn's are: the table returns to what it held before the penalty, a DQ is
    lifted, the team's copies go with it, and the players are told it was withdrawn."""
    require_head_judge(by, penalty.event)
    if not reason.strip():
        raise ServiceError("reason-required")
    source = penalty.team_source or penalty
    if not issued_by_head_judge(source):
        raise ServiceError("withdraw-not-head-judge-ruling")  # another judge's ruling: the player appeals it
    with transaction.atomic():
        locked = Penalty.objects.select_for_update(of=("self",)).get(pk=source.pk)
        if locked.overturned:
            raise ServiceError("already-overturned")
        before = fields_of(locked, PENALTY_FIELDS)
        reverse_penalty(locked, by=by, how="withdrawal")
        locked.refresh_from_db()
        record(
            actions.PENALTY_WITHDRAWN,
            actor=by,
            obj=locked,
            before=before,
            after=fields_of(locked, PENALTY_FIELDS),
            reason=reason.strip()[:2000],
        )
    return locked


def _reversed(penalty: Penalty, by: Actor, row: Model, before: dict[str, Any], after: dict[str, Any]) -> None:
    """One effect of ``penalty`` undone on ``row``: logged under the penalty's event, whatever the row."""
    record(actions.EFFECT_REVERSED, actor=by, event_id=penalty.event_id, obj=row, before=before, after=after)


def _undo(penalty: Penalty, by: Actor, effect: dict[str, Any], how: str = "overturn") -> None:
    kind = effect["kind"]
    if kind == "time-procedure":  # the penalty's step goes, with the steps after it
        run = TimeProcedureRun.objects.filter(pk=effect["run"]).first()
        if run is not None:
            time_procedure.take_back(run, by=by, step=effect["step"])
    if kind in ("result", "time-procedure"):
        m = Match.objects.select_related("round__event", "player_a", "player_b").get(pk=effect["match"])
        restored = rulings.restore_result(m, by=by, before=effect["before"], penalty=str(penalty.pk), how=how)
        _reversed(penalty, by, m, effect["after"], rulings.snapshot(restored))
    elif kind == "drop":
        p = Player.objects.select_related("event").get(pk=effect["player"])
        rulings.lift_disqualification(p, by=by, dropped_before=effect.get("dropped_before"), how=how)
        _reversed(penalty, by, p, {"disqualified": True}, {"disqualified": False})
    elif kind == "team-drop":
        t = Team.objects.select_related("event").get(pk=effect["team"])
        rulings.undrop_team(t, by=by)
        _reversed(penalty, by, t, {"team_dropped": True}, {"team_dropped": False})
