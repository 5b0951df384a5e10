"""The judges' queue, the time procedure at a table, and the table tools (one call: call.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from taikai.core import match_json
from taikai.core import time_procedure as tp
from taikai.events.actors import Staff
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, current_round
from taikai.events.permissions import is_head_judge
from taikai.events.result_words import outcome_text, report_text, result_text
from taikai.events.services import clock as clock_services
from taikai.events.views.common import flash_error, spam_clean_up, staff_view
from taikai.judging.models import Appeal, JudgeCall, TimeProcedureRun
from taikai.judging.services import calls, player_calls, tools
from taikai.judging.services import time_procedure as tps
from taikai.judging.services.penalty_effects import pending_penalties

dismiss_spam_reports = spam_clean_up(
    calls.dismiss_spam_reports, gettext_lazy("%(n)s reports dismissed."), "judge_queue"
)


@staff_view
def judge_queue(request: HttpRequest, event: Event) -> HttpResponse:
    now = timezone.now()
    queue = calls.open_calls(event)
    rnd = current_round(event)
    callers = player_calls.callers_by_call(queue)
    for call in queue:
        call.waiting = int((now - call.created_at).total_seconds())  # type: ignore[attr-defined]
        call.called_by = callers[call.pk]  # type: ignore[attr-defined]  # one card per table: everyone who called
        call.sides = sides(call) if call.topic == "disputed" else []  # type: ignore[attr-defined]
    # The current round's calls (and calls for no table) first; older rounds' calls fold away below.
    current = [c for c in queue if c.match is None or rnd is None or c.match.round_id == rnd.pk]
    older = [c for c in queue if c not in current]
    matches = list(rnd.matches.select_related("player_a", "player_b")) if rnd else []
    tables = _tables(rnd, matches) if rnd else []
    context = {
        "event": event,
        "calls": current,
        "older_calls": older,
        "pending": pending_penalties(event),
        "appeals": Appeal.objects.filter(event=event, status=Appeal.Status.OPEN).select_related(
            "player", "penalty__issued_by"
        ),
        "is_head_judge": is_head_judge(Staff(request.user), event),
        "round": rnd,
        "tables": tables,
        "overtime": [row for row in tables if row["overtime"]],
    }
    return render(request, "judging/queue.html", context)


def _tables(rnd: Any, matches: list[Match]) -> list[dict[str, Any]]:
    """The round's tables, each marked when it is still being played after its time (the round clock plus the
    table's extensions ran out, TIME-1) and whether the time procedure has started there."""
    procedures = tps.table_states(matches)
    rows = []
    for m in matches:
        if m.is_bye:
            continue
        over = m.being_played and clock_services.round_clock(rnd, extension=m.extension_seconds).status == "time"
        rows.append({"match": m, "overtime": over, "procedure": m.pk in procedures})
    return rows


def sides(call: JudgeCall) -> list[dict[str, Any]]:
    """A disputed table's two reports side by side: each player's name and what they reported, in words."""
    if call.match is None:
        return []
    return [
        {"name": side.player.name, "words": report_text(call.match, side.report.record) if side.report else ""}
        for side in calls.latest_reports(call.match)
    ]


