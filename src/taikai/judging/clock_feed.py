"""The round clock as every screen and the API read it (TIME-1, TIME-4, TIME-E-1): one payload, built here.

It combines the round clock (events) with each table's extra-turn state from the judge's time procedure
(judging), so it lives in judging, above events and below the edges: the web's ``clock.json`` (the projector,
the round page, the player's page) and the API's ``GET /events/{id}/clock`` both answer ``clock_feed``, and
never each other (the edges are independent). The keys are documented in ``docs/api.md`` ("The round clock").
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from taikai.events.models import Event, Match, Round, current_round
from taikai.events.services import clock as clock_services
from taikai.judging.services.time_procedure import table_states


def clock_feed(event: Event, *, table: int | None = None, now: float | None = None) -> dict[str, Any]:
    """The clock of the event's latest round at ``now``; ``table`` adds that table's own clock (``table``)."""
    now = timezone.now().timestamp() if now is None else now
    rnd = current_round(event)
    if rnd is None:
        return _payload(now, status="none")
    if rnd.status == Round.Status.FINISHED:  # every table has a confirmed result: the clock no longer matters
        return _payload(now, rnd, status="finished", remaining=0, own=_own_clock(rnd, table, now))
    state = clock_services.round_clock(rnd, now=now)
    return _payload(
        now,
        rnd,
        status=state.status,
        remaining=round(state.remaining, 1),
        ends_at=state.ends_at,
        playing=_tables_playing(rnd, now) if state.status == "time" else [],
        own=_own_clock(rnd, table, now),
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


def _tables_playing(rnd: Round, now: float) -> list[dict[str, Any]]:
    """After time, each table still playing: its own time (TIME-4) and where its time procedure stands."""
    open_matches = list(rnd.matches.exclude(status=Match.Status.CONFIRMED).filter(is_bye=False).order_by("table"))
    procedures = table_states(open_matches)
    playing = []
    for m in open_matches:
        extended = clock_services.round_clock(rnd, extension=m.extension_seconds, now=now)
        playing.append(
            {
                "table": m.table,
                "extension": m.extension_seconds,
                "status": extended.status,
                "remaining": round(extended.remaining),
                "procedure": procedures.get(m.pk),
            }
        )
    return playing


def _own_clock(rnd: Round, table: int | None, now: float) -> dict[str, Any] | None:
    """One table's own clock, with its judge's extension (TIME-4), for the player's page."""
    m = rnd.matches.filter(table=table, is_bye=False).first() if table is not None else None
    if m is None:
        return None
    clock = clock_services.round_clock(rnd, extension=m.extension_seconds, now=now)
    status = "finished" if m.status == Match.Status.CONFIRMED else clock.status
    remaining = round(clock.remaining, 1)
    return {"table": m.table, "extension": m.extension_seconds, "status": status, "remaining": remaining}
