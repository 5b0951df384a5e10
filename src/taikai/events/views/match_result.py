"""One table's result, entered or corrected by staff: the one-thumb choices first (「山田 の勝ち 2–1」, one tap
and a second to confirm), the duel-by-duel form one tap away (time results, concessions, life points).

Who may do it is said before anything is filled in: the organizer enters and corrects any table; a judge enters
a disputed table's settled result and corrects a result they entered themself (``may_correct_result``); a floor
judge at any other table is told what they may do there instead (issue 24, items 10 and 11).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from taikai.core import penalty_duels
from taikai.core.ids import parse_id
from taikai.core.quick_results import QuickResult, quick_result, quick_results
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match
from taikai.events.permissions import is_organizer, may_correct_result
from taikai.events.result_words import outcome_text
from taikai.events.services import results as result_services
from taikai.events.services.correction_preview import correction_impact
from taikai.events.services.result_form import form_values, result_form
from taikai.events.services.result_input import ResultInput
from taikai.events.views.common import error_text, staff_view


@dataclass(frozen=True)
class Choice:
    key: str
    words: str  # 「山田 の勝ち 2–1」, 「引き分け 1–1」, 「合意の引き分け」
    side: str  # "a", "b" or "draw": where the button sits


def choice_words(match: Match, r: QuickResult) -> str:
    if r.winner is None:
        return outcome_text(None, r.wins_a, r.wins_b, 0, r.report.basis)
    if r.winner.value == "A":
        return outcome_text(match.player_a, r.wins_a, r.wins_b)
    return outcome_text(match.player_b, r.wins_b, r.wins_a)


def _options(match: Match) -> tuple[QuickResult, ...]:
    """The one-tap results the table's format allows, keeping its penalty duels (PEN-1)."""
    fixed = penalty_duels.read(match.penalty_duels)
    return quick_results(match.round.event.ruleset, match.round.format, fixed)


def _choices(match: Match) -> list[Choice]:
    return [
        Choice(r.key, choice_words(match, r), "draw" if r.winner is None else r.winner.value.lower())
        for r in _options(match)
    ]


@dataclass(frozen=True)
class Rights:
    """What this staff member may do at this table, known before the page asks for anything."""

    here: bool  # enter this table's result (correct it, once decided)
    decided: bool
    organizer: bool


def rights(request: HttpRequest, event: Event, match: Match) -> Rights:
    actor = Staff(request.user)
    organizer = is_organizer(actor, event)
    decided = match.status == Match.Status.CONFIRMED
    if decided:
        here = may_correct_result(actor, event, result_services.entered_by(match))
    else:
        here = organizer or match.status == Match.Status.DISPUTED  # a judge settles a disputed table (END-4)
    return Rights(here=here, decided=decided, organizer=organizer)


def _version(request: HttpRequest, shown: int) -> int:
    seen = parse_id(request.POST.get("version", shown))
    return -1 if seen is None else seen


def _posted_result(request: HttpRequest, match: Match) -> tuple[ResultInput, str]:
    """The result posted: a one-tap choice (``outcome``) or the duel-by-duel form; and the choice's words."""
    key = request.POST.get("outcome", "")
    if key:
        fixed = penalty_duels.read(match.penalty_duels)
        chosen = quick_result(match.round.event.ruleset, match.round.format, key, fixed)
        if chosen is None:
            raise ServiceError("bad-choice", field="outcome", value=key)
        return ResultInput.from_report(chosen.report), choice_words(match, chosen)
    return ResultInput.from_post(request.POST), ""


def _save(request: HttpRequest, match: Match, form: ResultInput) -> Match:
    by, version = Staff(request.user), _version(request, match.version)
    if match.status == Match.Status.CONFIRMED:
        reason = request.POST.get("reason", "")
        return result_services.correct_result(match, by=by, result=form, reason=reason, version=version)
    return result_services.enter_result(match, by=by, result=form, version=version)


def _done(request: HttpRequest, event: Event, match: Match, corrected: bool) -> HttpResponse:
    messages.success(request, _("Result corrected.") if corrected else _("Result saved."))
    if is_organizer(Staff(request.user), event):
        return redirect("round_detail", event_id=event.pk, number=match.round.number)
    return redirect("judge_queue", event.pk)  # a judge goes back to the calls


@staff_view
def match_result(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    """Staff enter a result from the paper slip or a ruling, or correct a decided one (with a reason)."""
    match = get_object_or_404(
        Match.objects.select_related("round__event", "player_a", "player_b"), pk=match_id, round__event=event
    )
    may = rights(request, event, match)
    error, pending, preview = "", None, None
    if request.method == "POST" and may.here:
        corrected = match.status == Match.Status.CONFIRMED
        try:
            form, words = _posted_result(request, match)
            if corrected:
                preview = correction_impact(match, form)
            # A tapped choice is asked once more (a neighbouring button is a thumb's width away); the duel-by-duel
            # form, filled in on purpose, saves at once; a correction always shows what it changes first.
            if request.POST.get("confirm") == "yes" or not (corrected or words):
                _save(request, match, form)
                return _done(request, event, match, corrected)
            pending = {"words": words or None, "outcome": request.POST.get("outcome", "")}
        except ServiceError as exc:
            error = error_text(exc)
        except ValueError:
            error = _("The form was not filled in correctly.")
    detailed = request.method == "POST" and not request.POST.get("outcome")
    return render(
        request, "events/match_result.html", _context(request, event, match, may, error, pending, preview, detailed)
    )


def _context(
    request: HttpRequest,
    event: Event,
    match: Match,
    may: Rights,
    error: str,
    pending: dict[str, Any] | None,
    preview: dict[str, Any] | None,
    detailed: bool,
) -> dict[str, Any]:
    posted = request.method == "POST"
    return {
        "event": event,
        "match": match,
        "may": may,
        "error": error,
        "pending": pending,
        "preview": preview,
        "post": request.POST,
        "choices": _choices(match) if may.here else [],
        "detailed": detailed,  # the duel-by-duel form was the one posted: keep it open
        # After a refused post the form shows what was typed, not the stored record (nothing typed is lost).
        "prefill": form_values(match.record, ruleset=event.ruleset)
        if not posted
        else {k: v for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "confirm", "version")},
        "result_form": result_form(match),
        "reports": match.reports.select_related("by_player", "by_user"),
    }
