"""Public pages: the rules reference, the spectator/teammate report form; and the player's phone pages
(call a judge, appeal, my penalty record)."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from taikai.core.ruleset import DEFAULT, Ruleset, builtin
from taikai.events.actors import PlayerSelf
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.services.players import player_for_token
from taikai.events.views.common import flash_error
from taikai.judging.labels import infraction_label, rung_label
from taikai.judging.models import Appeal, Penalty
from taikai.judging.services import appeals, calls
from taikai.judging.services.penalties import history
from taikai.judging.services.tools import LOOP_LIMIT
from taikai.security import rates


@functools.cache
def _default_ruleset() -> Ruleset:
    return builtin(DEFAULT)


def rules_reference(request: HttpRequest) -> HttpResponse:
    """The rules a judge quotes at a table, with the numbers of the event's ruleset (``?event=<id>``), or of
    the default ruleset when no event is named."""
    event_id = request.GET.get("event", "")
    known = event_id.isascii() and event_id.isdigit() and len(event_id) < 10
    event = Event.objects.filter(pk=int(event_id)).first() if known else None
    ruleset = event.ruleset if event is not None else _default_ruleset()
    context = {"event": event, "ruleset": ruleset, "loop_limit": LOOP_LIMIT}
    return render(request, "judging/rules.html", context)


def report_form(request: HttpRequest, event_id: int) -> HttpResponse:
    """JUDGE-2: anyone at the venue may report a rules error or cheating at a table."""
    event = get_object_or_404(Event, pk=event_id)
    if request.method == "POST":
        wait = rates.take((rates.REPORT_PER_ADDRESS, rates.client_address(request)), (rates.REPORT_PER_EVENT, event.pk))
        if wait:
            return rates.too_many(request, wait)
        try:
            calls.report(
                event,
                table=request.POST.get("table"),
                description=request.POST.get("description", ""),
                reporter=request.POST.get("reporter", ""),
                teammate=bool(request.POST.get("teammate")),
            )
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("Thank you. A judge will look into it. Please do not interfere with the game."))
            return redirect("spectator_report", event.pk)
    return render(request, "judging/report.html", {"event": event, "posted": request.POST})


def _player(token: str) -> Player:
    player = player_for_token(token)
    if player is None:
        raise Http404
    return player


def player_call(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    if request.method == "POST":
        try:
            calls.raise_call(
                player.event, player=player, by=PlayerSelf(player), description=request.POST.get("description", "")
            )
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("A judge has been called to your table."))
            return redirect("player_home", token=token)
    return render(request, "judging/player_call.html", {"event": player.event, "player": player, "token": token})


def player_appeal(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    penalties = list(Penalty.objects.filter(event=player.event, player=player, overturned=False))
    if request.method == "POST":
        penalty = next((p for p in penalties if str(p.pk) == request.POST.get("penalty")), None)
        try:
            appeals.file_appeal(player, reason=request.POST.get("reason", ""), penalty=penalty, by=PlayerSelf(player))
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("Your appeal was sent to the head judge."))
            return redirect("player_appeal", token=token)
    for p in penalties:
        p.rung_label = rung_label(p.rung)  # type: ignore[attr-defined]
        p.infraction_label = infraction_label(p.infraction)  # type: ignore[attr-defined]
    context = {
        "event": player.event,
        "player": player,
        "token": token,
        "penalties": penalties,
        "appeals": Appeal.objects.filter(player=player).select_related("penalty"),
    }
    return render(request, "judging/player_appeal.html", context)


def player_record(request: HttpRequest, token: str) -> HttpResponse:
    """PEN-5: a player sees their own record only (by the Card Game ID of the player behind this link)."""
    player = _player(token)
    rows = [
        {**row, "rung_label": rung_label(row["rung"]), "infraction_label": infraction_label(row["infraction"])}
        for row in history(player.card_game_id, event=player.event)
    ]
    this_event = Penalty.objects.filter(event=player.event, player=player, in_database=False, overturned=False)
    light = [{"rung_label": rung_label(p.rung), "infraction_label": infraction_label(p.infraction)} for p in this_event]
    context = {"event": player.event, "player": player, "token": token, "rows": rows, "light": light}
    return render(request, "judging/player_record.html", context)
