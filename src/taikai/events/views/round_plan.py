"""The console's form for the Swiss rounds and the top cut (issue 22): the organizer decides them again."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.services import round_plan
from taikai.events.views.common import attempt, staff_view


def _number(raw: str, problem: str) -> int | None:
    """A blank field is None (before round 1: from the table); anything but digits is refused."""
    raw = raw.strip()
    if not raw:
        return None
    number = parse_id(raw, digits=4)
    if number is None:
        low, high = (1, 30) if problem == "swiss-rounds-range" else (2, 256)
        raise ServiceError(problem, low=low, high=high)
    return number


@staff_view
@require_POST
def round_plan_set(request: HttpRequest, event: Event) -> HttpResponse:
    """The service decides who may (the organizer), on which version, and what rounds already paired allow."""
    version = request.POST.get("version", "")
    attempt(
        request,
        lambda: round_plan.set_event_format(
            event,
            by=Staff(request.user),
            version=v if (v := parse_id(version)) is not None else -1,
            swiss_rounds=_number(request.POST.get("swiss_rounds", ""), "swiss-rounds-range"),
            top_cut=_number(request.POST.get("top_cut", ""), "top-cut-range"),
        ),
        _("The Swiss rounds and the top cut are saved."),
    )
    return redirect("event_console", event_id=event.pk)
