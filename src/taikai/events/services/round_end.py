"""A round ends when its last table is confirmed; the event ends when no round is left to pair.

Checked once a result's transaction has committed, in a short transaction of its own. Checking inside the
result's transaction needed the round's row lock first (two last tables confirmed at once would otherwise
each see the other still open), so on PostgreSQL every report of a round waited for the one before it to
commit. After the commit no lock is needed for the check: of two last tables confirmed at once, the one that
commits second sees the first one's commit, finds no table open, and finishes the round.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from taikai.audit.services import fields_of, save_and_log
from taikai.core.progress import NextAction
from taikai.events import actions, reads
from taikai.events.models import Event, Match, Round
from taikai.events.services.progress import plan


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
