"""Rounds for staff: pairing, pairings by table, the clock (a table's result: match_result.py)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core.collation import name_order
from taikai.core.ids import parse_id
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, Round
from taikai.events.round_words import round_name
from taikai.events.services import clock as clock_services
from taikai.events.services import pairing_edits
from taikai.events.services import rounds as round_services
from taikai.events.views.common import Ask, confirm_then, error_text, flash_error, staff_view
from taikai.events.views.public import pairing_rows


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
    rnd, matches, shown = _round_tables(event, number)
    for m in matches:
        m.extension_text = duration_words(m.extension_seconds)  # type: ignore[attr-defined]
    clock = clock_services.round_clock(rnd)
    refusal = pairing_edits.repair_refusal(rnd) if rnd.started_at is None and rnd.stage == Round.Stage.SWISS else None
    return render(
        request,
        "events/round.html",
        {
            **shown,
            "clock": clock,
            "remaining_minutes": int(clock.remaining // 60),
            "can_undo": rnd.number == len(event.rounds.all())
            and not any(m.status != Match.Status.PENDING for m in matches if not m.is_bye),
            "open_tables": [m for m in matches if m.status != Match.Status.CONFIRMED],
            "repair_refused": error_text(refusal) if refusal is not None else "",
            "rounds": event.rounds.all(),
            "role": request.event_role,  # type: ignore[attr-defined]
        },
    )


@staff_view
@require_POST
def round_clock_action(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    service = {
        "start": clock_services.start_round,
        "pause": clock_services.pause_round,
        "resume": clock_services.resume_round,
    }.get(action)
    if service is None:
        return HttpResponse(status=404)
    try:
        version = _version(request, rnd.version)
        service(rnd, by=Staff(request.user), version=version)
    except (ServiceError, ValueError) as exc:
        if isinstance(exc, ServiceError):
            flash_error(request, exc)
    return redirect("round_detail", event_id=event.pk, number=number)


@staff_view
@require_POST
def round_repair(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Pair again: asked only when the re-pair can happen (the service refuses for the same reason), on the
    pairing state the confirmation page showed."""
    rnd = get_object_or_404(Round, event=event, number=number)
    state = pairing_edits.pairing_state(rnd)
    refusal = pairing_edits.repair_refusal(rnd, state)
    if refusal is not None:
        flash_error(request, refusal)
        return redirect("round_detail", event_id=event.pk, number=number)
    manual = [m for m in state.tables if m.manual]
    ask = Ask(
        title=_("Pair round %(n)d again?") % {"n": rnd.number},
        text=_(
            "The current pairings are replaced by new ones from a new seed. Pairings edited by hand "
            "(and byes given by hand) are lost:"
        )
        if manual
        else _("The current pairings are replaced by new ones from a new seed."),
        button=_("Pair again"),
        cancel=reverse("round_detail", args=[event.pk, number]),
        keep={"version": state.version},
        items=[_table_words(m) for m in manual],
    )
    version = request.POST.get("version", "")
    return confirm_then(
        request,
        event,
        ask,
        lambda: pairing_edits.repair_round(rnd, by=Staff(request.user), version=version),
        _("The round was paired again."),
    )


def duration_words(seconds: int) -> str:
    """A time extension as people say it: 「3分」, "2 min 30 s"."""
    minutes, rest = divmod(int(seconds), 60)
    if minutes and rest:
        return _("%(m)d min %(s)d s") % {"m": minutes, "s": rest}
    if minutes:
        return _("%(m)d min") % {"m": minutes}
    return _("%(s)d s") % {"s": rest}


def _table_words(m: Match) -> str:
    if m.is_bye:
        return _("Bye: %(name)s") % {"name": m.player_a.name}
    names = {"n": m.table, "a": m.player_a.name, "b": m.player_b.name if m.player_b else ""}
    return _("Table %(n)s: %(a)s v %(b)s") % names


