"""Match results: players report duel by duel, the opponent confirms, staff enter or correct.

The outcome is always computed by taikai.core.match from the duel record (never typed as a score).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.http import QueryDict

from taikai.audit.services import record
from taikai.core.match import Format, MatchRecordError, evaluate, intentional_draw_allowed
from taikai.core.match_json import RecordFormatError, parse_record
from taikai.events import actions
from taikai.events.actors import Actor, audit_user
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Event, Match, Player, ResultReport, Round
from taikai.events.permissions import require_staff
from taikai.events.services.teams import settle_team_match

BASES = ("played", "concession-consent", "concession-own-turn", "intentional-draw")  # END-1, END-2


@dataclass(frozen=True)
class ResultInput:
    """A reported result: the duels in the `taikai match result` shape, and its basis (END-1/END-2)."""

    duels: tuple[dict[str, Any], ...] = ()
    time_called_between_duels: bool = False
    basis: str = "played"
    extra: dict[str, Any] = field(default_factory=dict)

    def as_record(self, fmt: str) -> dict[str, Any]:
        return {"format": fmt, "duels": list(self.duels), "time_called_between_duels": self.time_called_between_duels}

    @classmethod
    def from_post(cls, post: QueryDict | dict[str, Any]) -> ResultInput:
        """Read the duel-by-duel form: duel1..duel4 = A|B|draw|time, with LP and sudden-death fields."""
        duels: list[dict[str, Any]] = []
        for i in range(1, 6):
            kind = (post.get(f"duel{i}") or "").strip()
            if not kind:
                continue
            duel: dict[str, Any]
            if kind in ("A", "B"):
                duel = {"winner": kind}
                if post.get(f"duel{i}_tc"):
                    duel["time_called"] = True
            elif kind == "draw":
                duel = {"draw": True}
            elif kind == "time":
                try:
                    lp = {"A": int(post.get(f"duel{i}_lp_a") or ""), "B": int(post.get(f"duel{i}_lp_b") or "")}
                except ValueError as exc:
                    raise ServiceError("bad-record", detail=f"duel {i}: LP") from exc
                duel = {"time": lp}
                sd = post.get(f"duel{i}_sd")
                if sd in ("A", "B"):
                    duel["sudden_death"] = sd
            else:
                raise ServiceError("bad-record", detail=f"duel {i}: {kind!r}")
            if post.get(f"duel{i}_extra"):
                duel["extra_duel"] = True
            duels.append(duel)
        basis = post.get("basis") or "played"
        if basis not in BASES:
            raise ServiceError("bad-choice", field="basis", value=basis)
        return cls(tuple(duels), bool(post.get("between")), basis)

    @classmethod
    def from_json(cls, data: Any) -> ResultInput:
        if not isinstance(data, dict) or not isinstance(data.get("duels", []), list):
            raise ServiceError("bad-record", detail='expected {"duels": [...]}')
        basis = data.get("basis", "played")
        if basis not in BASES:
            raise ServiceError("bad-choice", field="basis", value=basis)
        return cls(tuple(data.get("duels", [])), bool(data.get("time_called_between_duels", False)), basis)


@dataclass(frozen=True)
class Outcome:
    result: str  # "a", "b", "draw"
    duel_wins_a: int
    duel_wins_b: int
    duel_draws: int
    rules: tuple[str, ...]


def outcome_of(match: Match, data: ResultInput) -> Outcome:
    """Apply the match rules to a reported record; refuse one that is unfinished or impossible."""
    event = match.round.event
    fmt = "elimination" if match.round.stage == Round.Stage.ELIMINATION else "swiss"
    if data.basis == "intentional-draw":
        if not intentional_draw_allowed(Format(fmt), event.ruleset):
            raise ServiceError("id-not-in-elimination")  # END-2
        return Outcome("draw", 0, 0, 0, ("END-2",))
    try:
        state = evaluate(parse_record(data.as_record(fmt)), event.ruleset)
    except (MatchRecordError, RecordFormatError) as exc:
        raise ServiceError(exc.problem.code, **exc.problem.params) from exc
    if not state.finished:
        raise ServiceError("match-not-finished", next=str(state.next) if state.next else "duel")
    result = "draw" if state.draw else ("a" if str(state.winner) == "A" else "b")
    return Outcome(result, state.score.a, state.score.b, state.score.draws, tuple(state.rules))


def _snapshot(m: Match) -> dict[str, Any]:
    return {
        "status": m.status,
        "result": m.result,
        "record": m.record,
        "basis": m.basis,
        "duels": [m.duel_wins_a, m.duel_wins_b, m.duel_draws],
    }


def _apply(m: Match, data: ResultInput, outcome: Outcome, status: str) -> None:
    m.record = {**data.as_record(""), "basis": data.basis, "rules": list(outcome.rules)}
    m.record.pop("format", None)
    m.result = outcome.result
    m.duel_wins_a, m.duel_wins_b, m.duel_draws = outcome.duel_wins_a, outcome.duel_wins_b, outcome.duel_draws
    m.basis = data.basis
    m.status = status
    m.version += 1


def _finish_round_if_complete(m: Match) -> None:
    """The last confirmed table finishes the round (its clock stops showing time; the console moves on);
    when the event has no round left to pair, the event is finished too."""
    rnd = m.round
    if rnd.status == Round.Status.FINISHED or rnd.matches.exclude(status=Match.Status.CONFIRMED).exists():
        return
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINISHED)
    rnd.status = Round.Status.FINISHED
    record(actions.ROUND_FINISHED, actor_label="taikai", event_id=rnd.event_id, obj=rnd, number=rnd.number)
    from taikai.events.services.rounds import plan

    event = rnd.event
    if plan(event).next_action == "finished" and event.status != Event.Status.FINISHED:
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
        record(actions.EVENT_FINISHED, actor_label="taikai", event_id=event.pk, obj=event)


def _lock(match: Match, version: int | None) -> Match:
    # of=("self",): PostgreSQL cannot lock the nullable side (player_b) of an outer join.
    locked = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event", "player_a", "player_b")
        .get(pk=match.pk)
    )
    if version is not None and locked.version != version:
        raise Conflict("conflict")
    if locked.is_bye:
        raise ServiceError("bye-has-no-result")
    return locked


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    keys = ("duels", "time_called_between_duels", "basis")
    return all(a.get(k) == b.get(k) for k in keys)


def report_result(match: Match, *, player: Player, result: ResultInput, idempotency_key: str = "") -> Match:
    """A player reports on their phone; the opponent's matching report confirms (END-4).

    Retrying with the same idempotency key returns the stored state without counting twice.
    """
    with transaction.atomic():
        m = _lock(match, None)
        side = m.side_of(player)
        if side is None:
            raise ServiceError("not-your-match")
        if idempotency_key and m.reports.filter(idempotency_key=idempotency_key).exists():
            return m
        if m.status == Match.Status.CONFIRMED:
            raise ServiceError("result-final")
        outcome = outcome_of(m, result)
        before = _snapshot(m)
        record_dict = {**result.as_record(""), "basis": result.basis}
        try:
            with transaction.atomic():
                ResultReport.objects.create(
                    match=m,
                    by_player=player,
                    record=record_dict,
                    basis=result.basis,
                    idempotency_key=idempotency_key[:64],
                )
        except IntegrityError:
            return m
        opponent_reports = [r for r in m.reports.filter(by_player__isnull=False).exclude(by_player=player)]
        latest = opponent_reports[-1] if opponent_reports else None
        if latest is None:
            _apply(m, result, outcome, Match.Status.REPORTED)
            action = actions.RESULT_REPORTED
        elif _same(latest.record, record_dict):
            _apply(m, result, outcome, Match.Status.CONFIRMED)
            action = actions.RESULT_CONFIRMED
        else:
            m.status = Match.Status.DISPUTED  # a mismatch goes to the judges' queue
            m.version += 1
            action = actions.RESULT_DISPUTED
        m.save()
        if m.status == Match.Status.CONFIRMED:
            settle_team_match(m)
            _finish_round_if_complete(m)
        record(
            action,
            actor_label=f"player:{player.pk}",
            event_id=m.round.event_id,
            obj=m,
            before=before,
            after=_snapshot(m),
            side=side,
        )
    return m


def confirm_result(match: Match, *, player: Player, version: int | None = None) -> Match:
    """The opponent confirms the reported record as it stands."""
    with transaction.atomic():
        m = _lock(match, version)
        side = m.side_of(player)
        if side is None:
            raise ServiceError("not-your-match")
        if m.status == Match.Status.CONFIRMED:
            return m
        reports = list(m.reports.filter(by_player__isnull=False))
        if not reports or m.status != Match.Status.REPORTED:
            raise ServiceError("nothing-to-confirm")
        if reports[-1].by_player_id == player.pk:
            raise ServiceError("confirm-own-report")
        data = ResultInput.from_json(reports[-1].record)
        return report_result(m, player=player, result=data)


def enter_result(match: Match, *, by: Actor, result: ResultInput, version: int | None = None) -> Match:
    """Staff enter a result from the paper slip: confirmed at once."""
    require_staff(by, match.round.event)
    with transaction.atomic():
        m = _lock(match, version)
        if m.status == Match.Status.CONFIRMED:
            raise ServiceError("result-final")
        outcome = outcome_of(m, result)
        before = _snapshot(m)
        ResultReport.objects.create(
            match=m, by_user=audit_user(by), record={**result.as_record(""), "basis": result.basis}, basis=result.basis
        )
        _apply(m, result, outcome, Match.Status.CONFIRMED)
        m.save()
        settle_team_match(m)
        _finish_round_if_complete(m)
        record(actions.RESULT_ENTERED, actor=by, event_id=m.round.event_id, obj=m, before=before, after=_snapshot(m))
    return m


def correct_result(match: Match, *, by: Actor, result: ResultInput, reason: str, version: int | None = None) -> Match:
    """END-3: a confirmed result changes only by staff, with a reason; the old one stays in the log."""
    require_staff(by, match.round.event)
    if not reason.strip():
        raise ServiceError("reason-required")
    with transaction.atomic():
        m = _lock(match, version)
        outcome = outcome_of(m, result)
        before = _snapshot(m)
        ResultReport.objects.create(
            match=m, by_user=audit_user(by), record={**result.as_record(""), "basis": result.basis}, basis=result.basis
        )
        _apply(m, result, outcome, Match.Status.CONFIRMED)
        m.save()
        settle_team_match(m)
        record(
            actions.RESULT_CORRECTED,
            actor=by,
            event_id=m.round.event_id,
            obj=m,
            before=before,
            after=_snapshot(m),
            reason=reason.strip(),
        )
    return m


def correction_impact(match: Match, result: ResultInput) -> dict[str, Any]:
    """What a correction would change, before it is saved: standings now, and later rounds' pairings."""
    from taikai.events.services.standings import standings_for, what_if

    outcome = outcome_of(match, result)
    event: Event = match.round.event
    before = standings_for(event)
    after = what_if(event, {match.pk: outcome.result})
    moved = []
    old_rank = {r.player_id: r for r in before}
    for row in after:
        old = old_rank.get(row.player_id)
        if old is not None and (old.rank != row.rank or old.points != row.points):
            moved.append(
                {
                    "name": row.name,
                    "rank_before": old.rank,
                    "rank_after": row.rank,
                    "points_before": old.points,
                    "points_after": row.points,
                }
            )
    later = list(
        event.rounds.filter(number__gt=match.round.number, stage=match.round.stage).values_list("number", flat=True)
    )
    differing = _later_pairings_that_differ(event, match, outcome.result, later)
    return {"result": outcome.result, "moved": moved, "later_rounds": later, "differing_rounds": differing}


