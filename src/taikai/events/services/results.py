"""Match results: players report duel by duel, the opponent confirms, staff enter or correct.

The outcome is always computed by taikai.core.match from the duel record (never typed as a score): the record
arrives as a ``result_input.ResultInput``; the form is ``result_form``, a correction's preview
``correction_preview``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.db import transaction

from taikai.audit.services import Signalled, record
from taikai.core import match_json, penalty_duels
from taikai.core.match_json import RecordFormatError
from taikai.db import rows as db_rows
from taikai.events import actions, reads, signals
from taikai.events.actors import Actor, audit_user
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Match, Player, ResultReport, current_match
from taikai.events.permissions import require_judge, require_organizer, require_result_corrector
from taikai.events.services import notices
from taikai.events.services.result_input import Outcome, ResultInput, outcome_of
from taikai.events.services.round_end import table_decided
from taikai.events.signals import announces_refusal


def _flagged(m: Match, outcome: Outcome, by: Actor | None) -> list[Signalled]:
    """A result decided by taikai's reading of a silent text goes to the judges' queue (flagged), announced
    with the entry that decided it; the head judge confirms or corrects it. A table not decided has none."""
    if m.status != Match.Status.CONFIRMED or not outcome.readings:
        return []
    heard = {"event_id": m.round.event_id, "match_id": m.pk, "version": m.version, "actor": by}
    return [(signals.result_read_by_taikai, {**heard, "readings": list(outcome.readings)})]


def _judged(match: Match, data: ResultInput) -> Outcome | ServiceError:
    """``outcome_of``, worked out before the transaction (pure rules, nothing the row lock protects), so the
    write lock is held for the writes alone; the refusal is raised where the service would have refused."""
    try:
        return outcome_of(match, data)
    except ServiceError as exc:
        return exc


def _outcome(judged: Outcome | ServiceError) -> Outcome:
    if isinstance(judged, ServiceError):
        raise judged
    return judged


def keeps_penalty_duels(m: Match, data: ResultInput) -> None:
    """PEN-1: a record for this table holds every duel a penalty decided; one that does not is refused naming
    the duel and the player who lost it (read under the row's lock: a penalty may have landed meanwhile)."""
    if not m.penalty_duels:
        return
    duels = data.report.duels
    problem = penalty_duels.contradiction(duels, penalty_duels.read(m.penalty_duels))
    if problem is not None:
        loser = m.player_a if problem.params["loser"] == "A" else m.player_b
        raise ServiceError(problem.code, **problem.params, name=loser.name if loser else "")


def _snapshot(m: Match) -> dict[str, Any]:
    """What the log keeps of a match's result, before and after (none of it a date)."""
    duels = [m.duel_wins_a, m.duel_wins_b, m.duel_draws]
    return {
        "status": m.status,
        "result": m.result,
        "record": m.record,
        "basis": m.basis,
        "duels": duels,
        "ruling": m.ruling,
    }


def _apply(m: Match, data: ResultInput, outcome: Outcome, status: str, ruling: str = "") -> None:
    """``ruling``: what ended the match instead of the duels (``core.open_match.Ruling``), "" for the duels."""
    m.ruling = ruling
    m.record = {**data.stored(), "rules": list(outcome.rules)}
    m.result = outcome.result
    m.duel_wins_a, m.duel_wins_b, m.duel_draws = outcome.duel_wins_a, outcome.duel_wins_b, outcome.duel_draws
    m.basis = data.basis
    m.status = status
    m.version += 1


RESULT_FIELDS = ["record", "result", "duel_wins_a", "duel_wins_b", "duel_draws", "basis", "ruling", "status", "version"]
_RELATIONS = ("round", "player_a", "player_b")


def _lock(match: Match, version: int | None) -> Match:
    """The match's row, read afresh under the transaction's lock (its status and version may have moved
    since the caller read it).

    The round, its event and the players come from the caller's copy when it holds them: a result does not
    change them, and reading them again with the row was a five-table join on every report.
    """
    cached, missing = _held(match)
    if missing:
        # of=("self",): PostgreSQL cannot lock the nullable side (player_b) of an outer join.
        found = Match.objects.select_for_update(of=("self",)).select_related(*missing).filter(pk=match.pk).first()
    else:  # the common case (a slip, a correction): the row alone, by a hand-written statement
        found = reads.locked_match(match.pk)
    if found is None:  # a pairing edit or an undo removed the table meanwhile: said, never a server error
        raise Conflict("table-gone")
    locked = found
    return _checked(_attach(locked, cached, "round__event" in missing), version)


def _lock_with_reports(match: Match) -> tuple[Match, list[ResultReport]]:
    """``_lock`` and then every report of the table, oldest first.

    Two statements, never one: PostgreSQL re-reads a locked row that changed while the statement waited for
    its lock, but not the rows joined to it, so a table read with its reports in one locked statement missed
    the opponent's report committed meanwhile, and the table stayed "reported" (make bench: 66 of 250 tables).
    The reports are read once the lock is held, by a statement that sees every commit before it."""
    locked = _lock(match, None)
    return locked, reads.reports_of(locked)


def _held(match: Match) -> tuple[dict[str, Any], list[str]]:
    """The relations the caller's copy holds, and those to read with the row."""
    held = match._state.fields_cache  # the related objects the caller's copy already holds
    cached = {name: held[name] for name in _RELATIONS if name in held}
    event_cached = "round" in cached and "event" in cached["round"]._state.fields_cache
    missing = [name for name in ("player_a", "player_b") if name not in cached]
    return cached, missing + ([] if event_cached else ["round__event"])


def _attach(locked: Match, cached: dict[str, Any], round_read: bool) -> Match:
    for name, value in cached.items():
        if name == "round" and round_read:
            continue
        if getattr(locked, f"{name}_id") == (value.pk if value is not None else None):
            setattr(locked, name, value)
    return locked


def _checked(locked: Match, version: int | None) -> Match:
    if version is not None and locked.version != version:
        raise Conflict("conflict", version=locked.version)
    if locked.is_bye:
        raise ServiceError("bye-has-no-result")
    return locked


def _announced(
    m: Match, before: dict[str, Any], *, player: Player | None = None, by: Actor | None = None
) -> dict[str, Any]:
    """The keyword arguments every result signal carries (taikai.events.signals)."""
    return {
        "event_id": m.round.event_id,
        "match_id": m.pk,
        "player_id": player.pk if player else None,
        "version": m.version,
        "actor": by,
        "before_status": before["status"],
    }


def _says(stored: dict[str, Any], result: ResultInput) -> bool:
    """A stored report says what ``result`` says (read as core reads it, so how a client spelled a record does
    not matter). Duel 1's rock-paper-scissors (MATCH-3) is extra information one player may leave out: it never
    disputes."""
    try:
        read = match_json.parse_report(stored)
    except RecordFormatError:
        return False
    return replace(read, opening=None) == replace(result.report, opening=None)


def _report_key(reports: list[ResultReport], key: str, result: ResultInput) -> str | None:
    """The key to store a report under, or None when this exact report is already stored (a retry).

    A key already used for a different record gets a suffix naming the record, so a retry of the
    corrected report is recognised too.
    """
    if not key:
        return ""
    digest = hashlib.sha256(json.dumps(result.stored(), sort_keys=True).encode()).hexdigest()[:16]
    keys = [key[:64], f"{key[:47]}~{digest}"]
    stored = [r for r in reports if r.idempotency_key in keys]
    if any(_says(r.record, result) for r in stored):
        return None
    return keys[1] if stored else keys[0]


@announces_refusal("id-not-in-elimination", signals.intentional_draw_attempted)  # END-2: the judges hear of it
@announces_refusal("id-contradicts-duels", signals.misreport_suspected)  # END-2, INF-22
def report_result(match: Match, *, player: Player, result: ResultInput, idempotency_key: str = "",
                  version: int | None = None) -> Match:  # fmt: skip
    """A player reports on their phone; the opponent's matching report confirms (END-4).

    Retrying with the same idempotency key and the same record returns the stored state without counting
    twice; the same key with a different record (the player corrected it before resending) is a new report.
    ``version``: the match's version the reporter saw (a follower's copy, an API client); a table changed since
    is refused as a stale confirmation is (Conflict with the current version), never decided unseen (END-4).
    """
    judged = _judged(match, result)
    with transaction.atomic():
        # The row and every report of this table, oldest first (a handful): the retry check and the opponent's
        # latest. No other report of the table can be added meanwhile: each is written under the row's lock.
        m, reports = _lock_with_reports(match)
        side = m.side_of(player)
        if side is None:
            raise ServiceError("not-your-match")
        record_dict = result.stored()
        key = _report_key(reports, idempotency_key, result)
        if key is None:
            return m
        _checked(m, version)
        if m.status == Match.Status.CONFIRMED:
            raise ServiceError("result-final")
        outcome = _outcome(judged)
        keeps_penalty_duels(m, result)
        before = _snapshot(m)
        db_rows.insert(
            ResultReport(match=m, by_player=player, record=record_dict, basis=result.basis, idempotency_key=key)
        )
        opponent_reports = [r for r in reports if r.by_player_id is not None and r.by_player_id != player.pk]
        latest = opponent_reports[-1] if opponent_reports else None
        if latest is None:
            _apply(m, result, outcome, Match.Status.REPORTED)
            action = actions.RESULT_REPORTED
        elif _says(latest.record, result):
            _apply(m, result, outcome, Match.Status.CONFIRMED)
            action = actions.RESULT_CONFIRMED
        else:
            m.status = Match.Status.DISPUTED  # a mismatch goes to the judges' queue
            m.version += 1
            action = actions.RESULT_DISPUTED
        db_rows.update(m, RESULT_FIELDS)  # m.save(update_fields=...), by a statement written once (taikai.db.rows)
        if m.status == Match.Status.CONFIRMED:
            table_decided(m)
        signal = signals.RESULT_BY_ACTION.get(action)
        heard = [] if signal is None else [(signal, _announced(m, before, player=player))]
        record(
            action,
            actor_label=f"player:{player.pk}",
            obj=m,
            before=before,
            after=_snapshot(m),
            announce=[*_flagged(m, outcome, None), *heard],
            side=side,
        )
    return m


def report_from_page(player: Player, post: Mapping[str, Any]) -> Match:
    """What the player's page sends (``ResultInput.from_page``), reported for their table in the latest round. A
    report made for an earlier round (queued offline while the round ended) is refused, never counted against
    the new one."""
    match = current_match(player)
    if match is None or (post.get("match") and post["match"] != str(match.pk)):
        raise Conflict("report-for-earlier-round")
    result = ResultInput.from_page(post, match, player)
    return report_result(match, player=player, result=result, idempotency_key=post.get("idempotency_key", ""))


def confirm_result(match: Match, *, player: Player, version: int) -> Match:
    """The opponent confirms the reported record as it stands: the one they saw, at ``version`` (the match's
    version on their page). A report changed since is refused (Conflict carrying the current version), never
    confirmed unseen (END-4)."""
    with transaction.atomic():
        m = _lock(match, None)
        side = m.side_of(player)
        if side is None:
            raise ServiceError("not-your-match")
        reports = list(m.reports.filter(by_player__isnull=False))
        if m.status == Match.Status.CONFIRMED and reports and reports[-1].by_player_id == player.pk:
            return m  # a retry of this very confirmation (its answer was lost)
        _checked(m, version)
        if m.status == Match.Status.CONFIRMED:
            return m
        if not reports or m.status != Match.Status.REPORTED:
            raise ServiceError("nothing-to-confirm")
        if reports[-1].by_player_id == player.pk:
            raise ServiceError("confirm-own-report")
        data = ResultInput.from_json(reports[-1].record)
        return report_result(m, player=player, result=data)


@announces_refusal("id-not-in-elimination", signals.intentional_draw_attempted)
@announces_refusal("id-contradicts-duels", signals.misreport_suspected)
def enter_result(match: Match, *, by: Actor, result: ResultInput, version: int | None = None) -> Match:
    """The organizer enters a result from the paper slip: confirmed at once. A disputed match (END-4) is a
    judge's call: the judge who settled it at the table enters the result too."""
    if match.status == Match.Status.DISPUTED:
        require_judge(by, match.round.event)
    else:
        require_organizer(by, match.round.event)
    return _enter(match, by, result, version)


@announces_refusal("id-not-in-elimination", signals.intentional_draw_attempted)
def enter_ruled_result(match: Match, *, by: Actor, result: ResultInput) -> Match:
    """A judge's ruling at the table decides the match (the time procedure run to its end): confirmed at once.
    Floor judges run the time procedure; entering slips is the organizer's (``enter_result``)."""
    require_judge(by, match.round.event)
    return _enter(match, by, result, None)


def _enter(match: Match, by: Actor, result: ResultInput, version: int | None) -> Match:
    judged = _judged(match, result)
    with transaction.atomic():
        m = _lock(match, version)
        if m.status == Match.Status.CONFIRMED:
            raise ServiceError("result-final")
        outcome = _outcome(judged)
        keeps_penalty_duels(m, result)
        before = _snapshot(m)
        db_rows.insert(ResultReport(match=m, by_user=audit_user(by), record=result.stored(), basis=result.basis))
        _apply(m, result, outcome, Match.Status.CONFIRMED)
        db_rows.update(m, RESULT_FIELDS)
        table_decided(m)
        heard = [*_flagged(m, outcome, by), (signals.result_confirmed, _announced(m, before, by=by))]
        record(actions.RESULT_ENTERED, actor=by, obj=m, before=before, after=_snapshot(m), announce=heard)
        if before["status"] != Match.Status.PENDING:  # a reported or disputed table, decided by the desk
            notices.tell_both(m, "result-entered")
    return m


@announces_refusal("id-not-in-elimination", signals.intentional_draw_attempted)
@announces_refusal("id-contradicts-duels", signals.misreport_suspected)
def correct_result(match: Match, *, by: Actor, result: ResultInput, reason: str, version: int | None = None) -> Match:
    """END-3: a confirmed result changes only by the organizer, or by the judge who entered it, with a reason;
    the old one stays in the log."""
    require_result_corrector(by, match.round.event, entered_by(match))
    return _decide(match, by=by, result=result, reason=reason, version=version, cause="correction")


def entered_by(match: Match) -> int | None:
    """The account behind the table's latest report (None: a player's report, or none yet)."""
    by: int | None = (
        ResultReport.objects.filter(match=match).order_by("-id").values_list("by_user_id", flat=True).first()
    )
    return by


def rule_result(
    match: Match, *, by: Actor, result: ResultInput, reason: str, cause: str = "penalty", ruling: str = ""
) -> Match:
    """A judge's ruling decides the match (PEN-1: a penalty's duel or match loss, a DQ's forfeit): confirmed
    at once and logged as a correction with its reason, like END-3; the team match is settled and the round
    finishes when this was its last table, so the next round pairs at once. ``ruling``: what ended the match
    instead of the duels (``core.open_match.Ruling``), kept on the table so its pages say it."""
    require_judge(by, match.round.event)
    return _decide(match, by=by, result=result, reason=reason, version=None, cause=cause, ruling=ruling)


def decide_by_leaving(match: Match, *, by: Actor, result: ResultInput, ruling: str) -> Match:
    """A player left the event while this table was being played (a drop, REG-2; ``core.open_match``): the
    match is decided on the correction path, with the ruling as its reason. Whoever may remove the player
    (the player themself for a drop, the organizer) decides it; the caller checked that."""
    return _decide(match, by=by, result=result, reason=ruling, version=None, cause="leaving", ruling=ruling)


def _decide(
    match: Match, *, by: Actor, result: ResultInput, reason: str, version: int | None, cause: str, ruling: str = ""
) -> Match:
    """The one correction path (END-3, PEN-1, PEN-6): a result decided by a person with a reason, on the version
    they saw. ``cause`` says who decided ("correction", "penalty", "overturn", "withdrawal", "leaving") for the
    signal's receivers. A finished table that changes tells both players (notices); the judges' queue hears of
    it by the signal."""
    if not reason.strip():
        raise ServiceError("reason-required")
    judged = _judged(match, result)
    with transaction.atomic():
        m = _lock(match, version)
        outcome = _outcome(judged)
        keeps_penalty_duels(m, result)
        before = _snapshot(m)
        db_rows.insert(ResultReport(match=m, by_user=audit_user(by), record=result.stored(), basis=result.basis))
        _apply(m, result, outcome, Match.Status.CONFIRMED, ruling)
        db_rows.update(m, RESULT_FIELDS)  # written as _enter writes it (docs/architecture.md)
        table_decided(m)
        corrected = {**_announced(m, before, by=by), "reason": reason.strip(), "cause": cause}
        record(
            actions.RESULT_CORRECTED,
            actor=by,
            obj=m,
            before=before,
            after=_snapshot(m),
            announce=[*_flagged(m, outcome, by), (signals.result_corrected, corrected)],
            reason=reason.strip(),
            cause=cause,
        )
        if before["status"] != Match.Status.PENDING and cause == "correction":
            notices.tell_both(m, "result-corrected", reason=reason.strip()[:200])
    return m
