"""What a decided table completes: its team match once every seat is decided (CS 1.1), its round once every
table is confirmed, the event once no round is left to pair (``table_decided``, from every path that decides a
table: a confirmed report, a slip, a ruling, a correction).

The team match settles inside the result's transaction. The round's end is checked once that transaction has
committed, in a short transaction of its own. Checking inside the result's transaction needed the round's row
lock first (two last tables confirmed at once would otherwise each see the other still open), so on PostgreSQL
every report of a round waited for the one before it to commit. After the commit no lock is needed for the
check: of two last tables confirmed at once, the one that commits second sees the first one's commit, finds no
table open, and finishes the round.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from taikai.audit.services import fields_of, record, save_and_log
from taikai.core.pairing import team as team_pairing
from taikai.core.progress import NextAction
from taikai.events import actions, reads
from taikai.events.models import Event, Match, Round, TeamMatch
from taikai.events.services.progress import plan


def settle_team_match(match: Match) -> None:
    """After a seat result is confirmed: the team match is decided once every seat is (ruleset rule).

    Runs inside the seat's result service. A decided or corrected team result is logged as its own entry (the team
    standings read it); TeamMatch has no version of its own: the seat whose result moved it bumped its version.
    """
    if match.team_match_id is None:
        return
    tm = TeamMatch.objects.select_for_update().get(pk=match.team_match_id)
    seats = list(tm.seats.all())
    if tm.team_b_id is None or any(s.status != Match.Status.CONFIRMED for s in seats):
        return
    before = tm.result
    tm.result = team_pairing.team_result([s.result for s in seats], match.round.event.ruleset)
    if tm.result == before:
        return
    tm.save(update_fields=["result"])
    record(
        actions.TEAM_MATCH_SETTLED,
        actor_label="taikai",
        event_id=match.round.event_id,
        obj=tm,
        before={"result": before},
        after={"result": tm.result, "seats": {s.seat: s.result for s in seats}},
        table=tm.table,
    )


def table_decided(match: Match) -> None:
    """``match`` was decided (inside its result's transaction): its team match settles now, and once the
    transaction commits its round finishes if this was its last open table."""
    settle_team_match(match)
    finish_when_committed(match)


def finish_when_committed(match: Match) -> None:
    """Once the transaction in progress commits, finish ``match``'s round if it was its last open table; the
    caller's ``match.round`` then shows the finished round."""

    def finish() -> None:
        finished = finish_round_if_complete(match.round_id)
        if finished is not None:
            match.round = finished

    # robust: the result is saved by then; were this to fail, pairing the next round finishes the round
    transaction.on_commit(finish, robust=True)


def finish_round_if_complete(round_id: int) -> Round | None:
    """Finish the round when every table is confirmed (its clock stops; the console moves on), and the event
    when it has no round left to pair. Returns the round when this call finished it."""
    if reads.has_open_table(round_id):
        return None  # the common case, read without a transaction or a lock
    with transaction.atomic():
        rnd = Round.objects.select_for_update().get(pk=round_id)
        if rnd.status == Round.Status.FINISHED:
            return None
        if rnd.matches.exclude(status=Match.Status.CONFIRMED).exists():
            return None  # a correction or an undo reopened a table meanwhile
        finish_round(rnd)
    return rnd


def finish_round(rnd: Round) -> None:
    """Mark a complete round finished (inside the caller's transaction, the round's row locked)."""
    # a clock change still holding the round's old version now gets a conflict
    _finish(rnd, Round.Status.FINISHED, actions.ROUND_FINISHED, rnd.event_id, number=rnd.number)
    event = rnd.event = Event.objects.select_for_update().get(pk=rnd.event_id)
    if plan(event).next_action == NextAction.FINISHED and event.status != Event.Status.FINISHED:
        _finish(event, Event.Status.FINISHED, actions.EVENT_FINISHED, event.pk)


def _finish(row: Round | Event, status: str, action: str, event_id: int, **data: Any) -> None:
    """``row`` takes ``status``, by the system; its entry keeps the status and version before and after."""
    shown = ["status", "version"]
    before = fields_of(row, shown)
    row.status = status
    save_and_log(
        row, action, actor_label="taikai", event_id=event_id, fields=["status"], before=before, shown=shown, **data
    )
