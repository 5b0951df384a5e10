"""The follower's copy of the venue's public API: the same paths, the same bytes (the venue's answers as its
own API gave them, paged here as the API pages them), with two headers saying which change of the venue it is
(``X-Taikai-Venue-Version``) and when the venue made it (``X-Taikai-Venue-Time``)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from taikai.core.problems import Problem
from taikai.events.texts import problem_text
from taikai.follow import copies
from taikai.follow.models import FollowedEvent

MAX_LIMIT = 200


def _json(request: HttpRequest, data: Any, row: FollowedEvent | None, status: int = 200) -> HttpResponse:
    body = json.dumps(data).encode()
    response = HttpResponse(body, status=status, content_type="application/json; charset=utf-8")
    if row is not None:
        response["X-Taikai-Venue-Version"] = str(row.version)
        response["X-Taikai-Venue-Time"] = row.venue_time.isoformat() if row.venue_time else ""
    if status == 200:  # as the venue's API: a strong validator over the body
        response["ETag"] = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        response["Cache-Control"] = "no-cache"
        response["Vary"] = "Accept-Language"
    return response


def _problem(request: HttpRequest, code: str, status: int, **params: Any) -> HttpResponse:
    with translation.override(getattr(request, "LANGUAGE_CODE", "ja")):
        message = problem_text(Problem(code, **params))
    return _json(request, {"error": {"code": code, "message": message, "params": params}}, None, status)


def _row(request: HttpRequest, event_id: int) -> FollowedEvent | None:
    return copies.followed(event_id)


def _paging(request: HttpRequest) -> tuple[int, int] | None:
    try:
        limit = int(request.GET.get("limit", "50"))
        offset = int(request.GET.get("offset", "0"))
    except ValueError:
        return None
    if not (1 <= limit <= MAX_LIMIT and 0 <= offset <= 1_000_000):
        return None
    return limit, offset


def _doc(request: HttpRequest, event_id: int, name: str) -> HttpResponse:
    row = _row(request, event_id)
    body = copies.text(row, name) if row is not None else None
    if row is None or body is None:
        return _problem(request, "not-found", 404)
    return _json(request, json.loads(body), row)


def _list(request: HttpRequest, event_id: int, name: str) -> HttpResponse:
    row = _row(request, event_id)
    items = copies.document(row, name) if row is not None else None
    if row is None or items is None:
        return _problem(request, "not-found", 404)
    paging = _paging(request)
    if paging is None:
        return _problem(request, "invalid-input", 422, detail="limit, offset")
    limit, offset = paging
    return _json(
        request, {"count": len(items), "limit": limit, "offset": offset, "items": items[offset : offset + limit]}, row
    )


def event(request: HttpRequest, event_id: int) -> HttpResponse:
    return _doc(request, event_id, "event")


def players(request: HttpRequest, event_id: int) -> HttpResponse:
    return _list(request, event_id, "players")


def rounds(request: HttpRequest, event_id: int) -> HttpResponse:
    return _list(request, event_id, "rounds")


def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    return _list(request, event_id, "standings")


def placings(request: HttpRequest, event_id: int) -> HttpResponse:
    return _list(request, event_id, "placings")


def one_round(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    return _doc(request, event_id, f"round/{number}")


def matches(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    return _list(request, event_id, f"matches/{number}")


def bracket(request: HttpRequest, event_id: int) -> HttpResponse:
    return _doc(request, event_id, "bracket")


def one_match(request: HttpRequest, event_id: int, match_id: int) -> HttpResponse:
    row = _row(request, event_id)
    if row is not None:
        for rnd in copies.document(row, "rounds") or []:
            for m in copies.document(row, f"matches/{rnd['number']}") or []:
                if m["id"] == str(match_id):
                    return _json(request, m, row)
    return _problem(request, "not-found", 404)


def clock(request: HttpRequest, event_id: int) -> HttpResponse:
    row = _row(request, event_id)
    data = copies.clock(row) if row is not None else None
    if row is None or data is None:
        return _problem(request, "not-found", 404)
    return _json(request, data, row)


def read_only(request: HttpRequest, **kwargs: Any) -> HttpResponse:
    """Any other path of an event: not copied (a read: 404), or a write, which only the venue takes (405);
    players report, confirm, call a judge and drop on their page here, and the venue applies it."""
    if request.method in ("GET", "HEAD"):
        return _problem(request, "not-found", 404)
    return _problem(request, "follow-read-only", 405)
