"""The organizer's console: events, staff, players and check-in."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.collation import name_order
from taikai.core.ids import parse_id
from taikai.core.penalties import head_judge_required
from taikai.core.problems import Problem
from taikai.core.progress import NextAction
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.forms import CsvImportForm, EventForm, PlayerForm, StaffForm
from taikai.events.messages import problem_text
from taikai.events.models import Event, Player, StaffRole
from taikai.events.permissions import HEAD_JUDGE_ROLES
from taikai.events.services import csv_import, participation, registration
from taikai.events.services import events as event_services
from taikai.events.site_roles import is_organizer
from taikai.events.venue import browsed_over_loopback, venue_base, venue_known
from taikai.events.views.common import confirm_page, confirmed, error_text, flash_error, staff_view
from taikai.events.views.slips import slips_page
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
        try:
            event_services.update_event(event, by=Staff(request.user), **changes)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Saved."))
            return redirect("event_console", event_id=event.pk)
    return render(request, "events/event_form.html", {"form": form, "event": event, "warnings": warnings})


@staff_view
def staff_manage(request: HttpRequest, event: Event) -> HttpResponse:
    form = StaffForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            event_services.add_staff(
                event, by=Staff(request.user), username=data["username"], role=data["role"], password=data["password"]
            )
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Staff role saved."))
            return redirect("staff_manage", event_id=event.pk)
    staff = event.staff.select_related("user").order_by("role")
    return render(request, "events/staff.html", {"event": event, "form": form, "staff": staff, "roles": StaffRole.Role})


@staff_view
@require_POST
def staff_remove(request: HttpRequest, event: Event) -> HttpResponse:
    username = request.POST.get("staff_username", "")
    if not confirmed(request):
        return confirm_page(
            request,
            event,
            title=_("Remove %(name)s from the staff?") % {"name": username},
            text=_("They can no longer open this event's staff pages. Their past actions stay in the log."),
            button=_("Remove"),
            cancel=reverse("staff_manage", args=[event.pk]),
            keep={"staff_username": username},
        )
    try:
        event_services.remove_staff(event, by=Staff(request.user), username=username)
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("%(name)s is no longer staff.") % {"name": username})
    return redirect("staff_manage", event_id=event.pk)


@staff_view
@require_POST
def registration_toggle(request: HttpRequest, event: Event) -> HttpResponse:
    close = request.POST.get("close") == "yes"
    try:
        event_services.close_registration(event, by=Staff(request.user), closed=close)
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("Registration is closed.") if close else _("Registration is open again."))
    back = request.POST.get("next", "")
    if not back.startswith("/") or not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("players", args=[event.pk])  # only a page of this site, never "²" or another host
    return redirect(back)


@staff_view
def players(request: HttpRequest, event: Event) -> HttpResponse:
    """The player list and the desk: register (or, once registration is closed, a late entry), import."""
    late = not event.registration_open
    form = PlayerForm(request.POST or None, prefix="reg")
    csv_form = CsvImportForm(prefix="csv")
    finished = event.status == Event.Status.FINISHED
    if request.method == "POST" and form.is_valid() and not finished:
        by = Staff(request.user)
        try:
            if late:  # a late arrival is at the desk: checked in at once, and the slip prints
                player = registration.register_player(event, by=by, late_entry=True, **form.cleaned_data)
                player, token = registration.check_in(player, by=by, id_card_shown=True)
            else:  # the personal link at once, so a deck list can be sent before the event (issue 14, item 15)
                player, token = registration.register_with_access(event, by=by, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("%(name)s registered.") % {"name": player.name})
            return slips_page(request, event, [(player, token)])
    rows = sorted(event.players.select_related("team"), key=lambda p: name_order(p.name, p.name_kana))
    context = {
        "event": event,
        "form": form,
        "csv_form": csv_form,
        "players": rows,
        "late": late,
        "finished": finished,
        "can_reopen": event.registration_closed and not event.rounds.exists() and not finished,
        "rounds_paired": event.rounds.count(),
        "checked_in": sum(1 for p in rows if p.checked_in_at),
        "csv_problems": [problem_text(_problem(p)) for p in request.session.pop("csv_problems", [])],
    }
    return render(request, "events/players.html", context)


@staff_view
def player_edit(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    initial = {f: getattr(player, f) for f in PlayerForm.base_fields}
    form = PlayerForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            registration.update_player(player, by=Staff(request.user), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Saved."))
            return redirect("players", event_id=event.pk)
    return render(request, "events/player_edit.html", {"event": event, "player": player, "form": form})


@staff_view
@require_POST
def player_delete(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    if not confirmed(request):
        return confirm_page(
            request,
            event,
            title=_("Delete %(name)s?") % {"name": player.name},
            text=_(
                "The registration (and a deck list already sent) is removed. Use this for a registration made by "
                "mistake; a player who leaves the event drops instead."
            ),
            button=_("Delete"),
            cancel=reverse("players", args=[event.pk]),
        )
    try:
        registration.delete_player(player, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("%(name)s deleted.") % {"name": player.name})
    return redirect("players", event_id=event.pk)


@staff_view
@require_POST
def player_undrop(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    return _on_player(request, event, player_id, participation.undrop_player, _("%(name)s is back in the event."))


def _on_player(request: HttpRequest, event: Event, player_id: int, act: Callable[..., Any], done: str) -> HttpResponse:
    """One desk action on one player (drop, un-drop): the service decides, the list page says what happened."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        act(player, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, done % {"name": player.name})
    return redirect("players", event_id=event.pk)


