"""The round clock as every screen and the API read it (TIME-1, TIME-4, TIME-E-1): one payload.

The payload is events' ``clock_payload`` (the round clock); this module adds each table's extra-turn state from
the judge's time procedure (judging), so it lives in judging, above events and below the edges: the web's
``clock.json`` (the projector, the round page, the player's page) and the API's ``GET /events/{id}/clock`` both
answer ``clock_feed``, and never each other (the edges are independent). A player's page also carries its
table's clock in the page (events' ``clock_payload`` without the tables still playing), so a refresh needs no
second request. The keys are documented in ``docs/api.md`` ("The round clock").
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
    own = rnd.matches.filter(table=table, is_bye=False).first() if rnd is not None and table is not None else None
    return clock_services.clock_payload(rnd, now, own=own, playing=_tables_playing)


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
