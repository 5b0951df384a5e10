"""Judging listens to what happens in an event (taikai.events.signals) and puts it in the judges' queue.

The queue page only reads: a disputed report, a result changed after confirmation and an intentional draw
reported where none is allowed are flagged here, when they happen, whichever edge (player's phone, API,
staff entry) sent them (END-2); so is an intentional draw reported with duels one player leads, a possible
result different from the game (CS 4.3, INF-22).
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from taikai.events import signals
from taikai.events.actors import System
from taikai.events.models import Match, Player
from taikai.judging.services import calls, time_procedure


def _match(match_id: int) -> Match:
    return Match.objects.select_related("round__event", "player_a", "player_b").get(pk=match_id)


@receiver(signals.result_disputed, dispatch_uid="judging.flag_disputed")
def flag_disputed(sender: Any, *, match_id: int, version: int, **kwargs: Any) -> None:
    calls.flag_disputed(_match(match_id), version=version)  # END-4: a judge settles the table


@receiver(signals.result_corrected, dispatch_uid="judging.flag_changed_after_confirmation")
def flag_changed_after_confirmation(
    sender: Any, *, match_id: int, version: int, before_status: str, reason: str, cause: str = "", **kwargs: Any
) -> None:
    # END-3: a staff correction of a confirmed result; PEN-1, PEN-6: a penalty landed on a finished table by the
    # judge's choice, or an overturn restoring one. A table still being played, or a reported one staff settle
    # from the slip, is not a change after the fact.
    decided_by_judges = cause in ("penalty", "overturn", "withdrawal") and before_status != Match.Status.PENDING
    if before_status != Match.Status.CONFIRMED and not decided_by_judges:
        return
    calls.flag_changed_after_confirmation(_match(match_id), reason=reason.strip(), version=version)


@receiver(signals.result_corrected, dispatch_uid="judging.close_time_procedure_of_a_leaver")
def close_time_procedure_of_a_leaver(sender: Any, *, match_id: int, cause: str = "", **kwargs: Any) -> None:
    # A drop or a REG-2 mark ended a table where time was called (core.open_match): its procedure ends too, so
    # the judge's screen does not go on asking for turns of a match already decided.
    if cause == "leaving":
        time_procedure.close(_match(match_id), by=System("taikai"))


@receiver(signals.result_needs_decision, dispatch_uid="judging.flag_result_needs_decision")
def flag_result_needs_decision(sender: Any, *, match_id: int, version: int, reason: str, **kwargs: Any) -> None:
    calls.flag_changed_after_confirmation(_match(match_id), reason=reason.strip(), version=version)  # PEN-6


@receiver(signals.result_read_by_taikai, dispatch_uid="judging.flag_taikai_reading")
def flag_taikai_reading(sender: Any, *, match_id: int, version: int, readings: list[str], **kwargs: Any) -> None:
    calls.flag_taikai_reading(_match(match_id), readings=readings, version=version)  # TIME-E-6, TIME-E-7, MATCH-2


@receiver(signals.intentional_draw_attempted, dispatch_uid="judging.flag_intentional_draw_attempt")
def flag_intentional_draw_attempt(sender: Any, *, match_id: int, player_id: int | None, **kwargs: Any) -> None:
    player = Player.objects.filter(pk=player_id).first() if player_id is not None else None
    calls.flag_intentional_draw_attempt(_match(match_id), player=player)  # END-2


@receiver(signals.misreport_suspected, dispatch_uid="judging.flag_possible_misreport")
def flag_possible_misreport(
    sender: Any, *, match_id: int, player_id: int | None, params: dict[str, Any], **kwargs: Any
) -> None:
    player = Player.objects.filter(pk=player_id).first() if player_id is not None else None
    calls.flag_possible_misreport(_match(match_id), player=player, a=params.get("a", 0), b=params.get("b", 0))


@receiver(signals.result_confirmed, dispatch_uid="judging.close_settled_disputes")
@receiver(signals.result_corrected, dispatch_uid="judging.close_settled_disputes_on_correction")
def close_settled_disputes(sender: Any, *, match_id: int, before_status: str, **kwargs: Any) -> None:
    # END-4: the judge (or the players' matching reports) settled the table: its dispute call is done. A
    # dispute call is raised only when a table becomes disputed, and a disputed table only moves on to
    # confirmed: a table confirmed from any other state has none (most tables: no read, no transaction).
    # A correction (rare) looks anyway.
    looks = before_status == Match.Status.DISPUTED or "reason" in kwargs
    if looks and calls.has_open_dispute(match_id):
        calls.close_settled_disputes(_match(match_id), by=System("taikai"))


@receiver(signals.round_paired, dispatch_uid="judging.apply_waiting_penalties")
def apply_waiting_penalties(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    # PEN-1: a duel or match loss waiting for the player's next match lands as that match is paired, not when
    # a judge next opens the queue; each in its own transaction, logged as taikai's own work.
    from taikai.events.models import Event
    from taikai.judging.services.penalty_effects import apply_pending_penalty, pending_penalties

    # Oldest first, and asked again after each: one that decides the match leaves the others waiting.
    event = Event.objects.get(pk=event_id)
    while waiting := pending_penalties(event):
        apply_pending_penalty(waiting[-1], by=System("taikai"))
