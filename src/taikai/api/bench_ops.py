"""The measuring stick of ``python -m taikai.bench stack`` (issue 27): a result report's path with nothing done.

Mounted only when the server starts with ``TAIKAI_BENCH_ENDPOINTS=1`` (the bench's servers; never a venue's):
``POST /api/v1/events/{event_id}/matches/{match_id}/noop`` takes a result report's request as it is (the same
body, the same X-Player-Token or Bearer token) and goes through everything a report goes through before its
service runs: the ASGI body guard and refusal memory, the WSGI thread, Django's middleware, the API's token
auth (one read of the player with their event), the caller's event and the body's schema. It then answers a
small JSON without reading the match or writing anything. A report's rate over this one's, on the same
server in the same run, is what the report's own work costs (target ≥ 0.75).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from taikai.api import public
from taikai.api import schemas as s
from taikai.api.base import PLAYER, TOKEN
from taikai.api.writes import _event_of_caller

router = public.router


@router.post(
    "/events/{event_id}/matches/{match_id}/noop",
    response={200: dict[str, Any]},
    auth=[TOKEN, PLAYER],
    include_in_schema=False,
)
def noop_report(request: HttpRequest, event_id: s.Id, match_id: s.Id, body: s.ResultIn) -> dict[str, Any]:
    event = _event_of_caller(request, event_id)
    return {"event": event.pk, "match": match_id, "duels": len(body.duels)}
