"""The console's switch for the declared deck archetypes: publish them before the event ends, or hide them again."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.events.actors import Staff
from taikai.events.models import Event
from taikai.events.services import events as event_services
from taikai.events.views.common import Ask, attempt, confirmation, staff_view


@staff_view
@require_POST
def archetypes_publication(request: HttpRequest, event: Event) -> HttpResponse:
    """``publish=yes`` asks first (a page that says what becomes visible, no JavaScript needed); ``publish=no``
    hides them again at once. The service decides who may (the organizer) and when."""
    publish = request.POST.get("publish") == "yes"
    ask = Ask(
        title=_("Publish the deck archetypes?"),
        text=_(
            "Every player's declared deck archetype becomes visible to everyone: the metagame on the charts "
            "page and the public API. While rounds remain, other players could learn the deck of their next "
            "opponent. You can hide them again until the event finishes, but what was seen stays seen."
        ),
        button=_("Publish deck archetypes"),
        cancel=reverse("event_console", args=[event.pk]),
        keep={"publish": "yes"},
    )
    if publish and (page := confirmation(request, event, ask)) is not None:
        return page
    by = Staff(request.user)
    if publish:
        attempt(request, lambda: event_services.publish_archetypes(event, by=by), _("The deck archetypes are public."))
    else:
        attempt(
            request,
            lambda: event_services.unpublish_archetypes(event, by=by),
            _("The deck archetypes are hidden again until the event finishes."),
        )
    return redirect("event_console", event_id=event.pk)