def _later_pairings_that_differ(event: Event, match: Match, new_result: str, later: list[int]) -> list[int]:
    """Re-run the stored pairing input of each later round with the corrected points."""
    from taikai.events.services import engine

    if match.round.stage != Round.Stage.SWISS or new_result == match.result:
        return []
    scoring = event.ruleset.scoring
    pts = {"a": scoring.win, "b": scoring.loss, "draw": scoring.draw}
    old_a, new_a = pts.get(match.result, 0), pts[new_result]
    inv = {"a": "b", "b": "a", "draw": "draw"}
    old_b, new_b = pts.get(inv.get(match.result, ""), 0), pts[inv[new_result]]
    delta = {match.player_a_id: new_a - old_a, match.player_b_id: new_b - old_b}
    differing = []
    for number in later:
        rnd = event.rounds.get(number=number)
        request = dict(rnd.pairing_input)
        if not request.get("players"):
            continue
        request["players"] = [{**p, "points": p["points"] + delta.get(p["id"], 0)} for p in request["players"]]
        answer = engine.pair_swiss(request)
        old = {frozenset(x) for x in rnd.pairing_input.get("_pairings", [])} or {
            frozenset((m.player_a_id, m.player_b_id)) for m in rnd.matches.filter(is_bye=False)
        }
        new = {frozenset(p) for p in answer["pairings"]}
        if old != new:
            differing.append(number)
    return differing


def form_values(record: dict[str, Any] | None, *, flip: bool = False) -> dict[str, str]:
    """The duel-by-duel form's field values for a stored record (to pre-fill a correction, or the duels a
    penalty already decided). ``flip`` shows it from player B's side ("me" = B)."""
    if not record:
        return {}
    swap = {"A": "B", "B": "A"} if flip else {"A": "A", "B": "B"}
    values: dict[str, str] = {}
    for i, duel in enumerate(record.get("duels", []), start=1):
        key = f"duel{i}"
        if "winner" in duel:
            values[key] = swap[duel["winner"]]
            if duel.get("time_called"):
                values[f"{key}_tc"] = "1"
        elif "draw" in duel:
            values[key] = "draw"
        elif "time" in duel:
            values[key] = "time"
            lp = duel["time"]
            a, b = (lp["B"], lp["A"]) if flip else (lp["A"], lp["B"])
            values[f"{key}_lp_a"], values[f"{key}_lp_b"] = str(a), str(b)
            if duel.get("sudden_death"):
                values[f"{key}_sd"] = swap[duel["sudden_death"]]
    if record.get("time_called_between_duels"):
        values["between"] = "1"
    if record.get("basis"):
        values["basis"] = record["basis"]
    return values
