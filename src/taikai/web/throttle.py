"""Sign-in throttling: after repeated failures a login (or a player-page recovery) is refused for a while.

Failures are rows in the database (taikai.security.FailedAttempt), so every web process behind a load
balancer counts the same attempts. A login that fails five times for one user name from one address within
fifteen minutes is refused until the oldest of those failures is fifteen minutes old; one address that fails
thirty times across names is refused the same way (password spraying). A success clears the name's count.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from taikai.security.models import FailedAttempt

LIMIT = 5  # failures per name (or Card Game ID) and address
ADDRESS_LIMIT = 30  # failures per address, across names
WINDOW = dt.timedelta(minutes=15)

# URL name -> (scope, the POST field that names the account)
GUARDED = {"login": ("login", "username"), "recover": ("recover", "card_game_id")}


@dataclass(frozen=True)
class Attempt:
    scope: str
    key: str
    address: str


def client_address(request: HttpRequest) -> str:
    # uvicorn rewrites REMOTE_ADDR from X-Forwarded-For only for trusted proxies (--forwarded-allow-ips).
    return str(request.META.get("REMOTE_ADDR") or "unknown")[:64]


def attempt_for(request: HttpRequest, url_name: str, kwargs: dict[str, Any]) -> Attempt:
    scope, field = GUARDED[url_name]
    name = unicodedata.normalize("NFKC", str(request.POST.get(field, ""))).strip().casefold()
    address = client_address(request)
    parts = [scope, str(kwargs.get("event_id", "")), name.replace("-", "").replace(" ", ""), address]
    return Attempt(scope, hashlib.sha256("\x1f".join(parts).encode()).hexdigest(), address)


def retry_after(attempt: Attempt, now: dt.datetime | None = None) -> int:
    """Seconds until this attempt may be tried again; 0 when it is not throttled."""
    now = now or timezone.now()
    since = now - WINDOW
    waits = []
    for field, value, limit in (("key", attempt.key, LIMIT), ("address", attempt.address, ADDRESS_LIMIT)):
        recent = FailedAttempt.objects.filter(scope=attempt.scope, at__gte=since, **{field: value})
        if recent.count() >= limit:
            # Free again when enough of the oldest failures leave the window.
            times = list(recent.order_by("-at").values_list("at", flat=True)[:limit])
            waits.append((times[-1] + WINDOW - now).total_seconds())
    return max(0, math.ceil(max(waits))) if waits else 0


def record_failure(attempt: Attempt, now: dt.datetime | None = None) -> None:
    now = now or timezone.now()
    FailedAttempt.objects.create(scope=attempt.scope, key=attempt.key, address=attempt.address, at=now)
    FailedAttempt.objects.filter(at__lt=now - WINDOW).delete()  # keep the table small


def clear_failures(attempt: Attempt) -> None:
    FailedAttempt.objects.filter(scope=attempt.scope, key=attempt.key).delete()


class ThrottleMiddleware:
    """Refuses guarded POSTs while throttled (429); afterwards counts a re-shown form (200) as a failure
    and a redirect (302, signed in / page recovered) as a success."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        attempt: Attempt | None = getattr(request, "_taikai_attempt", None)
        if attempt is not None:
            if response.status_code == 200:
                record_failure(attempt)
            elif response.status_code == 302:
                clear_failures(attempt)
        return response

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        match = request.resolver_match
        if request.method != "POST" or match is None or match.url_name not in GUARDED:
            return None
        attempt = attempt_for(request, match.url_name, kwargs)
        wait = retry_after(attempt)
        if wait:
            response = render(
                request,
                "security/throttled.html",
                {"minutes": max(1, math.ceil(wait / 60)), "scope": attempt.scope, "back": request.path},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return response
        request._taikai_attempt = attempt  # type: ignore[attr-defined]
        return None
