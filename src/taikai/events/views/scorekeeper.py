"""The scorekeeper's results page: a round's results from the paper slips, by keyboard.

Type the table number, pick the outcome (only those the round's format allows, from the ruleset:
taikai.core.quick_results), see both names, save, and the table box is ready for the next slip. Without
JavaScript the same form posts twice: the first post shows the names to confirm, the second saves. The
duel-by-duel form (with time results and concessions) and the time procedure are one click away.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from taikai.core import penalty_duels
from taikai.core.ids import parse_id
from taikai.core.quick_results import QuickResult, quick_result, quick_results
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Round
from taikai.events.result_words import result_text
from taikai.events.services import results as result_services
from taikai.events.services.result_input import ResultInput
from taikai.events.views.common import error_text, staff_view
from taikai.events.views.match_result import choice_words


@dataclass(frozen=True)
class Choice:
    key: str
    label: str  # "2–0", "引き分け", "ID"
    hint: str  # whose win, from A's side


def _choices(options: tuple[QuickResult, ...]) -> list[Choice]:
    out = []
    for r in options:
        if r.key == "id":
            out.append(Choice(r.key, _("ID"), _("Intentional draw")))
        elif r.winner is None:
            out.append(Choice(r.key, _("Draw"), f"{r.wins_a}–{r.wins_b}"))
        else:
            hint = _("left player wins") if r.winner.value == "A" else _("right player wins")
            out.append(Choice(r.key, f"{r.wins_a}–{r.wins_b}", hint))
    return out


def _table_rows(matches: list[Match]) -> list[dict[str, Any]]:
    return [
        {
            "match": m,
            "a": m.player_a.name,
            "b": m.player_b.name if m.player_b else "",
            "result": result_text(m) if m.status == Match.Status.CONFIRMED or m.is_bye else "",
        }
        for m in matches
    ]


def _find(matches: list[Match], typed: str) -> tuple[Match | None, str]:
    text = typed.strip().translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    if not text:
        return None, _("Type the table number.")
    if not text.isdecimal():
        return None, _("The table number is a number (for example 12).")
    found = [m for m in matches if m.table == int(text)]
    if not found:
        return None, _("There is no table %(t)s in this round.") % {"t": text}
    if len(found) > 1:  # a team table has a match per seat: each seat's result goes through its own form
        return None, _("Table %(t)s is a team table: enter each seat's result from the table list below.") % {"t": text}
    match = found[0]
    if match.is_bye:
        return None, _("Table %(t)s is a bye: it needs no result.") % {"t": text}
    return match, ""


def _penalty_duel_text(match: Match) -> str:
    first = penalty_duels.read(match.penalty_duels)[0]
    loser = match.player_a if first.loser.value == "A" else match.player_b
    return _(
        "Table %(t)s: duel %(n)s was lost by %(name)s by a penalty. Choose a result that keeps it, or enter the "
        "duels one by one."
    ) % {"t": match.table, "n": first.duel, "name": loser.name if loser else ""}


@staff_view
def round_results(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    rnd = get_object_or_404(Round, event=event, number=number)
    matches = list(rnd.matches.select_related("player_a", "player_b").order_by("table", "seat"))
    options = quick_results(event.ruleset, rnd.format)
    typed = {"table": "", "outcome": ""}
    error, pending = "", None
    if request.method == "POST":
        typed = {"table": request.POST.get("table", ""), "outcome": request.POST.get("outcome", "")}
        match, error = _find(matches, typed["table"])
        fixed = penalty_duels.read(match.penalty_duels) if match is not None else ()
        chosen = quick_result(event.ruleset, rnd.format, typed["outcome"], fixed)
        if match is not None and chosen is None and quick_result(event.ruleset, rnd.format, typed["outcome"]):
            error = _penalty_duel_text(match)  # PEN-1: the slip's result would undo a penalty duel
        elif match is not None and chosen is None:
            error = _("Choose the result for table %(t)s.") % {"t": match.table}
        elif match is not None and match.status == Match.Status.CONFIRMED:
            error = _("Table %(t)s already has its result (%(result)s). To change it, use Correct.") % {
                "t": match.table,
                "result": result_text(match),
            }
        if not error and match is not None and chosen is not None:
            if request.POST.get("confirm") != str(match.table):
                pending = {"match": match, "outcome": chosen, "words": choice_words(match, chosen)}
            else:
                try:
                    version = parse_id(request.POST.get("version"))
                    result = ResultInput.from_report(chosen.report)
                    saved = result_services.enter_result(match, by=Staff(request.user), result=result, version=version)
                except ServiceError as exc:
                    error = error_text(exc)
                else:
                    messages.success(
                        request, _("Table %(t)s: %(result)s. Saved.") % {"t": saved.table, "result": result_text(saved)}
                    )
                    return redirect(reverse("round_results", args=[event.pk, rnd.number]) + "#table")
    open_rows = [m for m in matches if m.status != Match.Status.CONFIRMED and not m.is_bye]
    context = {
        "event": event,
        "round": rnd,
        "rounds": event.rounds.all(),
        "choices": _choices(options),
        "typed": typed,
        "error": error,
        "pending": pending,
        "rows": _table_rows(matches),
        "open_count": len(open_rows),
        "names": {
            str(m.table): {
                "a": m.player_a.name,
                "b": m.player_b.name if m.player_b else "",
                "done": result_text(m) if m.status == Match.Status.CONFIRMED else "",
            }
            for m in matches
            if not m.is_bye and not m.seat
        },
    }
    return render(request, "events/scorekeeper.html", context, status=400 if error else 200)
