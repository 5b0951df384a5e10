"""The organizer's console: events, staff, players and check-in."""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.forms import CsvImportForm, EventForm, PlayerForm, StaffForm
from taikai.events.models import Event, Player, StaffRole
from taikai.events.services import events as event_services
from taikai.events.services import players as player_services
from taikai.events.site_roles import is_organizer
from taikai.events.views.common import error_text, flash_error, staff_view


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    if request.user.is_superuser:  # type: ignore[union-attr]
        events = Event.objects.all()
    else:
        events = Event.objects.filter(staff__user=request.user).distinct()
    return render(request, "events/event_list.html", {"events": events, "can_create": is_organizer(request.user)})


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    if not is_organizer(request.user):
        return render(request, "events/forbidden.html", status=403)
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_services.create_event(by=Staff(request.user), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Event created."))
            return redirect("event_console", event_id=event.pk)
    return render(request, "events/event_form.html", {"form": form})


@staff_view
def event_console(request: HttpRequest, event: Event) -> HttpResponse:
    from taikai.events.services import rounds as round_services

    players = event.players.all()
    active = [p for p in players if not p.dropped]
    suggested_rounds, suggested_cut = event_services.suggested_rounds(event, max(len(active), 1))
    context = {
        "event": event,
        "role": request.event_role,  # type: ignore[attr-defined]
        "player_count": len(players),
        "checked_in": sum(1 for p in players if p.checked_in_at),
        "active_count": len(active),
        "rounds": event.rounds.all(),
        "suggested_rounds": suggested_rounds,
        "suggested_cut": suggested_cut,
        "plan": round_services.plan(event),
        "staff": event.staff.select_related("user"),
    }
    return render(request, "events/console.html", context)


@staff_view
def event_edit(request: HttpRequest, event: Event) -> HttpResponse:
    initial = {f: getattr(event, f) for f in EventForm.base_fields}
    form = EventForm(request.POST or None, initial=initial, ruleset=event.ruleset)
    if request.method == "POST" and form.is_valid():
        changes = {k: v for k, v in form.cleaned_data.items() if v != initial.get(k)}
        try:
            event_services.update_event(event, by=Staff(request.user), **changes)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Saved."))
            return redirect("event_console", event_id=event.pk)
    return render(request, "events/event_form.html", {"form": form, "event": event})


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
def players(request: HttpRequest, event: Event) -> HttpResponse:
    form = PlayerForm(request.POST or None, prefix="reg")
    csv_form = CsvImportForm(prefix="csv")
    if request.method == "POST" and form.is_valid():
        try:
            player, token = player_services.register_with_access(event, by=Staff(request.user), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("%(name)s registered.") % {"name": player.name})
            return _slip(request, event, player, token)  # the personal link at once (issue 14, item 15)
    rows = event.players.select_related("team").order_by("name_kana", "name")
    return render(request, "events/players.html", {"event": event, "form": form, "csv_form": csv_form, "players": rows})


def spam_window(request: HttpRequest) -> dt.datetime:
    """The "last N minutes" of a spam clean-up form (1 to 1440, default 60)."""
    raw = request.POST.get("minutes", "60")
    minutes = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 60
    return timezone.now() - dt.timedelta(minutes=min(max(minutes, 1), 1440))


@staff_view
@require_POST
def players_remove_spam(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        removed = player_services.remove_spam_registrations(event, by=Staff(request.user), since=spam_window(request))
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
        created = player_services.import_players_csv(event, by=Staff(request.user), data=upload.read())
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("%(count)d players imported.") % {"count": len(created)})
    return redirect("players", event_id=event.pk)


@staff_view
def player_search(request: HttpRequest, event: Event) -> JsonResponse:
    """The check-in desk's search box: answers as the organizer types."""
    found = player_services.search_players(event, request.GET.get("q", ""))
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
        player, token = player_services.check_in(player, by=Staff(request.user), id_card_shown=True)
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("players", event_id=event.pk)
    if not token:  # the link from registration stays valid
        messages.success(request, _("%(name)s checked in.") % {"name": player.name})
        return redirect("players", event_id=event.pk)
    return _slip(request, event, player, token)


@staff_view
@require_POST
def player_reissue(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        token = player_services.issue_access(player, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("players", event_id=event.pk)
    return _slip(request, event, player, token)


@staff_view
@require_POST
def player_revoke(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    player_services.revoke_access(player, by=Staff(request.user))
    messages.success(request, _("The personal link of %(name)s no longer works.") % {"name": player.name})
    return redirect("players", event_id=event.pk)


@staff_view
@require_POST
def player_drop(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    try:
        player_services.drop_player(player, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("%(name)s dropped.") % {"name": player.name})
    return redirect("players", event_id=event.pk)


def _slip(request: HttpRequest, event: Event, player: Player, token: str) -> HttpResponse:
    """The printable check-in slip with the player's personal link and its QR code (shown once)."""
    import qrcode
    import qrcode.image.svg

    url = request.build_absolute_uri(f"/p/{token}/")
    svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=12).to_string(encoding="unicode")
    return render(request, "events/slip.html", {"event": event, "player": player, "url": url, "qr_svg": svg})


@staff_view
def teams(request: HttpRequest, event: Event) -> HttpResponse:
    """Team events: register a team with its three named seats; the team standings."""
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
            "standings": team_services.team_standings(event),
        },
    )
