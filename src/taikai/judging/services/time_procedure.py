"""The time procedure at one table (TIME-E-*, TIME-S-*), driven step by step by a judge.

The judge's inputs are stored (``TimeProcedureRun``) and replayed through ``taikai.core.time_procedure`` on
every load, so a reload or a second judge's phone shows the same step. When the procedure is done, its
record is entered through ``events.services.results.enter_ruled_result`` and becomes the table's result: at
once through the API, and on the judge's screen only once the judge confirms it (``enter_decided``), so the last
tap can still be undone while the table is unconfirmed (issue 24).
A penalty's duel loss during the procedure is one more step (``penalty_duel_loss``), so it keeps the time
state (INF-20 after time, CS 2.1 B); only the penalties service adds it.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from taikai.audit.services import record
from taikai.core import time_procedure as tp
from taikai.core.match import MatchRecordError
from taikai.core.match_json import parse_record
from taikai.core.match_record import Player
from taikai.core.problems import ProblemError
from taikai.events.actors import Actor, user_of
from taikai.events.errors import ServiceError
from taikai.events.models import Match
from taikai.events.permissions import require_judge
from taikai.events.services.result_input import ResultInput
from taikai.events.services.results import enter_ruled_result
from taikai.judging import actions
from taikai.judging.models import TimeProcedureRun

INPUTS = ("win", "draw", "turn_end", "life_points", "first_player")  # what a judge's screen may send
PENALTY = "penalty"  # ["penalty", loser]: a duel loss by penalty, added by the penalties service only


def _problem(exc: ProblemError) -> ServiceError:
    p = exc.problem
    if p.code == "unexpected-input":
        return ServiceError("procedure-input", input=p.params["input"], expected=", ".join(p.params["expected"]))
    return ServiceError(p.code, **p.params)


def replay(run: TimeProcedureRun, match: Match) -> tp.TimeProcedure:
    ruleset = match.round.event.ruleset
    try:
        start = {"duels": run.start.get("duels", []), "opening": run.start.get("opening")}  # MATCH-3
        base = parse_record(start, match.round.format.value)
        if run.start.get("kind") == "between":
            proc = tp.call_time_between_duels(base, ruleset)
        else:
            proc = tp.call_time(base, ruleset, Player(run.start["turn_player"]))
        for step in run.inputs:
            proc = _step(proc, step)
    except ProblemError as exc:
        raise _problem(exc) from exc
    return proc


def _step(proc: tp.TimeProcedure, step: list[Any]) -> tp.TimeProcedure:
    kind = step[0]
    if kind == "win":
        return tp.duel_won(proc, Player(step[1]))
    if kind == "draw":
        return tp.duel_drawn(proc)
    if kind == "turn_end":
        return tp.turn_ended(proc)
    if kind == "life_points":
        return tp.life_points(proc, int(step[1]), int(step[2]))
    if kind == "first_player":
        return tp.first_player(proc, Player(step[1]))
    if kind == PENALTY:
        return tp.penalty_duel_loss(proc, Player(step[1]))
    raise ServiceError("bad-choice", field="input", value=kind)


def start(
    match: Match,
    *,
    by: Actor,
    between: bool,
    turn_player: str = "A",
    duels: list[dict[str, Any]],
    opening: dict[str, str] | None = None,
    enter: bool = True,
) -> TimeProcedureRun:
    """Time was called at this table: during a turn of ``turn_player``, or between duels. ``opening``:
    duel 1's rock-paper-scissors when the judge records it (MATCH-3)."""
    require_judge(by, match.round.event)
    if match.status == Match.Status.CONFIRMED or match.is_bye:
        raise ServiceError("time-not-callable", duels=len(duels))
    if turn_player not in ("A", "B"):
        raise ServiceError("bad-choice", field="turn_player", value=turn_player)
    with transaction.atomic():
        TimeProcedureRun.objects.filter(match=match).delete()
        run = TimeProcedureRun(
            match=match,
            start={
                "kind": "between" if between else "during",
                "turn_player": turn_player,
                "duels": duels,
                **({"opening": opening} if opening else {}),
            },
            started_by=user_of(by),
        )
        replay(run, match)  # refuse an impossible start before saving it
        run.save()
        record(actions.TIME_PROCEDURE_STEP, actor=by, obj=match, after=run.start)
        if enter:
            _finish_if_done(run, match, by)
    return run


def _judged_table(run: TimeProcedureRun, by: Actor) -> Match:
    """The procedure's table, with its event; only a judge of the event goes on."""
    match = Match.objects.select_related("round__event").get(pk=run.match_id)
    require_judge(by, match.round.event)
    return match


def _locked_open(run: TimeProcedureRun) -> TimeProcedureRun:
    """The run read again under its lock, refused once it entered the table's result (then a change is a
    correction, END-3)."""
    locked = TimeProcedureRun.objects.select_for_update().get(pk=run.pk)
    if locked.result_entered:
        raise ServiceError("procedure-done")
    return locked


