"""The player's own page, opened from the personal link or QR code (no password account)."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core import penalty_duels
from taikai.core.ids import parse_id
from taikai.core.match_record import Format
from taikai.core.penalty_duels import PenaltyDuel
from taikai.core.quick_results import quick_outcomes
from taikai.core.ruleset import Ruleset
from taikai.events.actors import PlayerSelf, Visitor
from taikai.events.errors import Conflict, ServiceError
from taikai.events.forms import PinForm, PlayerForm, RecoverForm
from taikai.events.models import Event, Match, Notice, Player, current_match
from taikai.events.notice_texts import notice_text
from taikai.events.result_words import result_text, stale_confirm_text
from taikai.events.round_words import round_name
from taikai.events.services import clock as clock_services
from taikai.events.services import links, participation, recovery, registration
from taikai.events.services import results as result_services
from taikai.events.services.notices import close_notice, open_notices
from taikai.events.services.result_form import form_values, result_form
from taikai.events.venue import venue_url
from taikai.events.views.common import attempt, error_text, flash_error
from taikai.events.views.panels import player_panels
from taikai.events.views.penalty_words import decided_lines
from taikai.events.views.player_finish import Finish, finish_of
from taikai.security import rates
from taikai.security import services as limits


def link_not_found(request: HttpRequest) -> HttpResponse:
    """Say what happened and how to get a new link: the desk, or PIN recovery in an event still running."""
    events = Event.objects.exclude(status=Event.Status.FINISHED).order_by("-date", "-pk")[:10]
    response = render(request, "events/player_link_not_found.html", {"events": events}, status=404)
    response["X-Taikai-Page"] = "gone"  # an open page's live refresh or report reloads into this page
    return response


def player_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page opened by the personal link: the view gets the link's player (and the link, for its own
    addresses); a mistyped or replaced link gets the explaining page, not Django's bare one."""

    @wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        player = links.player_for_token(token)
        if player is None:
            return link_not_found(request)
        response = view(request, player, token, *args, **kwargs)
        if player.event.status == Event.Status.FINISHED:
            response["X-Taikai-Offline"] = "forget"  # the event has ended: the service worker keeps no copy
        return response

    return wrapper


def _notice_words(notice: Notice) -> str:
    """A notice in the page's language, its round named as the event says it (準決勝, not 第4ラウンド)."""
    named = round_name(notice.match.round) if notice.match is not None else ""
    return notice_text(notice.kind, notice.params, get_language() or "ja", named)


def _result_now(notice: Notice) -> str:
    """The table's result as it stands, beside a notice of a decided table."""
    decided = notice.match is not None and notice.match.status == Match.Status.CONFIRMED
    return result_text(notice.match) if decided and notice.match is not None else ""


