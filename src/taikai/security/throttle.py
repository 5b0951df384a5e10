"""Sign-in throttling: after repeated failures a login (or a player-page recovery) is refused for a while.

Failures are rows in the database (taikai.security.FailedAttempt), so every web process behind a load
balancer counts the same attempts. Within fifteen minutes a login is refused until the oldest counted failure
is fifteen minutes old when
- one user name failed five times from one address,
- one address failed thirty times across names (password spraying), or
- one user name failed ten times from any addresses (a guesser rotating addresses). For a staff account this
  lock holds at an address once that address has itself failed twice for the name: a guesser elsewhere cannot
  lock the owner out of a new device (one typo is allowed), and a guesser rotating addresses gets two guesses
  per fresh address against a password taikai generated. A Card Game ID's lock holds everywhere: a PIN has
  only a few digits.
A success clears the name's count; `taikai user unlock NAME` clears it from the command line.
The same holds for recovering a player page (Card Game ID and PIN).

A browser that signed in as a name before carries a signed "known device" cookie for it. Its attempts for that
name are counted for that device alone, so other people's failures (from another address, or from the same
venue Wi-Fi address) never lock out the right password typed on an already-known device.

With the disk full a failure cannot be written: it is then counted in this process's memory (``unsaved``), and
the limits count those too. A known device is still limited on its own count only, so the organizer is never
locked out by the bookkeeping; an unknown device is not let through either, it meets the same limits, counted
per process (with W web processes at most W times the limit until the disk has room). Refusing every unknown
device instead would lock the organizer out on a new phone, which is the failure this is meant to avoid.

Addresses are REMOTE_ADDR, which uvicorn sets from X-Forwarded-For only for TAIKAI_TRUSTED_PROXIES.
Why not django-axes: it throttles Django's authenticate() only, while the player-page recovery is not a
Django login; and it has no known-device exemption. This module is small and covers both.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import secrets
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.db import DatabaseError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from taikai.security import diskfull
from taikai.security.models import FailedAttempt
from taikai.security.rates import client_address

LIMIT = 5  # failures per name (or Card Game ID) and address, or per name and known device
ADDRESS_LIMIT = 30  # failures per address, across names
NAME_LIMIT = 10  # failures per name, across addresses
UNDER_ATTACK_TRIES = 2  # an address's own failures for a name before the name's lock holds for it
WINDOW = dt.timedelta(minutes=15)
DEVICE_COOKIE = "taikai_device"
DEVICE_AGE = 60 * 60 * 24 * 180  # a season of events
DEVICE_NAMES = 8  # names one device remembers

# URL name -> (scope, the POST field that names the account)
GUARDED = {"login": ("login", "username"), "recover": ("recover", "card_game_id")}


@dataclass(frozen=True)
class Attempt:
    scope: str
    key: str  # the name with the address, or with the known device
    address: str  # the address, or "" for a known device (its failures do not count against the address)
    name: str  # the name alone (hashed), for the count across addresses
    device: str = ""  # the known device's id, when this browser signed in as this name before


def _hash(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def known_names(request: HttpRequest) -> tuple[str, list[str]]:
    """This browser's device id and the hashed names it signed in as, from the signed cookie."""
    raw = request.COOKIES.get(DEVICE_COOKIE, "")
    try:
        value = signing.loads(raw, salt="taikai.device", max_age=DEVICE_AGE) if raw else None
    except signing.BadSignature:
        value = None
    if not isinstance(value, dict) or not isinstance(value.get("id"), str) or not isinstance(value.get("n"), list):
        return "", []
    return value["id"], [n for n in value["n"] if isinstance(n, str)]


def _normalized(name: str) -> str:
    return unicodedata.normalize("NFKC", name).strip().casefold().replace("-", "").replace(" ", "")


def attempt_for(request: HttpRequest, url_name: str, kwargs: dict[str, Any]) -> Attempt:
    scope, field = GUARDED[url_name]
    name = _hash(scope, str(kwargs.get("event_id", "")), _normalized(str(request.POST.get(field, ""))))
    address = client_address(request)
    device, names = known_names(request)
    if device and name in names:
        return Attempt(scope, _hash(name, "device", device), "", name, device)
    return Attempt(scope, _hash(name, address), address, name)


