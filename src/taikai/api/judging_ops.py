"""Judging over the API: penalties with their effects, appeals and the head judge's decision, judge calls,
time extensions and the time procedure at a table — the operations the judges' pages offer, through the same
services (taikai.judging.services), under the same permissions (PEN-6: a DQ by the head judge only)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Query, Status

from taikai.api import public, serialize, serialize_ops
from taikai.api import schemas as s
from taikai.api import schemas_ops as so
from taikai.api.base import PLAYER, TOKEN, acting_player, player_or_staff_actor, staff_actor
from taikai.api.public import Paging, _page
from taikai.api.routes import SignedInRoutes
from taikai.core.ids import parse_id
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, current_match
from taikai.events.permissions import require_judge, require_staff
from taikai.judging.models import Appeal, JudgeCall, Penalty, TimeProcedureRun
from taikai.judging.services import appeals, calls, penalties
from taikai.judging.services import time_procedure as tps
from taikai.judging.services.prizes import prize_standings

router = public.router
TAGS = ["judging"]
routes = SignedInRoutes(router, TAGS)


def _event(event_id: s.Id) -> Event:
    return get_object_or_404(Event, pk=event_id)


def _id(raw: str | None, field: str) -> int:
    number = parse_id(raw)
    if number is None:
        raise ServiceError("bad-choice", field=field, value=(raw or "")[:20])
    return number


def _penalty(event: Event, penalty_id: s.Id) -> Penalty:
    return get_object_or_404(Penalty.objects.select_related("event", "player", "issued_by"), pk=penalty_id, event=event)


def _match(event: Event, match_id: s.Id) -> Match:
    return get_object_or_404(
        Match.objects.select_related("round__event", "player_a", "player_b"), pk=match_id, round__event=event
    )


def _penalty_out(penalty: Penalty) -> dict[str, Any]:
    fresh = _penalty(penalty.event, penalty.pk)
    return serialize_ops.penalty_row(fresh, prize_standings(fresh.event))


@routes.post("/events/{event_id}/penalties", so.PenaltyOut, status=201)
def issue_penalty(request: HttpRequest, event_id: s.Id, body: so.PenaltyIn) -> Status[dict[str, Any]]:
    """Issue a penalty (a judge); its effects apply at once and come back in `effects`: which match changed
    and how, whether the player is out, their prize now. PEN-6: `dq` and above by the head judge only (403)."""
    event = _event(event_id)
    by = staff_actor(request, event)
    require_judge(by, event)
    player = get_object_or_404(Player, pk=_id(body.player, "player"), event=event)
    if body.match is not None:
        current = current_match(player)
        if current is None or current.pk != _id(body.match, "match"):
            raise ServiceError("not-current-match")
    penalty = penalties.issue_penalty(
        event,
        by=by,
        player=player,
        infraction=body.infraction,
        rung=body.rung or None,
        reason=body.reason,
        description=body.description,
        downgrade_steps=body.downgrade_steps,
        prior_duels=body.prior_duels,
    )
    return Status(201, _penalty_out(penalty))


@routes.get("/events/{event_id}/penalties", so.PenaltyPage)
def list_penalties(request: HttpRequest, event_id: s.Id, paging: Query[Paging]) -> dict[str, Any]:
    """The event's penalties, newest first, with their effects (staff)."""
    event = _event(event_id)
    require_staff(staff_actor(request, event), event)
    rows = Penalty.objects.filter(event=event).select_related("event", "player", "issued_by")
    window = list(rows[paging.offset : paging.offset + paging.limit])
    return _page(serialize_ops.penalty_rows(window), paging, rows.count())


@routes.post("/events/{event_id}/penalties/{penalty_id}/appeal", so.AppealOut, status=201, auth=[PLAYER, TOKEN])
def appeal(request: HttpRequest, event_id: s.Id, penalty_id: s.Id, body: so.AppealIn) -> Status[dict[str, Any]]:
    """Appeal a penalty to the head judge: the penalized player (X-Player-Token), or a judge for them."""
    event = _event(event_id)
    penalty = _penalty(event, penalty_id)
    by = player_or_staff_actor(request, event, penalty.player)
    row = appeals.file_appeal(penalty.player, reason=body.reason, penalty=penalty, by=by)
    return Status(201, serialize_ops.appeal_row(row))


@routes.post("/events/{event_id}/penalties/{penalty_id}/decision", so.DecisionOut)
def decide(request: HttpRequest, event_id: s.Id, penalty_id: s.Id, body: so.DecisionIn) -> dict[str, Any]:
    """The head judge decides the penalty's open appeal (PEN-6): `uphold`, or `overturn` (its effects are
    reversed: results restored, the drop undone)."""
    event = _event(event_id)
    penalty = _penalty(event, penalty_id)
    by = staff_actor(request, event)
    open_appeal = Appeal.objects.filter(penalty=penalty, status=Appeal.Status.OPEN).order_by("-id").first()
    if open_appeal is None:
        raise ServiceError("no-open-appeal")
    row = appeals.decide_appeal(open_appeal, by=by, decision=body.decision, note=body.note)
    return {"appeal": serialize_ops.appeal_row(row), "penalty": _penalty_out(penalty)}


# --- judge calls (JUDGE-1), time extensions (TIME-4), the time procedure (TIME-E, TIME-S) ----------------


def _call(event: Event, call_id: s.Id) -> JudgeCall:
    found = JudgeCall.objects.select_related("event", "taken_by").prefetch_related("callers__player")
    return get_object_or_404(found, pk=call_id, event=event)


