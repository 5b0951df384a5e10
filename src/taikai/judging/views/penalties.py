"""Penalties, appeals and the violator database (PEN-1..PEN-7)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from taikai.core import match_json
from taikai.core import penalties as core
from taikai.core.collation import name_order
from taikai.core.ids import parse_id
from taikai.core.rungs import RUNGS
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player, current_match
from taikai.events.permissions import is_head_judge
from taikai.events.views.common import attempt, flash_error, staff_view
from taikai.judging.models import Appeal, Penalty
from taikai.judging.services import appeals, penalty_effects, penalty_history, penalty_reversal, time_procedure
from taikai.judging.services import database as violators
from taikai.judging.services import penalties as services
from taikai.judging.words import FIX_LABELS, infraction_words, kind_label, rung_label


def _steps(raw: str | None) -> int:
    """The downgrade steps as typed; anything too long to be a step count is refused by the service."""
    text = (raw or "1").strip()
    if parse_id(text, digits=len(text)) is None:
        raise ValueError(raw)  # the form says to type a number of steps
    return min(int(text), 10**4) if len(text) <= 4 else 10**4


def _prior_duels(post: Any) -> list[dict[str, Any]] | None:
    """The duels already finished at the table (rows prior1, prior2, ...), for a duel loss (PEN-1)."""
    if not post.get("prior_given"):
        return None
    try:
        return [match_json.duel_json(d) for d in match_json.duels_from_form(post, prefix="prior")]
    except match_json.RecordFormatError as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc


@staff_view
def penalty_new(request: HttpRequest, event: Event) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    player = None
    if source.get("player"):
        player_id = parse_id(source.get("player"))
        if player_id is None:
            raise Http404
        player = get_object_or_404(Player, event=event, pk=player_id)
    infraction = source.get("infraction") or ""
    intentional = bool(source.get("intentional"))  # 故意に (INF-5's default needs it)
    if request.method == "POST" and player is not None and "issue" in request.POST:
        answer = _issue(request, event, player, infraction, intentional)
        if answer is not None:
            return answer
    context = _form_context(request, event, player, infraction, intentional, source)
    return render(request, "judging/penalty_new.html", context)


def _issue(
    request: HttpRequest, event: Event, player: Player, infraction: str, intentional: bool
) -> HttpResponse | None:
    """Issue the posted penalty (a DQ asks the head judge first): the page to go to, or None to show the form
    again with what went wrong."""
    rung = request.POST.get("rung") or ""
    # a DQ is asked again of the head judge; others are refused at once
    asks = rung in RUNGS and RUNGS[rung].disqualifies and is_head_judge(Staff(request.user), event)
    if asks and not request.POST.get("confirmed"):
        return _confirm_dq(request, event, player, infraction, rung)
    try:
        services.issue_penalty(
            event,
            by=Staff(request.user),
            player=player,
            infraction=infraction,
            rung=rung or None,
            reason=request.POST.get("reason", ""),
            description=request.POST.get("description", ""),
            downgrade_steps=_steps(request.POST.get("downgrade_steps")),
            prior_duels=_prior_duels(request.POST),
            lands_on=request.POST.get("lands_on") or None,
            time_called=bool(request.POST.get("time_called")),
            intentional=intentional,
        )
    except ServiceError as exc:
        flash_error(request, exc)
    except ValueError:
        messages.error(request, _("Enter the prize downgrade as a number of steps."))
    else:
        messages.success(request, _("Penalty issued."))
        return redirect("penalty_list", event.pk)
    return None


def _form_context(
    request: HttpRequest, event: Event, player: Player | None, infraction: str, intentional: bool, source: Any
) -> dict[str, Any]:
    rules = event.ruleset.penalties
    suggestion = history = None
    if player is not None:
        history = penalty_history.history(player.card_game_id, event=event)
        if infraction:
            try:
                suggestion = penalty_history.suggestion(event, player, infraction, intentional)
            except ServiceError as exc:
                flash_error(request, exc)
    match = current_match(player) if player else None
    if match is not None and match.is_bye:
        match = None
    return {
        "event": event,
        "players": sorted(Player.objects.filter(event=event), key=lambda p: name_order(p.name, p.name_kana)),
        "player": player,
        "match": match,
        "infractions": [(i.id, infraction_words(i.id), i.default) for i in rules.infractions],
        "infraction": infraction,
        "intentional": intentional,
        "asks_intent": bool(infraction) and _asks_intent(rules, infraction),
        "fix": FIX_LABELS.get(rules.infraction(infraction).fix or "", "") if suggestion else "",
        "kind": _kind(rules, infraction) if suggestion else "",
        "rungs": [(r, rung_label(r), core.needs_head_judge(rules, r)) for r in rules.ladder],
        "suggestion": suggestion,
        "suggested_label": rung_label(suggestion.rung) if suggestion and suggestion.rung else "",
        "default_label": rung_label(suggestion.default) if suggestion and suggestion.default else "",
        "history": [{**row, "rung_label": rung_label(row["rung"])} for row in history or []],
        "is_head_judge": is_head_judge(Staff(request.user), event),
        # What the judge typed stays on the form: after a refusal (POST), back from the DQ question or from a
        # judge call (GET with the fields), never a blank form (issue 24).
        "posted": source,
        # A duel loss falls on the duel being played: at most the ruleset's last duel (MATCH-1).
        "prior_rows": [(i, source.get(f"prior{i}", "")) for i in range(1, event.ruleset.match.max_duels)],
        # PEN-1: where a duel or match loss lands; INF-20: time called at the table
        "time_running": bool(match and time_procedure.running(match)),
    }


def _kind(rules: Any, infraction: str) -> str:
    """PEN-5: the kind whose earlier penalties count; none for an entry judged alone ("other")."""
    entry = rules.infraction(infraction)
    if entry.judged_alone:
        return ""
    return infraction_words(entry.id) if entry.kind == entry.id else kind_label(entry.kind)


def _asks_intent(rules: Any, infraction: str) -> bool:
    try:
        return bool(rules.infraction(infraction).default_if_intentional)
    except KeyError:
        return False


def _confirm_dq(request: HttpRequest, event: Event, player: Player, infraction: str, rung: str) -> HttpResponse:
    """A disqualification is asked twice (a confirm step that works without JavaScript)."""
    fields = [(k, v) for k, v in request.POST.items() if k not in ("csrfmiddlewaretoken", "confirmed", "issue")]
    context = {
        "event": event,
        "question": _("Disqualify %(name)s?") % {"name": player.name},
        "details": [
            f"{rung_label(rung)} · {infraction_words(infraction)}",
            _("The player is removed from the event; in a team event, the whole team."),
        ],
        "action": request.path,
        "fields": fields,
        "button_name": "issue",
        "button_value": "1",
        "button": _("Yes, disqualify"),
        "back": f"{request.path}?{urlencode([(k, v) for k, v in fields if k != 'rung'])}",
    }
    return render(request, "judging/confirm.html", context)


@staff_view
def penalty_list(request: HttpRequest, event: Event) -> HttpResponse:
    rows = list(Penalty.objects.filter(event=event).select_related("player", "issued_by", "team_source", "event"))
    for p in rows:
        p.rung_label = rung_label(p.rung)  # type: ignore[attr-defined]
        p.head_judge_ruling = appeals.by_head_judge(p)  # type: ignore[attr-defined]  # CS 3: not appealable
    context = {"event": event, "penalties": rows, "is_head_judge": is_head_judge(Staff(request.user), event)}
    return render(request, "judging/penalties.html", context)


@staff_view
@require_POST
def penalty_withdraw(request: HttpRequest, event: Event, penalty_id: int) -> HttpResponse:
    """PEN-6: the head judge withdraws their own penalty (asked twice, without JavaScript)."""
    penalty = get_object_or_404(Penalty.objects.select_related("player"), event=event, pk=penalty_id)
    reason = request.POST.get("reason", "")
    if not request.POST.get("confirmed") and reason.strip():
        what = f"{rung_label(penalty.rung)} · {infraction_words(penalty.infraction)}"
        context = {
            "event": event,
            "question": _("Withdraw your penalty for %(name)s?") % {"name": penalty.player.name},
            "details": [_("Penalty: %(penalty)s. Its effects are undone.") % {"penalty": what}, reason],
            "action": request.path,
            "fields": [("reason", reason)],
            "button_name": "withdraw",
            "button_value": "1",
            "button": _("Yes, withdraw it"),
            "back": reverse("penalty_list", args=[event.pk]),
        }
        return render(request, "judging/confirm.html", context)
    attempt(
        request,
        lambda: penalty_reversal.withdraw_penalty(penalty, by=Staff(request.user), reason=reason),
        _("The penalty was withdrawn; the players were told."),
    )
    return redirect("penalty_list", event.pk)


@staff_view
@require_POST
def penalty_apply(request: HttpRequest, event: Event, penalty_id: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, event=event, pk=penalty_id)
    attempt(request, lambda: penalty_effects.apply_pending_penalty(penalty, by=Staff(request.user)))
    return redirect("judge_queue", event.pk)


@staff_view
@require_POST
def appeal_for_player(request: HttpRequest, event: Event, penalty_id: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, event=event, pk=penalty_id)
    reason = request.POST.get("reason", "")
    attempt(
        request,
        lambda: appeals.file_appeal(penalty.player, reason=reason, penalty=penalty, by=Staff(request.user)),
        _("Appeal sent to the head judge."),
    )
    return redirect("penalty_list", event.pk)


@staff_view
@require_POST
def appeal_decide(request: HttpRequest, event: Event, appeal_id: int) -> HttpResponse:
    appeal = get_object_or_404(Appeal, event=event, pk=appeal_id)
    if request.POST.get("decision") == "overturn" and not request.POST.get("confirmed"):
        return _confirm_overturn(request, event, appeal)
    try:
        appeals.decide_appeal(
            appeal, by=Staff(request.user), decision=request.POST.get("decision", ""), note=request.POST.get("note", "")
        )
    except ServiceError as exc:
        flash_error(request, exc)
    return redirect("judge_queue", event.pk)


def _confirm_overturn(request: HttpRequest, event: Event, appeal: Appeal) -> HttpResponse:
    """Overturning an appeal undoes the penalty's effects: asked twice, without JavaScript."""
    details = [appeal.reason]
    question = _("Overturn the ruling appealed by %(name)s?")
    button = _("Yes, overturn")
    if appeal.penalty is not None:
        penalty = f"{rung_label(appeal.penalty.rung)} · {infraction_words(appeal.penalty.infraction)}"
        details.insert(0, _("Penalty: %(penalty)s. Its effects are undone.") % {"penalty": penalty})
        question, button = _("Cancel the penalty appealed by %(name)s?"), _("Yes, cancel the penalty")
    context = {
        "event": event,
        "question": question % {"name": appeal.player.name},
        "details": details,
        "action": request.path,
        "fields": [("note", request.POST.get("note", ""))],
        "button_name": "decision",
        "button_value": "overturn",
        "button": button,
        "back": reverse("judge_queue", args=[event.pk]),
    }
    return render(request, "judging/confirm.html", context)