def remember_device(request: HttpRequest, response: HttpResponse, attempt: Attempt) -> None:
    device, names = known_names(request)
    names = [attempt.name] + [n for n in names if n != attempt.name][: DEVICE_NAMES - 1]
    value = signing.dumps({"id": device or secrets.token_urlsafe(16), "n": names}, salt="taikai.device")
    response.set_cookie(
        DEVICE_COOKIE,
        value,
        max_age=DEVICE_AGE,
        httponly=True,
        samesite="Lax",
        secure=bool(getattr(settings, "SESSION_COOKIE_SECURE", False)),
    )


class _Unsaved:
    """Failures the database refused (disk full), counted in this process until they leave the window."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: list[tuple[Attempt, dt.datetime]] = []

    def add(self, attempt: Attempt, at: dt.datetime) -> None:
        with self._lock:
            self._rows = [(a, t) for a, t in self._rows if t >= at - WINDOW] + [(attempt, at)]

    def times(self, scope: str, field: str, value: str, since: dt.datetime) -> list[dt.datetime]:
        with self._lock:
            return [t for a, t in self._rows if a.scope == scope and getattr(a, field) == value and t >= since]

    def forget(self, attempt: Attempt) -> None:
        with self._lock:
            self._rows = [
                (a, t)
                for a, t in self._rows
                if not (a.scope == attempt.scope and (a.key == attempt.key or a.name == attempt.name))
            ]

    def clear(self) -> None:
        with self._lock:
            self._rows = []


unsaved = _Unsaved()


def _failures(field: str, attempt: Attempt, since: dt.datetime, limit: int) -> int:
    value = getattr(attempt, field)
    saved = FailedAttempt.objects.filter(scope=attempt.scope, at__gte=since, **{field: value})[:limit].count()
    return saved + len(unsaved.times(attempt.scope, field, value, since))


def unlock_name(username: str) -> int:
    """Forget every counted failed sign-in for this account name (``taikai user unlock``); how many."""
    name = _hash("login", "", _normalized(username))
    unsaved.forget(Attempt("login", "", "", name))
    deleted, _ = FailedAttempt.objects.filter(scope="login", name=name).delete()
    return deleted


def retry_after(attempt: Attempt, now: dt.datetime | None = None) -> int:
    """Seconds until this attempt may be tried again; 0 when it is not throttled."""
    now = now or timezone.now()
    since = now - WINDOW
    waits = []
    checks: list[tuple[str, str, int]] = [("key", attempt.key, LIMIT)]
    if not attempt.device:  # a known device is limited on its own count only
        checks.append(("address", attempt.address, ADDRESS_LIMIT))
        # A staff name's lock holds at an address once it failed there too; a PIN's holds everywhere (4 digits)
        if attempt.scope != "login" or _failures("key", attempt, since, UNDER_ATTACK_TRIES) >= UNDER_ATTACK_TRIES:
            checks.append(("name", attempt.name, NAME_LIMIT))
    for field, value, limit in checks:
        recent = FailedAttempt.objects.filter(scope=attempt.scope, at__gte=since, **{field: value})
        times = list(recent.order_by("-at").values_list("at", flat=True)[:limit])
        times = sorted(times + unsaved.times(attempt.scope, field, value, since), reverse=True)
        if len(times) >= limit:
            # Free again when enough of the oldest failures leave the window.
            waits.append((times[limit - 1] + WINDOW - now).total_seconds())
    return max(0, math.ceil(max(waits))) if waits else 0


def record_failure(attempt: Attempt, now: dt.datetime | None = None) -> None:
    now = now or timezone.now()
    try:
        with transaction.atomic():
            FailedAttempt.objects.create(
                scope=attempt.scope, key=attempt.key, address=attempt.address, name=attempt.name, at=now
            )
            FailedAttempt.objects.filter(at__lt=now - WINDOW).delete()  # keep the table small
    except DatabaseError as exc:
        if not diskfull.is_disk_full(exc):
            raise
        diskfull.report(exc, f"counting a failed {attempt.scope} (counted in memory)")
        unsaved.add(attempt, now)


def clear_failures(attempt: Attempt) -> None:
    unsaved.forget(attempt)
    try:
        with transaction.atomic():
            FailedAttempt.objects.filter(scope=attempt.scope, key=attempt.key).delete()
            FailedAttempt.objects.filter(scope=attempt.scope, name=attempt.name).delete()
    except DatabaseError as exc:  # the old failures stay counted until they leave the window
        if not diskfull.is_disk_full(exc):
            raise
        diskfull.report(exc, f"clearing the failed {attempt.scope} count after a success")


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
                remember_device(request, response, attempt)
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
