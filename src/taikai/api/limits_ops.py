"""An event's limits on its anonymous forms over the API (issue 25): what the console's limits page offers,
through the same services (taikai.security.services), organizers only for changes."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Schema

from taikai.api import public
from taikai.api import schemas as s
from taikai.api.base import staff_actor
from taikai.api.routes import SignedInRoutes
from taikai.events.models import Event
from taikai.events.permissions import require_staff
from taikai.security import services as limits

router = public.router
TAGS = ["staff and players"]
routes = SignedInRoutes(router, TAGS)
Cap = Field(None, ge=limits.LOWEST, le=limits.HIGHEST)


class LockoutOut(Schema):
    form: str = Field(description="`register` (self-registration) or `report` (spectator reports)")
    until: str | None = Field(description="The whole event's cap refuses everyone until then (ISO 8601), or null")
    addresses: int = Field(description="Addresses refused now at their own cap")


class LimitsOut(Schema):
    register_per_address: int
    register_per_event: int
    report_per_address: int
    report_per_event: int
    lifted_at: str | None
    version: int
    lockouts: list[LockoutOut]


class LimitsIn(Schema):
    version: int = Field(..., ge=0, description="The `version` you read (a stale one is a 409)")
    register_per_address: int | None = Cap
    register_per_event: int | None = Cap
    report_per_address: int | None = Cap
    report_per_event: int | None = Cap


class LiftIn(Schema):
    version: int = Field(..., ge=0)


def _out(event: Event) -> dict[str, Any]:
    current = limits.limits_of(event)
    return {
        **current.as_dict(),
        "lifted_at": current.lifted_at.isoformat() if current.lifted_at else None,
        "version": current.version,
        "lockouts": [
            {"form": lock.form, "until": lock.until.isoformat() if lock.until else None, "addresses": lock.addresses}
            for lock in limits.lockouts(event)
        ],
    }


@routes.get("/events/{event_id}/limits", LimitsOut)
def get_limits(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """The caps on anonymous self-registrations and spectator reports (per 10 minutes) and what they refuse now."""
    event = get_object_or_404(Event, pk=event_id)
    require_staff(staff_actor(request, event), event)
    return _out(event)


@routes.put("/events/{event_id}/limits", LimitsOut)
def put_limits(request: HttpRequest, event_id: s.Id, body: LimitsIn) -> dict[str, Any]:
    """Change the caps (organizer), on the `version` you read; fields left out stay as they are."""
    event = get_object_or_404(Event, pk=event_id)
    values = {k: v for k, v in body.dict().items() if k != "version" and v is not None}
    limits.set_limits(event, by=staff_actor(request, event), version=body.version, **values)
    return _out(event)


@routes.post("/events/{event_id}/limits/lift", LimitsOut)
def lift_lockout(request: HttpRequest, event_id: s.Id, body: LiftIn) -> dict[str, Any]:
    """Lift every lockout of the event's anonymous forms (organizer): what was counted before no longer counts."""
    event = get_object_or_404(Event, pk=event_id)
    limits.lift_lockout(event, by=staff_actor(request, event), version=body.version)
    return _out(event)
