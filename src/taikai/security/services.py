"""Each event's caps on its anonymous forms (issue 25): self-registration and spectator reports.

The caps were constants: 13 addresses closed both forms for the whole event for ten minutes, and behind one
venue NAT the 11th honest registration in ten minutes was refused. Now the organizer sets them per event
(``set_limits``), the console says when a cap refuses people (``lockouts``) instead of the forms closing
silently, and the organizer lifts a lockout (``lift_lockout``: hits before it no longer count). A form sent
with a valid player link of the event is not anonymous: it is counted against that player, not the caps.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from taikai.audit.services import save_and_log
from taikai.events.actors import Actor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_organizer
from taikai.security import (
    actions,
    rates,
    texts,  # noqa: F401  (registers the security texts)
)
from taikai.security.models import EventLimits, RateHit

FORMS = ("register", "report")
FIELDS = ("register_per_address", "register_per_event", "report_per_address", "report_per_event")
LOWEST, HIGHEST = 1, 100_000
REMEMBER = 15  # seconds a web process answers a refused form from memory: a lift or a raised cap reaches it then
DEFAULTS = {
    "register_per_address": rates.REGISTER_PER_ADDRESS.limit,
    "register_per_event": rates.REGISTER_PER_EVENT.limit,
    "report_per_address": rates.REPORT_PER_ADDRESS.limit,
    "report_per_event": rates.REPORT_PER_EVENT.limit,
}
_PER_ADDRESS = {"register": rates.REGISTER_PER_ADDRESS, "report": rates.REPORT_PER_ADDRESS}
_PER_EVENT = {"register": rates.REGISTER_PER_EVENT, "report": rates.REPORT_PER_EVENT}
_PER_PLAYER = {"register": rates.REGISTER_PER_PLAYER, "report": rates.REPORT_PER_PLAYER}


@dataclass(frozen=True)
class Limits:
    register_per_address: int
    register_per_event: int
    report_per_address: int
    report_per_event: int
    lifted_at: dt.datetime | None
    version: int

    def rates(self, form: str) -> tuple[rates.Rate, rates.Rate]:
        """(per address, per event) for ``form``, with this event's numbers."""
        address, event = _PER_ADDRESS[form], _PER_EVENT[form]
        return (
            rates.Rate(address.scope, getattr(self, f"{form}_per_address"), address.window),
            rates.Rate(event.scope, getattr(self, f"{form}_per_event"), event.window),
        )

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in FIELDS}


@dataclass(frozen=True)
class Lockout:
    """What a form's caps refuse now: everyone (the event's cap) until ``until``, and ``addresses`` at theirs."""

    form: str
    until: dt.datetime | None
    addresses: int
    per_address: int
    per_event: int


def _of(row: EventLimits | None) -> Limits:
    if row is None:
        return Limits(**DEFAULTS, lifted_at=None, version=0)
    return Limits(**{name: getattr(row, name) for name in FIELDS}, lifted_at=row.lifted_at, version=row.version)


def limits_of(event: Event) -> Limits:
    return _of(EventLimits.objects.filter(event=event).first())


def admit(event: Event, form: str, address: str, player: Player | None = None, now: dt.datetime | None = None) -> int:
    """Count one ``form`` ("register" or "report") for ``event``; or count nothing and return the seconds to
    wait. With a valid player link of the event (``player``), the player's own limit is the one counted."""
    if player is not None and player.event_id == event.pk:
        return rates.take((_PER_PLAYER[form], player.pk), now=now)
    limits = limits_of(event)
    per_address, per_event = limits.rates(form)
    return rates.take(
        (per_address, (event.pk, address)), (per_event, event.pk), now=now, event_id=event.pk, since=limits.lifted_at
    )


def lockouts(event: Event, now: dt.datetime | None = None) -> list[Lockout]:
    """The forms whose caps refuse someone now (for the console): two small reads a form."""
    now = now or timezone.now()
    limits = limits_of(event)
    found = []
    for form in FORMS:
        per_address, per_event = limits.rates(form)
        wait = rates.retry_after(per_event, rates._key(per_event.scope, event.pk), now, limits.lifted_at)
        start = now - per_address.window
        if limits.lifted_at is not None and limits.lifted_at > start:
            start = limits.lifted_at
        hits = RateHit.objects.filter(event_id=event.pk, scope=per_address.scope, at__gte=start)
        full = hits.values("key").annotate(n=Count("id")).filter(n__gte=per_address.limit).count()
        if wait or full:
            until = now + dt.timedelta(seconds=wait) if wait else None
            found.append(Lockout(form, until, full, per_address.limit, per_event.limit))
    return found


def _clean(values: dict[str, Any]) -> dict[str, int]:
    cleaned = {}
    for name, value in values.items():
        if name not in FIELDS:
            raise ServiceError("bad-field", field=name)
        if isinstance(value, bool) or not isinstance(value, int) or not LOWEST <= value <= HIGHEST:
            raise ServiceError("limit-range", field=name, low=LOWEST, high=HIGHEST)
        cleaned[name] = value
    return cleaned


def _row(event: Event) -> EventLimits:
    row, _created = EventLimits.objects.select_for_update().get_or_create(event=event, defaults=DEFAULTS)
    return row


def set_limits(event: Event, *, by: Actor, version: int, **values: Any) -> Limits:
    """The organizer sets the event's caps (any of ``FIELDS``), on the version they saw."""
    require_organizer(by, event)
    cleaned = _clean(values)
    with transaction.atomic():
        row = _row(event)
        if row.version != version:
            raise Conflict("conflict")
        before = _of(row).as_dict()
        for name, value in cleaned.items():
            setattr(row, name, value)
        save_and_log(row, actions.LIMITS_SET, actor=by, before=before, after=_of(row).as_dict())
    return _of(row)


def lift_lockout(event: Event, *, by: Actor, version: int) -> Limits:
    """The organizer lifts every lockout of the event's anonymous forms: what was counted before now no
    longer counts (per address and for the whole event). The log keeps what was refused."""
    require_organizer(by, event)
    with transaction.atomic():
        row = _row(event)
        if row.version != version:
            raise Conflict("conflict")
        now = timezone.now()
        refused = [
            {"form": lock.form, "until": lock.until.isoformat() if lock.until else None, "addresses": lock.addresses}
            for lock in lockouts(event, now)
        ]
        row.lifted_at = now
        save_and_log(row, actions.LOCKOUT_LIFTED, actor=by, before={"lockouts": refused})
    return _of(row)
