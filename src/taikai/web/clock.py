"""The round clock feed every screen polls (the projector, the round page, the player's page).

The payload is ``taikai.judging.clock_feed``'s, the same as the API's ``GET /events/{id}/clock``; this edge only
reads ``?table=N`` (the player's own table) and answers it uncached.
"""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.cache import never_cache

from taikai.core.ids import parse_id
from taikai.events.models import Event
from taikai.judging.clock_feed import clock_feed


@never_cache
def clock_json(request: HttpRequest, event_id: int) -> JsonResponse:
    """The round clock for every screen: server time, end time, paused, and tables still playing."""
    event = get_object_or_404(Event, pk=event_id)
    return JsonResponse(clock_feed(event, table=parse_id(request.GET.get("table", ""), digits=5)))