@staff_view
def database(request: HttpRequest, event: Event) -> HttpResponse:
    q = request.GET.get("q", "")
    try:
        found = violators.search(event, by=Staff(request.user), query=q)
    except ServiceError as exc:
        flash_error(request, exc)
        found = []
    for entry in found:
        for row in entry["rows"]:
            row["rung_label"] = rung_label(row["rung"])
    return render(request, "judging/database.html", {"event": event, "q": q, "found": found})


def _source(request: HttpRequest) -> str:
    # A stable id of this server, not the Host header: a re-import through another host name must still
    # recognise its own records (issue 16).
    return f"taikai@{settings.SERVER_ID}"


@staff_view
def database_export(request: HttpRequest, event: Event) -> HttpResponse:
    try:
        data = violators.export_database(event, by=Staff(request.user), source=_source(request))
    except ServiceError as exc:
        flash_error(request, exc)
        return redirect("violator_database", event.pk)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = 'attachment; filename="violators.json"'
    return response


@staff_view
@require_POST
def database_import(request: HttpRequest, event: Event) -> HttpResponse:
    upload = request.FILES.get("file")
    try:
        data = json.loads(upload.read().decode("utf-8")) if upload else None
        added = violators.import_database(event, by=Staff(request.user), data=data, own_source=_source(request))
    except (ValueError, UnicodeDecodeError, RecursionError):
        flash_error(request, ServiceError("bad-import", detail="JSON"))
    except ServiceError as exc:
        flash_error(request, exc)
    else:
        messages.success(request, _("%(n)s records imported.") % {"n": added})
    return redirect("violator_database", event.pk)
