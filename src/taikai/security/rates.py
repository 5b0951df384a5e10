"""Rate limits for anonymous and cheap-to-repeat writes, counted in the database.

Like the sign-in throttle (taikai.security.throttle), hits are rows, so every web process behind a load balancer
counts the same ones (a per-process cache would let N processes admit N times the limit). Each limit is a
count within a sliding window: ``take`` refuses when any of its keys is at the limit, else counts one hit on
each. Concurrent requests can overshoot by at most the number of requests in flight.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from taikai.security.models import RateHit
from taikai.security.refusals import MARK, MARK_FOR

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


@dataclass(frozen=True)
class Rate:
    scope: str
    limit: int
    window: dt.timedelta


# Anonymous self-registration: a phone registers one person, a family a few; a venue queue is many phones.
# These are the defaults: each event's organizer sets its own (taikai.security.limits, issue 25).
REGISTER_PER_ADDRESS = Rate("register-addr", 10, dt.timedelta(minutes=10))
REGISTER_PER_EVENT = Rate("register-event", 120, dt.timedelta(minutes=10))
# Spectator reports (a visitor tells the judges about a table).
REPORT_PER_ADDRESS = Rate("report-addr", 5, dt.timedelta(minutes=10))
REPORT_PER_EVENT = Rate("report-event", 60, dt.timedelta(minutes=10))
# The same forms sent with a valid player link of the event: not anonymous, so not the caps above; one
# player's own loop is still bounded.
REGISTER_PER_PLAYER = Rate("register-player", 10, dt.timedelta(minutes=10))
REPORT_PER_PLAYER = Rate("report-player", 10, dt.timedelta(minutes=10))
# A player choosing a PIN: a few tries to get it right, never a loop (each is a deliberately slow hash).
PIN_PER_PLAYER = Rate("pin", 5, dt.timedelta(minutes=15))
# A player sending their own deck list: fixing a list takes a few tries; each is a whole deck check, so a loop
# of them took most of a core from everyone else (make bench BENCH=attack, "big deck lists").
DECK_PER_PLAYER = Rate("deck", 20, dt.timedelta(minutes=10))

LONGEST = dt.timedelta(minutes=15)


def _key(*parts: object) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()


def retry_after(rate: Rate, key: str, now: dt.datetime | None = None, since: dt.datetime | None = None) -> int:
    """Seconds until one more hit is allowed; 0 when it is allowed now. Hits before ``since`` (a lockout
    the organizer lifted) do not count."""
    now = now or timezone.now()
    start = max(now - rate.window, since) if since is not None else now - rate.window
    recent = RateHit.objects.filter(scope=rate.scope, key=key, at__gte=start)
    times = list(recent.order_by("-at").values_list("at", flat=True)[: rate.limit])
    if len(times) < rate.limit:
        return 0
    return max(1, math.ceil((times[-1] + rate.window - now).total_seconds()))


def take(
    *limits: tuple[Rate, object],
    now: dt.datetime | None = None,
    event_id: int | None = None,
    since: dt.datetime | None = None,
) -> int:
    """Count one hit against each (rate, what) pair, or none and return the seconds to wait. ``event_id``
    files the hits under an event (its console counts them); ``since`` is as in ``retry_after``."""
    now = now or timezone.now()
    keyed = [(rate, _key(rate.scope, what)) for rate, what in limits]
    wait = max((retry_after(rate, key, now, since) for rate, key in keyed), default=0)
    if wait:
        return wait
    hits = [RateHit(scope=rate.scope, key=key, at=now, event_id=event_id) for rate, key in keyed]
    # One write transaction, not two: on SQLite each takes the one writer lock that result reports queue for
    # (a hostile player's deck-list loop took it three times a list; make bench BENCH=attack)
    with transaction.atomic():
        RateHit.objects.bulk_create(hits)
        RateHit.objects.filter(at__lt=now - LONGEST).delete()  # keep the table small
    return 0


def forget(rate: Rate, what: object) -> None:
    RateHit.objects.filter(scope=rate.scope, key=_key(rate.scope, what)).delete()


def client_address(request: Any) -> str:
    # uvicorn rewrites REMOTE_ADDR from X-Forwarded-For only for TAIKAI_TRUSTED_PROXIES (taikai serve).
    return str(request.META.get("REMOTE_ADDR") or "unknown")[:64]


def too_many(request: HttpRequest, wait: int, remember: int = 0) -> HttpResponse:
    """The 429 page for a rate limit, in the visitor's language, with Retry-After. ``remember``: at most that
    many seconds is it answered again from memory (0: until Retry-After)."""
    from django.shortcuts import render

    response = render(
        request,
        "security/throttled.html",
        {"minutes": max(1, math.ceil(wait / 60)), "scope": "rate", "back": request.path},
        status=429,
    )
    response["Retry-After"] = str(wait)
    response[MARK] = "1"  # the same request is answered from memory until then (taikai.security.refusals)
    if remember:
        response[MARK_FOR] = str(remember)
    return response
