"""The round clock feed every screen polls (the projector, the round page, the player's page).

It combines two apps — the round clock (events) and each table's extra-turn state from the judge's time
procedure (judging) — so it lives here, above both, rather than in either.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.views.decorators.cache import never_cache

from taikai.core.ids import parse_id
from taikai.events.models import Event, Match, Round, current_round
from taikai.events.services import clock as clock_services
from taikai.judging.services.time_procedure import table_states


def _table_clock(request: HttpRequest, rnd: Round, now: float) -> dict[str, object]:
    """?table=N: that table's own clock, with its judge's extension (TIME-4), for the player's page."""
    raw = request.GET.get("table", "")
    table = parse_id(raw, digits=5)
    m = rnd.matches.filter(table=table, is_bye=False).first() if table is not None else None
    if m is None:
        return {}
    clock = clock_services.round_clock(rnd, extension=m.extension_seconds, now=now)
    status = "finished" if m.status == Match.Status.CONFIRMED else clock.status
    remaining = round(clock.remaining, 1)
    return {"table": {"table": m.table, "extension": m.extension_seconds, "status": status, "remaining": remaining}}


@never_cache
def clock_json(request: HttpRequest, event_id: int) -> JsonResponse:
    """The round clock for every screen: server time, end time, paused, and tables still playing."""
    event = get_object_or_404(Event, pk=event_id)
    rnd = current_round(event)
    now = timezone.now().timestamp()
    if rnd is None:
        return JsonResponse({"round": None, "server_time": now})
    state = clock_services.round_clock(rnd, now=now)
    if rnd.status == Round.Status.FINISHED:  # every table has a confirmed result: the clock no longer matters
        return JsonResponse(
            {
                "round": rnd.number,
                "stage": rnd.stage,
                "status": "finished",
                "server_time": now,
                "remaining": 0,
                "ends_at": None,
                "limit": rnd.time_limit_seconds,
                "tables_playing": [],
            }
        )
    playing = []
    if state.status == "time":
        open_matches = list(rnd.matches.exclude(status=Match.Status.CONFIRMED).filter(is_bye=False))
        procedures = table_states(open_matches)
        for m in open_matches:
            extended = clock_services.round_clock(rnd, extension=m.extension_seconds, now=now)
            playing.append(
                {
                    "table": m.table,
                    "extension": m.extension_seconds,
                    "status": extended.status,
                    "remaining": round(extended.remaining),
                    "procedure": procedures.get(m.pk),  # extra-turn state from the judge's time procedure
                }
            )
    return JsonResponse(
        {
            **_table_clock(request, rnd, now),
            "round": rnd.number,
            "stage": rnd.stage,
            "status": state.status,
            "server_time": now,
            "remaining": round(state.remaining, 1),
            "ends_at": state.ends_at,
            "limit": rnd.time_limit_seconds,
            "tables_playing": playing,
        }
    )