@staff_view
def players_template(request: HttpRequest, event: Event) -> HttpResponse:
    """A CSV to fill in for the import (UTF-8 with a BOM, so spreadsheet programs read the Japanese)."""
    response = HttpResponse(("\ufeff" + csv_import.CSV_TEMPLATE).encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="players-template.csv"'
    return response


def spam_window(request: HttpRequest) -> dt.datetime:
    """The "last N minutes" of a spam clean-up form (1 to 1440, default 60)."""
    minutes = parse_id(request.POST.get("minutes", "60"), digits=4) or 60
    return timezone.now() - dt.timedelta(minutes=min(max(minutes, 1), 1440))


@staff_view
@require_POST
def players_remove_spam(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        removed = registration.remove_spam_registrations(event, by=Staff(request.user), since=spam_window(request))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("%(n)s self-registrations removed.") % {"n": removed})
    return redirect("players", event_id=event.pk)


@staff_view
@require_POST
def players_import(request: HttpRequest, event: Event) -> HttpResponse:
    form = CsvImportForm(request.POST, request.FILES, prefix="csv")
    if not form.is_valid():
        messages.error(request, _("Choose a CSV file."))
        return redirect("players", event_id=event.pk)
    upload = form.cleaned_data["file"]
    if upload.size > 2_000_000:
        messages.error(request, _("The file is too large (2 MB at most)."))
        return redirect("players", event_id=event.pk)
    try:
        created = csv_import.import_players_csv(event, by=Staff(request.user), data=upload.read())
    except ServiceError as exc:
        flash_error(request, exc)
        rows = exc.problem.params.get("problems", ())
        # Each bad row with its line and reason, shown once on the player list (the codes are translated there).
        request.session["csv_problems"] = [_as_json(p) for p in rows][:200]
    else:
        messages.success(request, _("%(count)d players imported.") % {"count": len(created)})
    return redirect("players", event_id=event.pk)


@staff_view
def player_search(request: HttpRequest, event: Event) -> JsonResponse:
    """The check-in desk's search box: answers as the organizer types."""
    found = registration.search_players(event, request.GET.get("q", ""))
    return JsonResponse(
        {
            "players": [
                {
                    "id": p.pk,
                    "name": p.name,
                    "name_kana": p.name_kana,
                    "card_game_id": p.card_game_id,
                    "checked_in": bool(p.checked_in_at),
                    "dropped": p.dropped,
                }
                for p in found
            ]
        }
    )


@staff_view
@require_POST
def player_check_in(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        player, token = registration.check_in(player, by=Staff(request.user), id_card_shown=True)
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("players", event_id=event.pk)
    if not token:  # the link from registration stays valid
        messages.success(request, _("%(name)s checked in.") % {"name": player.name})
        return redirect("players", event_id=event.pk)
    return slips_page(request, event, [(player, token)])


@staff_view
@require_POST
def player_drop(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    return _on_player(request, event, player_id, participation.drop_player, _("%(name)s dropped."))


def _as_json(problem: Problem) -> dict[str, Any]:
    inner = problem.params.get("inner")
    params = {k: v for k, v in problem.params.items() if k != "inner"}
    return {"code": problem.code, "params": params, "inner": _as_json(inner) if isinstance(inner, Problem) else None}


def _problem(data: dict[str, Any]) -> Problem:
    inner = data.get("inner")
    return Problem(data["code"], **data["params"], **({"inner": _problem(inner)} if inner else {}))


@staff_view
def teams(request: HttpRequest, event: Event) -> HttpResponse:
    """Team events: register a team with its three named seats; the team standings."""
    from taikai.events.services import team_play
    from taikai.events.services import teams as team_services

    seats = event.ruleset.team.seats
    error = None
    if request.method == "POST":
        members = [
            {
                "name": request.POST.get(f"name_{s}", ""),
                "name_kana": request.POST.get(f"kana_{s}", ""),
                "card_game_id": request.POST.get(f"cgid_{s}", ""),
            }
            for s in seats
        ]
        try:
            team = team_services.register_team(
                event, by=Staff(request.user), name=request.POST.get("team_name", ""), members=members
            )
        except ServiceError as exc:
            error = error_text(exc)
        else:
            messages.success(request, _("Team %(name)s registered.") % {"name": team.name})
            return redirect("teams", event_id=event.pk)
    return render(
        request,
        "events/teams.html",
        {
            "event": event,
            "seats": seats,
            "error": error,
            "post": request.POST,
            "teams": event.teams.prefetch_related("members"),
            "standings": team_play.team_standings(event),
        },
    )
