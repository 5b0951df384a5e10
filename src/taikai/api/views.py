"""Pages: the public charts, the organizer's printable report, and the API tokens page."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from taikai.api import charts
from taikai.api import report as report_data
from taikai.api.serialize import archetypes_public
from taikai.charts.pictures import NARROW, WIDE
from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, StaffRole
from taikai.events.texts import problem_text
from taikai.events.views.common import staff_view
from taikai.tokens.models import ApiToken
from taikai.tokens.services import create_token, revoke_token


def charts_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    names = ["paths", "attendance"]
    # The metagame names players' decks: public once the event has finished or the organizer published them.
    # The same for staff on this public page (it may be on the projector); staff preview it in the report.
    if archetypes_public(event):
        names.insert(0, "metagame")
    if charts.has_bracket(event):
        names.append("bracket")
    pictures = []
    for name in names:
        draw = charts.CHARTS[name](event)
        # Both layouts are on the page; its stylesheet shows the one that fits the screen.
        wide, narrow = draw(WIDE), draw(NARROW)
        pictures.append((name, mark_safe(wide), mark_safe(narrow)))  # noqa: S308 - escaped by taikai.charts
    return render(request, "api/charts.html", {"event": event, "pictures": pictures})


def chart_svg(request: HttpRequest, event_id: int, name: str) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    draw = charts.CHARTS.get(name)
    if draw is None or (name == "metagame" and not archetypes_public(event)):
        raise Http404
    player = parse_id(request.GET.get("player"))
    svg = charts.paths_svg(event, [player]) if name == "paths" and player is not None else draw(event)(WIDE)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


@staff_view
def report(request: HttpRequest, event: Event) -> HttpResponse:
    return render(request, "api/report.html", report_data.context(event))


@staff_view
def tokens(request: HttpRequest, event: Event) -> HttpResponse:
    new_token = None
    if request.method == "POST":
        try:
            if request.POST.get("revoke"):
                row = get_object_or_404(ApiToken, pk=parse_id(request.POST["revoke"]) or 0, event=event)
                revoke_token(row, by=Staff(request.user))
                messages.success(request, _("Token revoked."))
                return redirect("api_tokens", event_id=event.pk)
            _row, new_token = create_token(
                event,
                by=Staff(request.user),
                username=request.POST.get("username", "").strip(),
                role=request.POST.get("role", ""),
                label=request.POST.get("label", ""),
            )
        except ServiceError as exc:
            messages.error(request, problem_text(exc.problem))
    rows = ApiToken.objects.filter(event=event).select_related("user")
    staff = event.staff.select_related("user").order_by("user__username")
    return render(
        request,
        "api/tokens.html",
        {"event": event, "tokens": rows, "staff": staff, "roles": StaffRole.Role, "new_token": new_token},
    )
