"""Public pages: the rules reference, the spectator/teammate report form; and the player's phone pages
(call a judge, appeal, my penalty record)."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from taikai.core.ids import parse_id
from taikai.core.ruleset import DEFAULT, Infraction, Ruleset, builtin
from taikai.events.actors import PlayerSelf
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, current_match
from taikai.events.services.links import player_for_token
from taikai.events.views.common import attempt, flash_error
from taikai.judging.models import Appeal, JudgeCall, Penalty
from taikai.judging.services import appeals, calls, player_calls
from taikai.judging.services.penalty_history import history
from taikai.judging.words import infraction_label, kind_label, rung_label
from taikai.security import rates
from taikai.security import services as limits


@functools.cache
def _default_ruleset() -> Ruleset:
    return builtin(DEFAULT)


def rules_reference(request: HttpRequest) -> HttpResponse:
    """The rules a judge quotes at a table, with the numbers of the event's ruleset (``?event=<id>``), or of
    the default ruleset when no event is named."""
    event_id = parse_id(request.GET.get("event"))
    event = Event.objects.filter(pk=event_id).first() if event_id is not None else None
    ruleset = event.ruleset if event is not None else _default_ruleset()
    rules = ruleset.penalties
    context = {
        "event": event,
        "ruleset": ruleset,
        "loop_limit": ruleset.match.loop_limit,
        # PEN-5, PEN-6, PEN-7, TIME-4: what this ruleset carries (OFF alone carries none of the CS-only rules)
        "head_judge_from": rung_label(rules.head_judge_only_from) if rules.head_judge_only_from else "",
        "database_from": rung_label(rules.database_from) if rules.database_from else "",
        "ladder": [rung_label(r) for r in rules.ladder],
        "catalog": [_catalog_row(inf) for inf in rules.infractions],
    }
    return render(request, "judging/rules.html", context)


def _catalog_row(inf: Infraction) -> dict[str, object]:
    """One infraction of the ruleset's catalog as the rules page lists it (INF-*, PEN-5 kinds)."""
    return {
        "label": infraction_label(inf.id),
        "default": rung_label(inf.default) if inf.default else "",
        "kind": "" if inf.judged_alone or inf.kind == inf.id else kind_label(inf.kind),
        "escalates": inf.escalates,
        "if_intentional": inf.default_if_intentional,
        "after_time": inf.after_time,
    }


def report_form(request: HttpRequest, event_id: int) -> HttpResponse:
    """JUDGE-2: anyone at the venue may report a rules error or cheating at a table."""
    return _report_form(request, get_object_or_404(Event, pk=event_id), None)


def player_table_report(request: HttpRequest, token: str) -> HttpResponse:
    """The same report from a player's own link (a teammate about another table): not anonymous, so counted
    against that player rather than the event's caps on anonymous reports (issue 25)."""
    player = _player(token)
    return _report_form(request, player.event, player)


def _report_form(request: HttpRequest, event: Event, by_player: Player | None) -> HttpResponse:
    if request.method == "POST":
        wait = limits.admit(event, "report", rates.client_address(request), by_player)
        if wait:
            return rates.too_many(request, wait, remember=limits.REMEMBER)
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
            return redirect(request.path)
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
            return redirect("player_home", token=token)  # the page says 「ジャッジを呼びました」 while the call is open
    state = player_calls.table_call(player, current_match(player))
    context = {"event": player.event, "player": player, "token": token, "state": state}
    return render(request, "judging/player_call.html", context)


@require_POST
def player_call_withdraw(request: HttpRequest, token: str, call_id: int) -> HttpResponse:
    """The player takes back their call (JUDGE-1) while no judge has taken it."""
    player = _player(token)
    call = get_object_or_404(JudgeCall, pk=call_id, event=player.event)
    attempt(
        request,
        lambda: player_calls.withdraw_call(call, player, by=PlayerSelf(player)),
        _("Your judge call was cancelled."),
    )
    return redirect("player_home", token=token)


