"""Whole-page caching for the public pages, keyed by exactly what the page shows.

A key names the page, its parameters, the language and a version that changes whenever the content can
(a round's pairing version, or the event's latest audit entry id), so a stale page is never served.
Only anonymous visitors without pending messages get cached pages; staff always see a fresh render.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from taikai.events.cache import get_or_build


def event_change_key(event_id: int) -> tuple[Any, ...] | None:
    """(created, latest change) of an event in one query: the version of every page that shows results.
    Ids can repeat after a restore; creation times do not. None when there is no such event."""
    from taikai.audit.models import last_change
    from taikai.events.models import Event

    created = Event.objects.filter(pk=event_id).values_list("created_at", flat=True).first()
    if created is None:
        return None
    return (created.timestamp(), last_change(event_id))


def rounds_key(event_id: int) -> tuple[Any, ...]:
    """Every round's (number, pk, version) with the event's creation time, in one query: the version of
    pages that show pairings (they change when a round is paired or edited, never with results)."""
    from taikai.events.models import Round

    rows = (
        Round.objects.filter(event_id=event_id)
        .order_by("number")
        .values_list("number", "pk", "version", "event__created_at")
    )
    return tuple((n, pk, v, created.timestamp()) for n, pk, v, created in rows)


def cacheable(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return (
        request.method == "GET" and not getattr(user, "is_authenticated", False) and "messages" not in request.COOKIES
    )


def cached_page(request: HttpRequest, parts: tuple[Any, ...], render: Callable[[], HttpResponse]) -> HttpResponse:
    if not cacheable(request):
        return render()
    raw = repr((parts, request.get_full_path(), getattr(request, "LANGUAGE_CODE", "")))
    key = "page:" + hashlib.sha256(raw.encode()).hexdigest()

    def build() -> tuple[bytes, str] | HttpResponse:
        response = render()
        if response.status_code == 200 and not response.streaming:
            return (response.content, response["Content-Type"])
        return response  # an error page is answered, never stored

    value, cached = get_or_build(key, build, keep=lambda v: isinstance(v, tuple))
    if isinstance(value, HttpResponse):
        return value
    content, content_type = value
    response = HttpResponse(content, content_type=content_type)
    if cached:
        response["X-Taikai-Cache"] = "hit"
    return response
