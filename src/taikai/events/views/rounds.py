"""Rounds for staff: pairing, pairings by table, the clock, result entry and corrections."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Round
from taikai.events.services import results as result_services
from taikai.events.services import rounds as round_services
from taikai.events.views.common import error_text, flash_error, staff_view


@staff_view
def rounds(request: HttpRequest, event: Event) -> HttpResponse:
    last = event.rounds.last()
    if last is not None:
        return redirect("round_detail", event_id=event.pk, number=last.number)
    return redirect("event_console", event_id=event.pk)


@staff_view
@require_POST
def round_pair(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        rnd = round_services.pair_next_round(event, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("event_console", event_id=event.pk)
    messages.success(request, _("Round %(n)d is paired.") % {"n": rnd.number})
    return redirect("round_detail", event_id=event.pk, number=rnd.number)


@staff_view
def round_detail(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    matches = list(rnd.matches.select_related("player_a", "player_b"))
    clock = round_services.round_clock(rnd)
    return render(
        request,
        "events/round.html",
        {
            "event": event,
            "round": rnd,
            "matches": matches,
            "clock": clock,
            "open_tables": [m for m in matches if m.status != Match.Status.CONFIRMED],
            "rounds": event.rounds.all(),
            "role": request.event_role,  # type: ignore[attr-defined]
        },
    )


@staff_view
@require_POST
def round_clock_action(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    service = {
        "start": round_services.start_round,
        "pause": round_services.pause_round,
        "resume": round_services.resume_round,
    }.get(action)
    if service is None:
        return HttpResponse(status=404)
    try:
        version = int(request.POST.get("version", rnd.version))
        service(rnd, by=Staff(request.user), version=version)
    except (ServiceError, ValueError) as exc:
        if isinstance(exc, ServiceError):
            flash_error(request, exc)
    return redirect("round_detail", event_id=event.pk, number=number)


@staff_view
@require_POST
def round_repair(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    try:
        round_services.repair_round(rnd, by=Staff(request.user))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("The round was paired again."))
    return redirect("round_detail", event_id=event.pk, number=number)


@staff_view
def pairing_edit(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    matches = list(rnd.matches.select_related("player_a", "player_b"))
    players = list(event.players.filter(dropped_after_round__isnull=True).order_by("name_kana", "name"))
    error = None
    if request.method == "POST":
        pairs: list[tuple[int, int | None]] = []
        try:
            for m in matches:
                a = int(request.POST[f"a-{m.pk}"])
                b_raw = request.POST.get(f"b-{m.pk}", "")
                pairs.append((a, int(b_raw) if b_raw else None))
            round_services.edit_pairing(
                rnd, by=Staff(request.user), pairs=pairs, allow_rematch=request.POST.get("allow_rematch") == "on"
            )
        except (KeyError, ValueError):
            error = _("Choose a player for every table.")
        except ServiceError as exc:
            error = error_text(exc)
        else:
            messages.success(request, _("Pairings saved."))
            return redirect("round_detail", event_id=event.pk, number=number)
    return render(
        request,
        "events/pairing_edit.html",
        {"event": event, "round": rnd, "matches": matches, "players": players, "error": error},
    )


@staff_view
def match_result(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Staff enter a result from the paper slip, or correct a confirmed one (with a reason)."""
    match = get_object_or_404(
        Match.objects.select_related("round", "player_a", "player_b"), pk=match_id, round__event=event
    )
    error = None
    preview = None
    if request.method == "POST":
        try:
            form = result_services.ResultInput.from_post(request.POST)
            if match.status == Match.Status.CONFIRMED:
                preview = result_services.correction_impact(match, form)
                if request.POST.get("confirm") == "yes":
                    result_services.correct_result(
                        match,
                        by=Staff(request.user),
                        result=form,
                        reason=request.POST.get("reason", ""),
                        version=int(request.POST.get("version", match.version)),
                    )
                    messages.success(request, _("Result corrected."))
                    return redirect("round_detail", event_id=event.pk, number=match.round.number)
            else:
                result_services.enter_result(
                    match, by=Staff(request.user), result=form, version=int(request.POST.get("version", match.version))
                )
                messages.success(request, _("Result saved."))
                return redirect("round_detail", event_id=event.pk, number=match.round.number)
        except ServiceError as exc:
            error = error_text(exc)
        except ValueError:
            error = _("The form was not filled in correctly.")
    return render(
        request,
        "events/match_result.html",
        {
            "event": event,
            "match": match,
            "error": error,
            "preview": preview,
            "post": request.POST,
            # After a refused post the form shows what was typed, not the stored record (nothing typed is lost).
            "prefill": result_services.form_values(match.record, ruleset=event.ruleset)
            if request.method != "POST"
            else {k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "confirm", "version")},
            "result_form": result_services.result_form(match),
            "reports": match.reports.select_related("by_player", "by_user"),
        },
    )