def player_appeal(request: HttpRequest, token: str) -> HttpResponse:
    player = _player(token)
    # CS 3: the head judge's own rulings (a DQ always is one) are final; the others may be appealed.
    penalties = [
        p
        for p in Penalty.objects.filter(event=player.event, player=player, overturned=False)
        if not appeals.by_head_judge(p)
    ]
    if request.method == "POST":
        penalty = next((p for p in penalties if str(p.pk) == request.POST.get("penalty")), None)
        reason = request.POST.get("reason", "")
        if attempt(
            request,
            lambda: appeals.file_appeal(player, reason=reason, penalty=penalty, by=PlayerSelf(player)),
            _("Your appeal was sent to the head judge."),
        ):
            return redirect("player_appeal", token=token)
    for p in penalties:
        p.rung_label = rung_label(p.rung)  # type: ignore[attr-defined]
        p.infraction_label = infraction_label(p.infraction)  # type: ignore[attr-defined]
    context = {
        "event": player.event,
        "player": player,
        "token": token,
        "penalties": penalties,
        "appeals": [
            {
                "appeal": a,
                "outcome": APPEAL_OUTCOMES[Appeal.Status(a.status)],
                "penalty": _penalty_words(a.penalty) if a.penalty else "",
            }
            for a in Appeal.objects.filter(player=player).select_related("penalty")
        ],
    }
    return render(request, "judging/player_appeal.html", context)


# An appeal's outcome in plain words for the player (not 「支持」).
APPEAL_OUTCOMES = {
    Appeal.Status.OPEN: _lazy("The head judge has not decided yet."),
    Appeal.Status.UPHELD: _lazy("The head judge kept the judge's ruling: your appeal was not accepted."),
    Appeal.Status.OVERTURNED: _lazy(
        "The head judge accepted your appeal: the ruling was overturned and its effects were undone."
    ),
}


def _penalty_words(p: Penalty) -> str:
    """「ペナルティによる試合の敗北（INF-16 の名称）」: the penalty in words, its infraction by name."""
    return f"{rung_label(p.rung)}（{infraction_label(p.infraction)}）"


def _reason_words(p: Penalty) -> str:
    """The judge's reason as the player reads it; a team consequence says so instead of a code."""
    if p.team_source_id is not None:
        return str(_lazy("A teammate was disqualified: the whole team receives the same penalty (CS 1.1)."))
    reason = p.rung_reason if p.rung_reason not in ("PEN-4", "PEN-5") else ""
    return p.description or reason


def player_record(request: HttpRequest, token: str) -> HttpResponse:
    """PEN-5: a player sees their own record only (by the Card Game ID of the player behind this link), and
    what each penalty of this event did to them, in words."""
    player = _player(token)
    rows = [
        {**row, "rung_label": rung_label(row["rung"]), "infraction_label": infraction_label(row["infraction"])}
        for row in history(player.card_game_id, event=player.event)
    ]
    this_event = Penalty.objects.filter(event=player.event, player=player, in_database=False, overturned=False)
    light = [{"rung_label": rung_label(p.rung), "infraction_label": infraction_label(p.infraction)} for p in this_event]
    here = Penalty.objects.filter(event=player.event, player=player).order_by("issued_at", "id")
    penalties = [
        {"what": _penalty_words(p), "reason": _reason_words(p), "overturned": p.overturned, "at": p.issued_at}
        for p in here
    ]
    context = {
        "event": player.event,
        "player": player,
        "token": token,
        "rows": rows,
        "light": light,
        "at_event": _penalties_at_event(player),
        "penalties": penalties,
    }
    return render(request, "judging/player_record.html", context)


def _penalties_at_event(player: Player) -> list[Penalty]:
    """PEN-1: this event's penalties, each with the match it changed or waits for (judging/_player_penalties)."""
    rows = list(
        Penalty.objects.filter(event=player.event, player=player, overturned=False).select_related("match__round")
    )
    for p in rows:
        p.rung_label = rung_label(p.rung)  # type: ignore[attr-defined]
        p.infraction_label = infraction_label(p.infraction)  # type: ignore[attr-defined]
    return rows