@routes.get("/events/{event_id}/calls", so.CallList)
def list_calls(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """The judges' queue: open and taken calls, oldest first (staff)."""
    event = _event(event_id)
    require_staff(staff_actor(request, event), event)
    return {"items": [serialize_ops.call_row(c) for c in serialize_ops.calls_with_callers(calls.open_calls(event))]}


@routes.post("/events/{event_id}/calls", so.CallOut, status=201, auth=[PLAYER, TOKEN])
def raise_call(request: HttpRequest, event_id: s.Id, body: so.CallIn) -> Status[dict[str, Any]]:
    """Call a judge: a player (X-Player-Token) to their own table, or a judge (Bearer) to `table`."""
    event = _event(event_id)
    me = acting_player(request, event)
    if me is not None:
        from taikai.events.actors import PlayerSelf

        call = calls.raise_call(event, player=me, by=PlayerSelf(me), description=body.description)
    else:
        call = calls.raise_call(event, table=body.table, by=staff_actor(request, event), description=body.description)
    return Status(201, serialize_ops.call_row(_call(event, call.pk)))


@routes.post("/events/{event_id}/calls/{call_id}/take", so.CallOut)
def take_call(request: HttpRequest, event_id: s.Id, call_id: s.Id) -> dict[str, Any]:
    """A judge goes to the table (the call is taken)."""
    event = _event(event_id)
    call = calls.take_call(_call(event, call_id), by=staff_actor(request, event))
    return serialize_ops.call_row(_call(event, call.pk))


@routes.post("/events/{event_id}/calls/{call_id}/ruling", so.CallOut)
def rule_call(request: HttpRequest, event_id: s.Id, call_id: s.Id, body: so.RulingIn) -> dict[str, Any]:
    """Record the ruling, optionally add time to the table (TIME-4), and close the call (a judge)."""
    event = _event(event_id)
    call = calls.rule_call(
        _call(event, call_id),
        by=staff_actor(request, event),
        ruling=body.ruling,
        close=body.close,
        extension_seconds=body.extension_seconds,
        reason=body.reason,
        ruling_seconds=body.ruling_seconds,
    )
    return serialize_ops.call_row(_call(event, call.pk))


@routes.post("/events/{event_id}/matches/{match_id}/extension", s.MatchOut)
def extend(request: HttpRequest, event_id: s.Id, match_id: s.Id, body: so.ExtensionIn) -> dict[str, Any]:
    """Add time to one table for a ruling, with a reason (a judge; TIME-4, CS 3.1): name the ruling's judge call
    at this table (`call`) or how long it took (`ruling_seconds`). Refused below the ruleset's threshold
    (`extension-ruling-short`), without a ruling (`extension-needs-ruling`), and beyond the ruling's length
    unless the head judge adds it (`extension-over-ruling`)."""
    event = _event(event_id)
    match = _match(event, match_id)
    call = _call(event, _id(body.call, "call")) if body.call is not None else None
    calls.extend_after_ruling(
        match,
        by=staff_actor(request, event),
        seconds=body.seconds,
        reason=body.reason,
        call=call,
        ruling_seconds=body.ruling_seconds,
    )
    return serialize.match_row(_match(event, match.pk))


def _procedure_out(event: Event, match_id: int) -> dict[str, Any]:
    match = _match(event, match_id)
    run = TimeProcedureRun.objects.filter(match=match).first()
    if run is None:
        raise ServiceError("no-time-procedure")
    proc = tps.replay(run, match)
    return {
        "match": serialize.match_row(match),
        "phase": proc.phase.value,
        "expects": sorted(i.value for i in proc.expects),
        "turn": proc.turn,
        "turns": proc.turns,
        "turn_player": proc.turn_player.value if proc.turn_player else None,
        "extra_duel": proc.in_extra_duel,
        "inputs": run.inputs,
    }


@routes.get("/events/{event_id}/matches/{match_id}/time-procedure", so.TimeProcedureOut)
def get_time_procedure(request: HttpRequest, event_id: s.Id, match_id: s.Id) -> dict[str, Any]:
    """Where the table's time procedure stands: the phase, the extra turn, what it expects next (staff)."""
    event = _event(event_id)
    require_staff(staff_actor(request, event), event)
    return _procedure_out(event, match_id)


@routes.post("/events/{event_id}/matches/{match_id}/time-procedure", so.TimeProcedureOut, status=201)
def start_time_procedure(
    request: HttpRequest, event_id: s.Id, match_id: s.Id, body: so.TimeStartIn
) -> Status[dict[str, Any]]:
    """Time was called at this table (a judge): during a turn of `turn_player`, or between duels."""
    event = _event(event_id)
    tps.start(
        _match(event, match_id),
        by=staff_actor(request, event),
        between=body.between,
        turn_player=body.turn_player,
        duels=body.duels,
    )
    return Status(201, _procedure_out(event, match_id))


@routes.post("/events/{event_id}/matches/{match_id}/time-procedure/steps", so.TimeProcedureOut)
def time_step(request: HttpRequest, event_id: s.Id, match_id: s.Id, body: so.TimeStepIn) -> dict[str, Any]:
    """One input to the time procedure (a judge); once it is done, the result is entered for the table."""
    event = _event(event_id)
    match = _match(event, match_id)
    run = TimeProcedureRun.objects.filter(match=match).first()
    if run is None:
        raise ServiceError("no-time-procedure")
    tps.give(run, by=staff_actor(request, event), step=list(body.step))
    return _procedure_out(event, match_id)
