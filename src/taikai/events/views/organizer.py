"""The organizer's console: the events, their settings and their staff (the players: desk.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.penalties import head_judge_required
from taikai.core.progress import NextAction
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.forms import EventForm, StaffForm
from taikai.events.models import Event, StaffRole
from taikai.events.permissions import HEAD_JUDGE_ROLES
from taikai.events.services import events as event_services
from taikai.events.site_roles import is_organizer
from taikai.events.venue import browsed_over_loopback, venue_base, venue_known
from taikai.events.views.common import Ask, attempt, confirm_then, error_text, staff_view
from taikai.security import services as anonymous_limits


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert not isinstance(user, AnonymousUser)  # login_required
    events = Event.objects.all() if user.is_superuser else Event.objects.filter(staff__user=user).distinct()
    return render(request, "events/event_list.html", {"events": events, "can_create": is_organizer(request.user)})


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    if not is_organizer(request.user):
        return render(request, "events/forbidden.html", status=403)
    form = EventForm(request.POST or None)
    warnings = _unaccepted_warnings(request, form, {})
    if request.method == "POST" and form.is_valid() and not warnings:
        try:
            event = event_services.create_event(by=Staff(request.user), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Event created."))
            return redirect("event_console", event_id=event.pk)
    return render(request, "events/event_form.html", {"form": form, "warnings": warnings})


def _unaccepted_warnings(request: HttpRequest, form: EventForm, before: dict[str, Any]) -> list[str]:
    """The form's warnings (a past date or deck deadline) until the organizer ticks that they mean it."""
    if request.method != "POST" or not form.is_valid() or request.POST.get("accept_warnings") == "yes":
        return []
    return form.warnings(before)


@staff_view
def event_console(request: HttpRequest, event: Event) -> HttpResponse:
    from taikai.events.services import progress, round_plan
    from taikai.events.services import rounds as round_services

    players = event.players.all()
    active = [p for p in players if not p.dropped]
    plan = progress.plan(event)
    context = {
        "event": event,
        "role": request.event_role,  # type: ignore[attr-defined]
        "player_count": len(players),
        "checked_in": sum(1 for p in players if p.checked_in_at),
        "active_count": len(active),
        "rounds": event.rounds.all(),
        "round_plan": round_plan.shown(event),
        "plan": plan,
        "next": {a.name: a for a in NextAction},  # the console compares plan.next_action with these, not strings
        "cut": round_services.top_cut_preview(event) if plan.next_action == NextAction.TOP_CUT else None,
        "staff": event.staff.select_related("user"),
        "venue": venue_base(request),
        "loopback": browsed_over_loopback(request),
        "venue_known": venue_known(request),
        "no_head_judge": _lacks_head_judge(event),
        "limits": anonymous_limits.limits_of(event),
        "lockouts": anonymous_limits.lockouts(event),  # an anonymous form refusing people is said here (issue 25)
    }
    return render(request, "events/console.html", context)


def _lacks_head_judge(event: Event) -> bool:
    """PEN-6 (CS 3): the ruleset reserves disqualification to the head judge and none is named, so no DQ is
    possible; the console says so until one is named (a finished event is past it)."""
    if event.status == Event.Status.FINISHED or not head_judge_required(event.ruleset.penalties):
        return False
    return not event.staff.filter(role__in=HEAD_JUDGE_ROLES).exists()


@staff_view
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    initial = {f: getattr(event, f) for f in EventForm.base_fields}
    form = EventForm(request.POST or None, initial=initial, ruleset=event.ruleset)
    if event.rounds.exists():  # fixed at round 1; the rounds and the cut change on the console (issue 22)
        for name in ("format", "swiss_rounds", "top_cut"):
            form.fields[name].disabled = True
        form.fields["swiss_rounds"].help_text = _("Fixed when round 1 was paired: change it on the event console.")
        form.fields["top_cut"].help_text = _("Fixed when round 1 was paired: change it on the event console.")
    warnings = _unaccepted_warnings(request, form, initial)
    if request.method == "POST" and form.is_valid() and not warnings:
        changes = {k: v for k, v in form.cleaned_data.items() if v != initial.get(k)}
        by = Staff(request.user)
        if attempt(request, lambda: event_services.update_event(event, by=by, **changes), _("Saved."), form=form):
            return redirect("event_console", event_id=event.pk)
    return render(request, "events/event_form.html", {"form": form, "event": event, "warnings": warnings})


@staff_view
def staff_manage(request: HttpRequest, event: Event) -> HttpResponse:
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        by, account = Staff(request.user), {k: form.cleaned_data[k] for k in ("username", "role", "password")}
        if attempt(
            request, lambda: event_services.add_staff(event, by=by, **account), _("Staff role saved."), form=form
        ):
            return redirect("staff_manage", event_id=event.pk)
    staff = event.staff.select_related("user").order_by("role")
    return render(request, "events/staff.html", {"event": event, "form": form, "staff": staff, "roles": StaffRole.Role})


@staff_view
@require_POST
def staff_remove(request: HttpRequest, event: Event) -> HttpResponse:
    username = request.POST.get("staff_username", "")
    ask = Ask(
        title=_("Remove %(name)s from the staff?") % {"name": username},
        text=_("They can no longer open this event's staff pages. Their past actions stay in the log."),
        button=_("Remove"),
        keep={"staff_username": username},
        cancel=reverse("staff_manage", args=[event.pk]),
    )
    return confirm_then(
        request,
        event,
        ask,
        lambda: event_services.remove_staff(event, by=Staff(request.user), username=username),
        _("%(name)s is no longer staff.") % {"name": username},
    )
