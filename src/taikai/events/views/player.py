"""The player's own page, opened from the personal link or QR code (no password account)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.events.actors import PlayerSelf, Visitor
from taikai.events.errors import ServiceError
from taikai.events.forms import PinForm, PlayerForm, RecoverForm
from taikai.events.models import Event, Match, Player
from taikai.events.services import players as player_services
from taikai.events.services import results as result_services
from taikai.events.views.common import error_text, flash_error
from taikai.security import rates


def _player(token: str) -> Player:
    player = player_services.player_for_token(token)
    if player is None:
        raise Http404
    return player


def current_match(player: Player) -> Match | None:
    rnd = player.event.rounds.order_by("-number").first()
    if rnd is None:
        return None
    return (
        Match.objects.filter(round=rnd).filter(player_a=player).select_related("round", "player_a", "player_b").first()
        or Match.objects.filter(round=rnd, player_b=player).select_related("round", "player_a", "player_b").first()
    )


def player_home(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    match = current_match(player)
    side = match.side_of(player) if match else None
    last_report = match.reports.filter(by_player__isnull=False).last() if match else None
    context = {
        "event": player.event,
        "player": player,
        "token": token,
        "match": match,
        "side": side,
        "opponent": (match.player_b if side == "a" else match.player_a) if match else None,
        "last_report": last_report,
        "can_confirm": bool(
            match and match.status == Match.Status.REPORTED and last_report and last_report.by_player_id != player.pk
        ),
        # A duel a penalty already decided (PEN-1) shows in the form, from this player's side.
        "prefill": result_services.form_values(match.record, flip=side == "b", ruleset=player.event.ruleset)
        if match and match.record
        else {},
        "result_form": result_services.result_form(match) if match else None,
        "pin_form": PinForm(),
    }
    return render(request, "events/player_home.html", context)


@require_POST
def player_report(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    match = current_match(player)
    if match is None:
        return redirect("player_home", token=token)
    try:
        # The form is filled from the player's own view ("me"/"opponent"); it is stored as A/B.
        data = result_services.ResultInput.from_post(request.POST, flip=match.side_of(player) == "b")
        result_services.report_result(
            match, player=player, result=data, idempotency_key=request.POST.get("idempotency_key", "")
        )
    except ServiceError as exc:  # an intentional draw refused in elimination reaches the judges by a signal
        flash_error(request, exc)
    else:
        messages.success(request, _("Result sent. Your opponent confirms it on their phone."))
    return redirect("player_home", token=token)


@require_POST
def player_confirm(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    match = current_match(player)
    if match is not None:
        try:
            result_services.confirm_result(match, player=player)
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            messages.success(request, _("Result confirmed."))
    return redirect("player_home", token=token)


@require_POST
def player_drop_self(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    try:
        player_services.drop_player(player, by=PlayerSelf(player))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("You have dropped from the event. Thank you for playing."))
    return redirect("player_home", token=token)


@require_POST
def player_set_pin(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    wait = rates.take((rates.PIN_PER_PLAYER, player.pk))  # issue 16 M1: a PIN loop cannot starve writers
    if wait:
        return rates.too_many(request, wait)
    try:
        player_services.set_pin(player, pin=request.POST.get("pin", ""))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("PIN saved. With your Card Game ID it recovers this page."))
    return redirect("player_home", token=token)


def recover(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = RecoverForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _, token = player_services.recover_access(event, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            return redirect("player_home", token=token)
    return render(request, "events/recover.html", {"event": event, "form": form})


def self_register(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = PlayerForm(request.POST or None)
    done = None
    if request.method == "POST" and form.is_valid():
        wait = rates.take(
            (rates.REGISTER_PER_ADDRESS, rates.client_address(request)), (rates.REGISTER_PER_EVENT, event.pk)
        )
        if wait:
            return rates.too_many(request, wait)
        try:
            done = player_services.register_player(event, by=Visitor(), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
    return render(request, "events/self_register.html", {"event": event, "form": form, "done": done})
