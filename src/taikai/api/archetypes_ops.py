"""The organizer publishes the declared deck archetypes over the API before the event ends, or hides them again
(issue 16): the same services as the console's button (taikai.events.services.events)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from taikai.api import public
from taikai.api import schemas as s
from taikai.api import schemas_ops as so
from taikai.api.base import staff_actor
from taikai.api.routes import SignedInRoutes
from taikai.events.models import Event
from taikai.events.services import events as event_services

router = public.router
TAGS = ["running an event"]
routes = SignedInRoutes(router, TAGS)
PATH = "/events/{event_id}/archetypes/publish"


def _state(event: Event) -> dict[str, Any]:
    at = event.archetypes_published_at
    return {"public": event.archetypes_public, "published_at": at.isoformat() if at else None}


@routes.post(PATH, so.ArchetypesOut)
def publish_archetypes(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """Publish every player's declared deck archetype now (organizer): `archetype` in the players list and the
    metagame chart become public before the event ends. Publishing twice is once."""
    event = get_object_or_404(Event, pk=event_id)
    return _state(event_services.publish_archetypes(event, by=staff_actor(request, event)))


@routes.delete(PATH, so.ArchetypesOut)
def unpublish_archetypes(request: HttpRequest, event_id: s.Id) -> dict[str, Any]:
    """Hide the archetypes again until the event finishes (organizer); refused once it has finished
    (`archetypes-public-after-event`)."""
    event = get_object_or_404(Event, pk=event_id)
    return _state(event_services.unpublish_archetypes(event, by=staff_actor(request, event)))