@staff_view
def call_new(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method == "POST":
        try:
            call = calls.raise_call(
                event,
                table=request.POST.get("table"),
                by=Staff(request.user),
                description=request.POST.get("description", ""),
            )
        except ServiceError as exc:
            flash_error(request, exc)
        else:
            return redirect("judge_call", event.pk, call.pk)
    return redirect("judge_queue", event.pk)


def _duels_from_post(post: Any) -> list[dict[str, Any]]:
    """The duels already finished when time was called (rows duel1, duel2, ...)."""
    return [match_json.duel_json(d) for d in _read(match_json.duels_from_form, post)]


def _read(reader: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return reader(*args, **kwargs)
    except match_json.RecordFormatError as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc


@staff_view
def time_procedure(request: HttpRequest, event: Event, match_id: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("round__event", "player_a", "player_b"), round__event=event, pk=match_id
    )
    clock = clock_services.round_clock(match.round, extension=match.extension_seconds)
    early = None
    if (
        request.method == "POST"
        and "start" in request.POST
        and clock.status != "time"
        and not request.POST.get("early")
    ):
        # Time has not been called for this table yet: a mis-tap must not start the procedure (issue 14.20).
        early = {"minutes": max(1, round(clock.remaining / 60)), "post": _kept(request.POST)}
    elif request.method == "POST":
        _time_step(request, match, TimeProcedureRun.objects.filter(match=match).first())
        return redirect("time_procedure", event.pk, match.pk)
    run = TimeProcedureRun.objects.filter(match=match).first()
    proc = None
    if run is not None:
        try:
            proc = tps.replay(run, match)
        except ServiceError as exc:
            flash_error(request, exc)
    match.refresh_from_db()
    context = {
        "event": event,
        "match": match,
        "run": run,
        "proc": proc,
        "expects": sorted(i.value for i in proc.expects) if proc else [],
        "names": {"A": match.player_a.name, "B": match.player_b.name if match.player_b else ""},
        # Time is called during a duel at most the ruleset's last one (MATCH-1): the duels before it.
        "finished_rows": range(1, event.ruleset.match.max_duels),
        "draws": event.ruleset.format_rules(match.round.format.value).match_draws,
        "phase_text": _phase_text(proc) if proc else "",
        "early": early,
        "clock_status": clock.status,
        "steps": len(run.inputs) if run else 0,
        "result_words": result_text(match) if match.status == Match.Status.CONFIRMED else "",
        "decided_words": _decided_words(proc, match) if proc and not run.result_entered else "",  # type: ignore[union-attr]
        "turn_name": (match.player_a.name if proc.turn_player.value == "A" else match.player_b.name)
        if proc and proc.turn_player and match.player_b
        else "",
    }
    return render(request, "judging/time_procedure.html", context)


def _time_step(request: HttpRequest, match: Match, run: TimeProcedureRun | None) -> None:
    """One posted step of the procedure: start it, give a step, take the last one back, or enter the result."""
    try:
        # A step that decides the match waits for the judge's confirmation: a mis-tapped winner is undone
        # while the table is still unconfirmed (issue 24).
        if "undo" in request.POST and run is not None:
            tps.undo(run, by=Staff(request.user))
            messages.success(request, _("The last step was taken back."))
        elif "enter" in request.POST and run is not None:
            tps.enter_decided(run, by=Staff(request.user))
            messages.success(request, _("The result is entered: it is now the table's result."))
        elif "start" in request.POST:
            tps.start(
                match,
                by=Staff(request.user),
                between=request.POST.get("when") == "between",
                turn_player=request.POST.get("turn_player", "A"),
                duels=_duels_from_post(request.POST),
                enter=False,
            )
        elif run is not None:
            tps.give(run, by=Staff(request.user), step=_step_from_post(request.POST), enter=False)
    except (ServiceError, ValueError) as exc:
        if isinstance(exc, ServiceError):
            flash_error(request, exc)
        else:
            messages.error(request, _("Enter both players' life points as numbers."))


def _decided_words(proc: tp.TimeProcedure, match: Match) -> str:
    """The result the procedure reached, in words, before the judge confirms it; empty while it goes on."""
    if proc.phase is not tp.Phase.DONE:
        return ""
    s = proc.state.score
    if proc.state.winner is None:
        return outcome_text(None, s.a, s.b, s.draws)
    if proc.state.winner.value == "A":
        return outcome_text(match.player_a, s.a, s.b, s.draws)
    return outcome_text(match.player_b, s.b, s.a, s.draws)


def _kept(post: Any) -> list[tuple[str, str]]:
    """The start form's fields, to post again once the early start is confirmed."""
    return [(k, v) for k, v in post.items() if k not in ("csrfmiddlewaretoken", "early")]


def _step_from_post(post: Any) -> list[Any]:
    step = post.get("step", "")
    if step == "life_points":
        lp = (_read(match_json.life_points_field, post, key) for key in ("lp_a", "lp_b"))
        return ["life_points", *lp]
    if step in ("win", "first_player"):
        return [step, post.get("player", "")]
    return [step]


def _phase_text(proc: tp.TimeProcedure) -> str:
    texts = {
        tp.Phase.FINISH_TURN: _("Finish the turn in progress."),
        tp.Phase.EXTRA_TURN: _("Extra turn %(n)s of %(of)s.") % {"n": proc.turn, "of": proc.turns},
        tp.Phase.LIFE_POINTS: _("The extra turns are over: enter both players' life points."),
        tp.Phase.SUDDEN_DEATH: _("Sudden death: the duel continues until either player's LP changes."),
        tp.Phase.EXTRA_DUEL_RPS: _("Extra duel: rock-paper-scissors decides who goes first."),
        tp.Phase.EXTRA_DUEL_TURN: _("Extra duel, turn %(n)s of %(of)s (LP %(lp)s).")
        % {"n": proc.turn, "of": proc.turns, "lp": proc.starting_lp},
        tp.Phase.DONE: _("The match is decided."),
    }
    return texts[proc.phase]


@staff_view
def table_tools(request: HttpRequest, event: Event, table: int) -> HttpResponse:
    if request.method == "POST":
        action = request.POST.get("tool", "")
        try:
            if action == "coin":
                tools.flip_coin(event, table, by=Staff(request.user))
            elif action == "die":
                tools.roll_die(event, table, by=Staff(request.user))
            elif action == "loop":
                tools.loop_repeat(event, table, by=Staff(request.user))
            elif action == "loop-reset":
                tools.loop_reset(event, table, by=Staff(request.user))
        except ServiceError as exc:
            flash_error(request, exc)
        return redirect("table_tools", event.pk, table)
    context = {
        "event": event,
        "table": table,
        "log": tools.recent(event, table),
        "loop": tools.loop_state(event, table),
        "loop_limit": event.ruleset.match.loop_limit,
    }
    return render(request, "judging/table_tools.html", context)