@player_view
def player_home(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    match = current_match(player)
    side = match.side_of(player) if match else None
    last_report = match.reports.filter(by_player__isnull=False).last() if match else None
    ruleset = player.event.ruleset
    end = ending(player)
    context = {
        "event": player.event,
        "player": player,
        "token": token,
        "match": match,
        "side": side,
        "opponent": (match.player_b if side == "a" else match.player_a) if match else None,
        "last_report": last_report,
        "mine_last": bool(last_report and last_report.by_player_id == player.pk),
        "can_confirm": bool(
            match and match.status == Match.Status.REPORTED and last_report and last_report.by_player_id != player.pk
        ),
        # A duel a penalty already decided (PEN-1) shows in the form, from this player's side.
        "prefill": form_values(match.record, flip=side == "b", ruleset=ruleset)
        if match and match.record and match.status == Match.Status.PENDING
        else {},
        "result_form": result_form(match) if match else None,
        "quick": quick_outcomes(ruleset, match.round.format, _fixed(match)) if match and not match.is_bye else (),
        "notices": [(n, _notice_words(n), _result_now(n)) for n in open_notices(player)],
        "time_note": time_note(ruleset, match.round.format) if match else "",
        "extension": extension_text(match.extension_seconds) if match else "",
        "live_key": f"{match.round.number}:{match.pk}" if match else "none",
        "clock_state": table_clock_state(match),
        # A held report form is dropped when a penalty duel changes what it may say (PEN-1).
        "form_key": f"{match.pk}:{len(match.penalty_duels)}" if match else "",
        "live_state": f"{match.status}:{match.version}" if match else "none",
        "decided": decided_lines(match, side),
        "pin_form": PinForm(),
        "panels": player_panels(request, player, match, token),  # another app's part (the judge call)
        "live_tables": live_tables(player, end["finish"]),
        **end,
    }
    return render(request, "events/player_home.html", context)


def ending(player: Player) -> dict[str, Any]:
    """Where the player's event ended, once it has for them: no next table is promised and no drop offered
    (a dropped or disqualified player is not paired again either)."""
    finish = finish_of(player)
    return {"finish": finish, "awaits_pairing": finish is None and not (player.dropped or player.disqualified)}


def live_tables(player: Player, finish: Finish | None) -> str | None:
    """Every table the player has sat at, as the event stream names them (``events.match:12``): live.js then
    leaves the page alone for a result or a time extension at another table. None once the page shows a final
    place, which another table's corrected result can move: such a page follows every result."""
    if finish is not None:
        return None
    tables = Match.objects.filter(Q(player_a=player) | Q(player_b=player)).order_by("pk").values_list("pk", flat=True)
    return " ".join(f"{Match._meta.label_lower}:{pk}" for pk in tables)


def table_clock_state(match: Match | None) -> str:
    """The table's clock as clock.js polls it (events' clock payload), carried in the page: a live refresh then
    needs no second request for the clock (at a 2,000-player round published, 2,000 of them)."""
    if match is None or match.is_bye:
        return ""
    return json.dumps(clock_services.clock_payload(match.round, timezone.now().timestamp(), own=match))


def extension_text(seconds: int) -> str:
    """A judge's time extension for this table (TIME-4), as the player reads it."""
    if not seconds:
        return ""
    return _("Time extension for your table: +%(t)s") % {"t": f"{seconds // 60}:{seconds % 60:02d}"}


def time_note(ruleset: Ruleset, fmt: Format) -> str:
    """What happens at time, in words, from the ruleset (TIME-S-1/2/6, TIME-E-1/2/3/5)."""
    rules, time = ruleset.format_rules(fmt.value), ruleset.time
    parts = [
        _(
            "Finish the current turn. If the duel is still undecided, %(n)d extra turns follow, counted from the "
            "opponent of the player whose turn it was."
        )
        % {"n": time.extra_turns}
    ]
    if rules.sudden_death:
        parts.append(_("Then the player with more LP wins; with equal LP, sudden death: the first LP change decides."))
    else:
        parts.append(_("Then the player with more LP wins the duel; equal LP is a drawn duel."))
    if rules.extra_duel:
        parts.append(
            _("Time between duels at 1–1 (or before duel 1): an extra duel of %(turns)d turns at %(lp)d LP.")
            % {"turns": time.extra_duel_turns, "lp": time.extra_duel_lp}
        )
    else:
        parts.append(_("Time between duels: the duels won so far decide (equal is a match draw)."))
    return ("" if (get_language() or "ja").startswith("ja") else " ").join(parts)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _answer(request: HttpRequest, token: str, ok: bool, text: str, status: int = 200) -> HttpResponse:
    """The answer to a player's action: JSON for the page's script, else a message on the page it returns to."""
    if _wants_json(request):
        return JsonResponse({"ok": ok, "message": text}, status=status)
    (messages.success if ok else messages.error)(request, text)
    return redirect("player_home", token=token)


def _reported_text(match: Match) -> str:
    if match.status == Match.Status.CONFIRMED:
        return _("Result confirmed: both reports agree.")
    if match.status == Match.Status.DISPUTED:
        return _("Your report differs from your opponent's. A judge is coming to your table.")
    return _("Result sent. Waiting for your opponent to confirm it on their phone.")


def _fixed(match: Match) -> tuple[PenaltyDuel, ...]:
    """The duels a penalty decided at this table (PEN-1): every one-tap choice keeps them."""
    return penalty_duels.read(match.penalty_duels)


@player_view
@require_POST
def player_report(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    try:
        match = result_services.report_from_page(player, request.POST)
    except ServiceError as exc:  # an intentional draw refused in elimination reaches the judges by a signal
        stale = exc.problem.code == "report-for-earlier-round"
        return _answer(request, token, False, _refusal_text(exc, player.event.ruleset), 409 if stale else 422)
    return _answer(request, token, True, _reported_text(match))


def _refusal_text(exc: ServiceError, ruleset: Ruleset) -> str:
    if exc.problem.code == "match-not-finished":  # say it from the player's side, with the ruleset's number
        return _(
            "The match is not decided yet: it goes to %(n)d duel wins. "
            "Enter every duel you played, or how time ended it."
        ) % {"n": ruleset.match.duels_to_win}
    return error_text(exc)


@player_view
@require_POST
def player_confirm(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    match = current_match(player)
    if match is None:
        return redirect("player_home", token=token)
    seen = parse_id(request.POST.get("version"))
    if seen is None:  # a page from before versions were sent: show it the current report first
        seen = -1
    try:
        result_services.confirm_result(match, player=player, version=seen)
    except Conflict as exc:  # the report changed after this page was drawn: never confirmed unseen (END-4)
        if exc.problem.code == "table-gone":
            return _answer(request, token, False, error_text(exc), 409)
        match.refresh_from_db()
        return _answer(request, token, False, stale_confirm_text(match, match.side_of(player)), 409)
    except ServiceError as exc:
        return _answer(request, token, False, error_text(exc), 422)
    return _answer(request, token, True, _("Result confirmed."))


@player_view
@require_POST
def player_close_notice(request: HttpRequest, player: Player, token: str, notice_id: int) -> HttpResponse:
    try:
        close_notice(notice_id, player=player, by=PlayerSelf(player))
    except ServiceError as exc:
        flash_error(request, exc)
    return redirect("player_home", token=token)


@player_view
@require_POST
def player_drop_self(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    attempt(
        request,
        lambda: participation.drop_player(player, by=PlayerSelf(player)),
        _("You have dropped from the event. Thank you for playing."),
    )
    return redirect("player_home", token=token)


@player_view
@require_POST
def player_set_pin(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    wait = rates.take((rates.PIN_PER_PLAYER, player.pk))  # issue 16 M1: a PIN loop cannot starve writers
    if wait:
        return rates.too_many(request, wait)
    attempt(
        request,
        lambda: recovery.set_pin(player, pin=request.POST.get("pin", "")),
        _("PIN saved. With your Card Game ID it recovers this page."),
    )
    return redirect("player_home", token=token)


def recover(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = RecoverForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            _, token = recovery.recover_access(event, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:
            return redirect("player_home", token=token)
    return render(request, "events/recover.html", {"event": event, "form": form})


def self_register(request: HttpRequest, event_id: int) -> HttpResponse:
    return _self_register(request, get_object_or_404(Event, pk=event_id), None)


def player_registers_another(request: HttpRequest, token: str) -> HttpResponse:
    """Self-registration from a player's own link (a family member, a friend): not anonymous, so counted
    against that player rather than the event's caps on anonymous registrations (issue 25)."""
    player = links.player_for_token(token)
    if player is None:
        raise Http404
    return _self_register(request, player.event, player)


def _self_register(request: HttpRequest, event: Event, by_player: Player | None) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    context: dict[str, Any] = {"event": event, "form": form, "closed": not event.registration_open}
    if request.method == "POST" and form.is_valid() and not context["closed"]:
        wait = limits.admit(event, "register", rates.client_address(request), by_player)
        if wait:
            return rates.too_many(request, wait, remember=limits.REMEMBER)
        try:
            _, token = registration.register_with_access(event, by=Visitor(), **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, error_text(exc))
        else:  # POST/redirect/GET: a reload of the answer shows the link again and registers nobody twice
            return redirect("player_registered", token=token)
    return render(request, "events/self_register.html", context)


@player_view
def player_registered(request: HttpRequest, player: Player, token: str) -> HttpResponse:
    """The answer to a registration: the personal link and its QR code, under the player's own link (a
    ``/p/<token>/`` address: as unguessable as the link, and masked in the server's log like every player page),
    so reloading it or coming back to it shows the same link."""
    url = venue_url(request, reverse("player_home", kwargs={"token": token}))  # the address phones open
    context = {"event": player.event, "player": player, "url": url, "qr_svg": _qr_svg(url)}
    return render(request, "events/player_registered.html", context)


def _qr_svg(url: str) -> str:
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10)
    return str(image.to_string(encoding="unicode"))
