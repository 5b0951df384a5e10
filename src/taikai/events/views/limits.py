"""The organizer's limits on the event's anonymous forms, and lifting a lockout (issue 25)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.forms import AnonymousLimitsForm
from taikai.events.models import Event
from taikai.events.views.common import attempt, staff_view
from taikai.security import services as limits


@staff_view
def anonymous_limits(request: HttpRequest, event: Event) -> HttpResponse:
    current = limits.limits_of(event)
    form = AnonymousLimitsForm(request.POST or None, initial={**current.as_dict(), "version": current.version})
    organizer = request.event_role == "organizer"  # type: ignore[attr-defined]
    if not organizer:
        for field in form.fields.values():
            field.disabled = True
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        by, version = Staff(request.user), data.pop("version")
        if attempt(request, lambda: limits.set_limits(event, by=by, version=version, **data), _("Saved."), form=form):
            return redirect("anonymous_limits", event_id=event.pk)
    context = {
        "event": event,
        "form": form,
        "limits": current,
        "lockouts": limits.lockouts(event),
        "organizer": organizer,
        "role": request.event_role,  # type: ignore[attr-defined]
    }
    return render(request, "events/anonymous_limits.html", context)


@staff_view
@require_POST
def lift_lockout(request: HttpRequest, event: Event) -> HttpResponse:
    version = parse_id(request.POST.get("version"))
    version = -1 if version is None else version  # -1: stale, refused
    attempt(
        request,
        lambda: limits.lift_lockout(event, by=Staff(request.user), version=version),
        _("Lockout lifted: the forms accept people again."),
    )
    return redirect("event_console", event_id=event.pk)