@staff_view
@require_POST
def round_undo(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    ask = Ask(
        title=_("Undo round %(n)d?") % {"n": rnd.number},
        text=_(
            "Its pairings and clock are removed, as if it had never been paired. Players who already saw "
            "their table must be told. Possible only while no result is in."
        ),
        button=_("Undo the round"),
        cancel=reverse("round_detail", args=[event.pk, number]),
    )
    done = _("Round %(n)d was undone.") % {"n": number}
    return confirm_then(
        request,
        event,
        ask,
        lambda: round_services.undo_round(rnd, by=Staff(request.user)),
        done,
        after=reverse("event_console", args=[event.pk]),
    )


@staff_view
@require_POST
def round_time(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Whole-round time: add or take away minutes, or set the remaining minutes."""
    rnd = get_object_or_404(Round, event=event, number=number)
    by = Staff(request.user)
    try:
        version = _version(request, rnd.version)
        if "set_minutes" in request.POST:
            seconds = int(float(request.POST["set_minutes"]) * 60)
            clock_services.set_remaining_time(rnd, by=by, seconds=seconds, version=version)
        else:
            seconds = int(float(request.POST.get("add_minutes", "0")) * 60)
            clock_services.adjust_round_time(rnd, by=by, seconds=seconds, version=version)
    except ServiceError as exc:
        flash_error(request, exc)
    except ValueError:
        messages.error(request, _("Type a number of minutes."))
    else:
        messages.success(request, _("The round's time was changed."))
    return redirect("round_detail", event_id=event.pk, number=number)


@staff_view
def round_print(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """The pairings to print and pin up: by table, and by name in あいうえお order, without the site's menus."""
    _, matches, shown = _round_tables(event, number)
    by_name = sorted(pairing_rows(matches), key=lambda r: r["kana"])  # type: ignore[arg-type, return-value]
    return render(request, "events/round_print.html", {**shown, "by_name": by_name})


def _round_tables(event: Event, number: int) -> tuple[Round, list[Match], dict[str, object]]:
    """Round ``number``, its tables, and what each page of the round shows of them: the tables played, the byes."""
    rnd = get_object_or_404(Round, event=event, number=number)
    matches = list(rnd.matches.select_related("player_a", "player_b"))
    played, byes = [m for m in matches if not m.is_bye], [m for m in matches if m.is_bye]
    return rnd, matches, {"event": event, "round": rnd, "matches": played, "byes": byes}


@staff_view
def round_slips(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Result slips, one per table (table, names, a box per duel, signatures), several to an A4 page."""
    rnd = get_object_or_404(Round, event=event, number=number)
    matches = [m for m in rnd.matches.select_related("player_a", "player_b") if not m.is_bye]
    duels = range(1, event.ruleset.match.duels_to_win * 2)  # best of three: three duel boxes (MATCH-1)
    context = {"event": event, "round": rnd, "round_title": round_name(rnd), "matches": matches, "duels": duels}
    return render(request, "events/round_slips.html", context)


@staff_view
@require_POST
def cut_decline(request: HttpRequest, event: Event, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id, event=event)
    ask = Ask(
        title=_("%(name)s declines the top cut?") % {"name": player.name},
        text=_("The next player in the standings takes the place. This is recorded and cannot be taken back."),
        button=_("Record the decline"),
        cancel=reverse("event_console", args=[event.pk]),
    )
    return confirm_then(
        request,
        event,
        ask,
        lambda: round_services.decline_top_cut(player, by=Staff(request.user)),
        _("%(name)s declined; the next player moves up.") % {"name": player.name},
    )


@staff_view
def pairing_edit(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """Edit the pairings by hand, on the state the page showed: the tables with a result are shown as they are
    and kept (their players are not offered elsewhere); a stale post is refused and the current state shown."""
    rnd = get_object_or_404(Round, event=event, number=number)
    state = pairing_edits.pairing_state(rnd)
    error = None
    if request.method == "POST":
        stale = pairing_edits.stale_refusal(state, request.POST.get("version", ""))
        try:
            if stale is not None:
                raise stale
            pairing_edits.edit_pairing(
                rnd,
                by=Staff(request.user),
                pairs=_posted_pairs(request, state),
                allow_rematch=request.POST.get("allow_rematch") == "on",
                version=state.version,
            )
        except (KeyError, ValueError):
            error = _("Choose a player for every table.")
        except ServiceError as exc:
            error = error_text(exc)
        else:
            messages.success(request, _saved_words(state))
            return redirect("round_detail", event_id=event.pk, number=number)
    kept = {m.pk for m in state.kept}
    seated = {pid for m in state.kept for pid in (m.player_a_id, m.player_b_id) if pid is not None}
    players = event.players.filter(dropped_after_round__isnull=True, checked_in_at__isnull=False).exclude(pk__in=seated)
    context = {
        "event": event,
        "round": rnd,
        "version": state.version,
        "matches": [(m, m.pk in kept) for m in state.tables],
        "kept": state.kept,
        "players": sorted(players, key=lambda p: name_order(p.name, p.name_kana)),
        "error": error,
    }
    return render(request, "events/pairing_edit.html", context)


def _version(request: HttpRequest, shown: int) -> int:
    """The version the page was drawn on (the current one when the form sent none); a garbled one is stale."""
    seen = parse_id(request.POST.get("version", shown))
    return -1 if seen is None else seen


def _posted_pairs(request: HttpRequest, state: pairing_edits.PairingState) -> list[tuple[int, int | None]]:
    """Every table in order: a kept table as it is, the others as chosen on the form."""
    kept = {m.pk for m in state.kept}
    pairs: list[tuple[int, int | None]] = []
    for m in state.tables:
        if m.pk in kept:
            pairs.append((m.player_a_id, m.player_b_id))
            continue
        b_raw = request.POST.get(f"b-{m.pk}", "")
        pairs.append((int(request.POST[f"a-{m.pk}"]), int(b_raw) if b_raw else None))
    return pairs


def _saved_words(state: pairing_edits.PairingState) -> str:
    if not state.kept:
        return _("Pairings saved.")
    tables = ", ".join(str(m.table) for m in state.kept)
    return _("Pairings saved. Table %(tables)s has a result and was kept as it is.") % {"tables": tables}
