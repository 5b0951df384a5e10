"""Standings for staff, CSV exports, and the whole event as one JSON file (export and import)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from taikai.core.tiebreakers import columns
from taikai.events.actors import Staff
from taikai.events.errors import PermissionDenied, ServiceError
from taikai.events.models import Event, Match
from taikai.events.services import transfer, transfer_import
from taikai.events.site_roles import is_organizer
from taikai.events.views.common import flash_error, staff_view
from taikai.events.views.final import shown_rows
from taikai.security.spreadsheet import SafeWriter


@staff_view
def staff_standings(request: HttpRequest, event: Event) -> HttpResponse:
    rows, placings = shown_rows(event)
    context = {"event": event, "rows": rows, "placings": placings, "prizes": any(r.prize_text for r in rows)}
    return render(request, "events/staff_standings.html", context)


@staff_view
def standings_csv(request: HttpRequest, event: Event) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="standings-{event.pk}.csv"'
    response.write("\ufeff")  # Excel opens UTF-8 with a BOM correctly
    w = SafeWriter(response)  # issue 16 M5: no formulas from names
    w.writerow(
        [
            "rank",
            "stage",
            "name",
            "name_kana",
            "card_game_id",
            "points",
            "wins",
            "losses",
            "draws",
            *columns(event.ruleset.standings.tiebreakers),  # omw, oomw, ... by the ruleset's names
            "code",
            "dropped",
            "disqualified",
            "prize",
        ]
    )
    rows, _placings = shown_rows(event)
    for shown in rows:
        r = shown.swiss
        w.writerow(
            [
                shown.rank,
                shown.stage_text,
                r.name,
                r.name_kana,
                r.card_game_id,
                r.points,
                r.wins,
                r.losses,
                r.draws,
                *(f.text for f in r.figures),
                r.code,
                "yes" if r.dropped else "",
                "yes" if shown.disqualified else "",
                shown.prize_text,
            ]
        )
    return response


@staff_view
def results_csv(request: HttpRequest, event: Event) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-{event.pk}.csv"'
    response.write("\ufeff")
    w = SafeWriter(response)  # issue 16 M5: no formulas from names
    w.writerow(
        [
            "round",
            "stage",
            "table",
            "player_a",
            "player_b",
            "result",
            "duels_a",
            "duels_b",
            "duel_draws",
            "status",
            "basis",
        ]
    )
    for m in Match.objects.filter(round__event=event).select_related("round", "player_a", "player_b"):
        w.writerow(
            [
                m.round.number,
                m.round.stage,
                m.table,
                m.player_a.name,
                m.player_b.name if m.player_b else "",
                "bye" if m.is_bye else m.result,
                m.duel_wins_a,
                m.duel_wins_b,
                m.duel_draws,
                m.status,
                m.basis,
            ]
        )
    return response


@staff_view
def event_export(request: HttpRequest, event: Event) -> HttpResponse:
    # Personal-link and PIN hashes stay out unless the organizer asks to move the event with its links.
    try:
        data = transfer.export_event(event, by=Staff(request.user), secrets=request.GET.get("secrets") == "1")
    except PermissionDenied:
        return render(request, "events/forbidden.html", {"event": event}, status=403)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="taikai-event-{event.pk}.json"'
    return response


@login_required
def event_import(request: HttpRequest) -> HttpResponse:
    if not is_organizer(request.user):
        return render(request, "events/forbidden.html", status=403)
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None or (upload.size or 0) > 50_000_000:
            messages.error(request, _("Choose an exported event file (50 MB at most)."))
        else:
            try:
                data = json.loads(upload.read().decode("utf-8"))
                event = transfer_import.import_event(data, by=Staff(request.user))
            except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
                messages.error(request, _("The file is not an exported taikai event (JSON)."))
            except ServiceError as exc:
                flash_error(request, exc)
            else:
                messages.success(request, _("Event imported."))
                return redirect("event_console", event_id=event.pk)
    return render(request, "events/import.html", {})
