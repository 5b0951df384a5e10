"""The round clock (TIME-1, TIME-4): start, pause and resume a round, change its time, extend one table; and the
payload every screen reads it in (``clock_payload``: judging's ``clock_feed`` adds the tables still playing)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from taikai.audit.services import save_and_log
from taikai.core import clock as core_clock
from taikai.core import extension
from taikai.core.clock import ClockState, Pause, clock_state
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Match, Round
from taikai.events.permissions import require_organizer
from taikai.events.signals import for_round, round_started


def _pauses(rnd: Round) -> tuple[Pause, ...]:
    return tuple(Pause(start, end) for start, end in rnd.pauses)


def round_clock(rnd: Round, extension: int = 0, now: float | None = None) -> ClockState:
    started = rnd.started_at.timestamp() if rnd.started_at else None
    t = timezone.now().timestamp() if now is None else now
    return clock_state(rnd.time_limit_seconds, started, _pauses(rnd), t, extension)


def clock_payload(
    rnd: Round | None,
    now: float,
    *,
    own: Match | None = None,
    playing: Callable[[Round, float], list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """The clock of ``rnd`` (the event's latest round) at ``now``, as every screen reads it; ``own`` adds that
    table's own clock, with its judge's extension (TIME-4); ``playing`` lists, after time, the tables still
    playing (judging's time procedure). Without it the list is empty: a player's page, which carries its table's
    clock in the page itself, lists no other table."""
    if rnd is None:
        return _payload(now, status="none")
    if rnd.status == Round.Status.FINISHED:  # every table has a confirmed result: the clock no longer matters
        return _payload(now, rnd, status="finished", remaining=0, own=_own_clock(rnd, own, now))
    state = round_clock(rnd, now=now)
    return _payload(
        now,
        rnd,
        status=state.status,
        remaining=round(state.remaining, 1),
        ends_at=state.ends_at,
        playing=playing(rnd, now) if playing is not None and state.status == "time" else [],
        own=_own_clock(rnd, own, now),
    )


def _payload(
    now: float,
    rnd: Round | None = None,
    *,
    status: str,
    remaining: float | None = None,
    ends_at: float | None = None,
    playing: list[dict[str, Any]] | None = None,
    own: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "round": rnd.number if rnd else None,
        "stage": rnd.stage if rnd else None,
        "status": status,
        "paused": status == "paused",
        "server_time": now,
        "remaining": remaining,
        "ends_at": ends_at,
        "limit": rnd.time_limit_seconds if rnd else None,
        "tables_playing": playing or [],
        "table": own,
    }


def _own_clock(rnd: Round, m: Match | None, now: float) -> dict[str, Any] | None:
    if m is None:
        return None
    clock = round_clock(rnd, extension=m.extension_seconds, now=now)
    status = "finished" if m.status == Match.Status.CONFIRMED else clock.status
    remaining = round(clock.remaining, 1)
    return {"table": m.table, "extension": m.extension_seconds, "status": status, "remaining": remaining}


def _clock_change(
    rnd: Round, by: Actor, version: int | None, action: str, change: Any, heard: Sequence[Signal] = ()
) -> Round:
    """``change`` the locked round and log it under ``action``; its entry announces the signals ``heard``."""
    require_organizer(by, rnd.event)  # the round clock is the organizer's
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=rnd.pk)
        if version is not None and locked.version != version:
            raise Conflict("conflict")
        before = {"started_at": locked.started_at.isoformat() if locked.started_at else None, "pauses": locked.pauses}
        change(locked, timezone.now().timestamp())
        save_and_log(
            locked,
            action,
            actor=by,
            event_id=locked.event_id,
            before=before,
            after={"started_at": locked.started_at.isoformat() if locked.started_at else None, "pauses": locked.pauses},
            announce=[for_round(signal, locked, by) for signal in heard],
        )
    return locked


def start_round(rnd: Round, *, by: Actor, version: int | None = None) -> Round:
    def change(r: Round, now: float) -> None:
        if r.started_at is not None:
            raise ServiceError("round-started")
        r.started_at = timezone.now()
        r.status = Round.Status.STARTED

    return _clock_change(rnd, by, version, actions.ROUND_STARTED, change, heard=[round_started])


def pause_round(rnd: Round, *, by: Actor, version: int | None = None) -> Round:
    def change(r: Round, now: float) -> None:
        if r.started_at is None or (r.pauses and r.pauses[-1][1] is None):
            raise ServiceError("clock-not-running")
        r.pauses = [*r.pauses, [now, None]]

    return _clock_change(rnd, by, version, actions.ROUND_PAUSED, change)


def resume_round(rnd: Round, *, by: Actor, version: int | None = None) -> Round:
    def change(r: Round, now: float) -> None:
        if not r.pauses or r.pauses[-1][1] is not None:
            raise ServiceError("clock-not-paused")
        r.pauses = [*r.pauses[:-1], [r.pauses[-1][0], now]]

    return _clock_change(rnd, by, version, actions.ROUND_RESUMED, change)


def extend_time(
    match: Match,
    *,
    by: Actor,
    seconds: int,
    reason: str,
    ruling_seconds: int,
    already_given: int = 0,
    call_id: int | None = None,
) -> Match:
    """TIME-4 (CS 3.1): a judge adds time to one table after a ruling of the ruleset's threshold or more
    (一分以上), with the judge, the reason and the ruling's length logged. ``ruling_seconds``: how long the ruling
    took (measured from its judge call, ``call_id``, or as the judge states it); ``already_given``: time added
    before for the same ruling. A judge adds at most what the ruling took; the head judge may add more."""
    from taikai.events.permissions import is_head_judge, require_judge

    event = match.round.event
    require_judge(by, event)
    if not reason.strip():
        raise ServiceError("reason-required")
    beyond = is_head_judge(by, event)
    grant = extension.Grant(seconds, ruling_seconds, already_given, beyond_ruling=beyond)
    problem = extension.extension_problem(event.ruleset.time, grant)
    if problem is not None:
        raise ServiceError(problem.code, **problem.params)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        before = locked.extension_seconds
        locked.extension_seconds += seconds
        save_and_log(
            locked,
            actions.TIME_EXTENDED,
            actor=by,
            event_id=match.round.event_id,
            fields=["extension_seconds"],
            before={"extension_seconds": before},
            after={"extension_seconds": locked.extension_seconds},
            reason=reason.strip(),
            seconds=seconds,
            ruling_seconds=ruling_seconds,
            call=call_id,
            beyond_ruling=beyond and already_given + seconds > ruling_seconds,
        )
    return locked


def adjust_round_time(rnd: Round, *, by: Actor, seconds: int, version: int | None = None) -> Round:
    """Add (or, negative, take away) time for the whole round, e.g. after a fire alarm (TIME-1)."""

    def change(r: Round, now: float) -> None:
        if r.status == Round.Status.FINISHED:
            raise ServiceError("round-finished")
        problem = core_clock.round_change_problem(rnd.event.ruleset.time, seconds, round_clock(r, now=now).remaining)
        if problem is not None:
            raise ServiceError(problem.code, **problem.params)
        r.time_limit_seconds += seconds

    return _clock_change(rnd, by, version, actions.ROUND_TIME_ADJUSTED, change)


def set_remaining_time(rnd: Round, *, by: Actor, seconds: int, version: int | None = None) -> Round:
    """Set what the clock shows as remaining (the round's limit moves so that it does)."""

    def change(r: Round, now: float) -> None:
        if r.status == Round.Status.FINISHED:
            raise ServiceError("round-finished")
        problem = core_clock.remaining_problem(rnd.event.ruleset.time, seconds)
        if problem is not None:
            raise ServiceError(problem.code, **problem.params)
        r.time_limit_seconds = max(1, round(r.time_limit_seconds + seconds - round_clock(r, now=now).remaining))

    return _clock_change(rnd, by, version, actions.ROUND_TIME_ADJUSTED, change)
