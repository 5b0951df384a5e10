"""Announcements: the organizer's form on the console, and the public read the projector and players' pages
follow (announce.js reads it when the event's stream says an announcement changed)."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.services import announcements
from taikai.events.views.common import flash_error, staff_view


@staff_view
@require_POST
def announcement_send(request: HttpRequest, event: Event) -> HttpResponse:
    clear = request.POST.get("clear") == "yes"
    typed = "" if clear else request.POST.get("text", "")
    seen = parse_id(request.POST.get("seen", "")) or 0
    back = reverse("event_console", args=[event.pk]) + "#announcement-card"
    try:
        announcements.announce(event, by=Staff(request.user), text=typed, seen=seen)
    except ServiceError as exc:
        flash_error(request, exc)
        # what was typed comes back in the form, not lost with the refusal
        return redirect(reverse("event_console", args=[event.pk]) + "?" + urlencode({"announcement": typed[:1000]}))
    messages.success(request, _("The announcement is cleared.") if clear else _("The announcement is shown."))
    return redirect(back)


def announcement_json(request: HttpRequest, event_id: int) -> JsonResponse:
    """The announcement on show: {"id", "text", "at"} (id of the latest change; text "" when none)."""
    event = get_object_or_404(Event, pk=event_id)
    shown = announcements.current(event.pk)
    at = timezone.localtime(shown.sent_at).strftime("%H:%M") if shown else ""
    body = {"id": announcements.seen_id(event.pk), "text": shown.text if shown else "", "at": at}
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response
