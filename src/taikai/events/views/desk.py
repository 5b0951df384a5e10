"""The registration desk: the player list, registration and late entry, check-in, the CSV import, drops, teams."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from taikai.core.collation import name_order
from taikai.core.problems import Problem
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.forms import CsvImportForm, PlayerForm
from taikai.events.models import Event, Player
from taikai.events.services import csv_import, participation, registration
from taikai.events.services import events as event_services
from taikai.events.texts import problem_text
from taikai.events.views.common import Ask, attempt, confirm_then, error_text, flash_error, spam_clean_up, staff_view
from taikai.events.views.slips import slips_page


@staff_view
@require_POST
def registration_toggle(request: HttpRequest, event: Event) -> HttpResponse:
    close = request.POST.get("close") == "yes"
    done = _("Registration is closed.") if close else _("Registration is open again.")
    attempt(request, lambda: event_services.close_registration(event, by=Staff(request.user), closed=close), done)
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
        by, changes = Staff(request.user), form.cleaned_data
        if attempt(request, lambda: registration.update_player(player, by=by, **changes), _("Saved."), form=form):
            return redirect("players", event_id=event.pk)
    return render(request, "events/player_edit.html", {"event": event, "player": player, "form": form})


@staff_view
@require_POST
def player_delete(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    ask = Ask(
        title=_("Delete %(name)s?") % {"name": player.name},
        text=_(
            "The registration (and a deck list already sent) is removed. Use this for a registration made by "
            "mistake; a player who leaves the event drops instead."
        ),
        button=_("Delete"),
        cancel=reverse("players", args=[event.pk]),
    )
    return confirm_then(
        request,
        event,
        ask,
        lambda: registration.delete_player(player, by=Staff(request.user)),
        _("%(name)s deleted.") % {"name": player.name},
    )


@staff_view
@require_POST
def player_undrop(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    return _on_player(request, event, player_id, participation.undrop_player, _("%(name)s is back in the event."))


def _on_player(request: HttpRequest, event: Event, player_id: int, act: Callable[..., Any], done: str) -> HttpResponse:
    """One desk action on one player (drop, un-drop): the service decides, the list page says what happened."""
    player = get_object_or_404(Player, pk=player_id, event=event)
    attempt(request, lambda: act(player, by=Staff(request.user)), done % {"name": player.name})
    return redirect("players", event_id=event.pk)


@staff_view
def players_template(request: HttpRequest, event: Event) -> HttpResponse:
    """A CSV to fill in for the import (UTF-8 with a BOM, so spreadsheet programs read the Japanese)."""
    response = HttpResponse(("\ufeff" + csv_import.CSV_TEMPLATE).encode(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="players-template.csv"'
    return response


players_remove_spam = spam_clean_up(
    registration.remove_spam_registrations, gettext_lazy("%(n)s self-registrations removed."), "players"
)


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