def give(run: TimeProcedureRun, *, by: Actor, step: list[Any], enter: bool = True) -> tp.TimeProcedure:
    """One input: ["win", "A"], ["draw"], ["turn_end"], ["life_points", a, b], ["first_player", "B"].
    ``enter=False``: a step that decides the match waits for the judge's confirmation (``enter_decided``)."""
    match = _judged_table(run, by)
    if not step or step[0] not in INPUTS:
        raise ServiceError("bad-choice", field="input", value=step[0] if step else "")
    with transaction.atomic():
        run = _locked_open(run)
        try:
            proc = _step(replay(run, match), step)
        except (tp.TimeProcedureError, MatchRecordError) as exc:
            raise _problem(exc) from exc
        except ValueError as exc:
            raise ServiceError("bad-choice", field="input", value=str(step)) from exc
        run.inputs = [*run.inputs, step]
        run.save()
        record(actions.TIME_PROCEDURE_STEP, actor=by, obj=match, step=step)
        if enter:
            _finish_if_done(run, match, by)
    return proc


def enter_decided(run: TimeProcedureRun, *, by: Actor) -> Match:
    """The judge confirms the result the procedure reached: it becomes the table's result (TIME-E-6, TIME-S-7).
    Refused while the procedure is still going on, or once its result is in."""
    match = _judged_table(run, by)
    with transaction.atomic():
        run = _locked_open(run)
        if replay(run, match).phase is not tp.Phase.DONE:
            raise ServiceError("procedure-not-done")
        _finish_if_done(run, match, by)
    return Match.objects.get(pk=match.pk)


def running(match: Match) -> TimeProcedureRun | None:
    """The time procedure under way at this table (time was called and the result is not in yet)."""
    return TimeProcedureRun.objects.filter(match=match, result_entered=False).first()


def penalty_duel_loss(run: TimeProcedureRun, *, by: Actor, loser: str) -> int:
    """A duel-loss penalty lands on the duel being played under time (PEN-1, INF-20): one more step of the
    procedure, judged with the time state. Returns the step's index (to take it back if the penalty is
    overturned). Called by the penalties service, inside its transaction."""
    match = _judged_table(run, by)
    step = [PENALTY, loser]
    with transaction.atomic():
        run = _locked_open(run)
        try:
            _step(replay(run, match), step)
        except (tp.TimeProcedureError, MatchRecordError) as exc:
            raise _problem(exc) from exc
        index = len(run.inputs)
        run.inputs = [*run.inputs, step]
        run.save()
        record(actions.TIME_PROCEDURE_STEP, actor=by, obj=match, step=step)
        _finish_if_done(run, match, by)
    return index


def take_back(run: TimeProcedureRun, *, by: Actor, step: int) -> None:
    """An overturned penalty's step is taken back, with the steps given after it (the table goes on from
    there); the match's result is restored by the caller."""
    with transaction.atomic():
        run = TimeProcedureRun.objects.select_for_update(of=("self",)).select_related("match__round").get(pk=run.pk)
        before = {"inputs": run.inputs, "result_entered": run.result_entered}
        run.inputs, run.result_entered = run.inputs[:step], False
        run.save()
        after = {"inputs": run.inputs, "result_entered": False}
        event_id = run.match.round.event_id
        record(actions.TIME_PROCEDURE_STEP, actor=by, event_id=event_id, obj=run.match, before=before, after=after)


def close(match: Match, *, by: Actor) -> None:
    """A match decided by a ruling while time was running at it (a match loss, a DQ): the procedure ends."""
    with transaction.atomic():
        run = running(match)
        if run is not None:
            run.result_entered = True
            run.save()
            event_id = match.round.event_id
            record(actions.TIME_PROCEDURE_STEP, actor=by, event_id=event_id, obj=match, after={"closed": True})


def undo(run: TimeProcedureRun, *, by: Actor) -> TimeProcedureRun | None:
    """Take back the judge's last input (a mis-tap); with none left, take back the start itself. Audited with
    the step taken back. Once the procedure has entered the table's result, a change is a correction (END-3)."""
    match = _judged_table(run, by)
    with transaction.atomic():
        run = _locked_open(run)
        if run.inputs:
            step = run.inputs[-1]
            run.inputs = run.inputs[:-1]
            run.save()
            record(actions.TIME_PROCEDURE_UNDONE, actor=by, obj=match, step=step)
            return run
        record(actions.TIME_PROCEDURE_UNDONE, actor=by, obj=match, before=run.start)
        run.delete()
    return None


def _finish_if_done(run: TimeProcedureRun, match: Match, by: Actor) -> None:
    proc = replay(run, match)
    if proc.phase is not tp.Phase.DONE:
        return
    m = enter_ruled_result(match, by=by, result=ResultInput.from_record(proc.record))
    run.result_entered = True
    run.save()
    record(
        actions.TIME_PROCEDURE_RESULT,
        actor=by,
        event_id=match.round.event_id,
        obj=m,
        after={"result": m.result, "rules": list(proc.state.rules)},
    )


def table_states(matches: list[Match]) -> dict[int, dict[str, Any]]:
    """Where each table stands in the time procedure (for the clock feed and the judges' list)."""
    runs = {r.match_id: r for r in TimeProcedureRun.objects.filter(match__in=matches)}
    out: dict[int, dict[str, Any]] = {}
    for m in matches:
        run = runs.get(m.pk)
        if run is None:
            continue
        try:
            proc = replay(run, m)
        except ServiceError:
            continue
        out[m.pk] = {
            "phase": proc.phase.value,
            "turn": proc.turn,
            "turns": proc.turns,
            "turn_player": proc.turn_player.value if proc.turn_player else None,
            "extra_duel": proc.in_extra_duel,
        }
    return out
