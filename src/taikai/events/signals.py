"""What happened in an event, announced to the apps that care (STYLE 12: apps react, they do not reach).

A service announces a signal with the audit entry that records what happened (``record(..., announce=...)``,
``taikai.audit.services``): it is sent once the transaction commits, so receivers never see a change that was
rolled back, a receiver's failure cannot undo it, and every announcement is in the audit log too. Judging and
deck registration subscribe (``judging/receivers.py``, ``decks/receivers.py``); the events app imports neither.

Every signal is sent with the model class as ``sender`` and these keyword arguments (ids are ints;
``actor`` is the staff user who acted, or None when a player acted from their phone or taikai itself did):

- ``result_confirmed``, ``result_disputed``, ``result_corrected``: event_id, match_id, player_id (the reporting
  player, or None when staff acted), version (the match's, after the change), actor, before_status (the match
  status before the change). Confirmed: the opponent's matching report, or staff entering the slip; disputed: the
  two reports disagree (END-4); corrected: a person decided a result on the correction path, with ``reason`` and
  ``cause``: "correction" (staff, END-3), "penalty" (a penalty's duel or match loss, PEN-1) or "overturn" (an
  appeal took a penalty back, PEN-6), "withdrawal" (the head judge withdrew their own penalty, PEN-6) or "leaving"
  (a drop or a REG-2 mark ended the table being played, ``core.open_match``); a finished table changed is
  ``before_status != "pending"``.
- ``result_needs_decision``: event_id, match_id, version, reason, actor — an overturned penalty's table is in a
  round already over: its result stays until someone decides a correction (PEN-6).
- ``result_read_by_taikai``: event_id, match_id, version, readings (``core.match.READINGS``), actor — a result
  was decided where the text is silent and taikai's reading decided it (a game drawn in the extra turns or the
  extra duel, 1–1–1 in single elimination): the judges see it flagged. Announced by the entry that decided the
  result, before that entry's own signal.
- ``intentional_draw_attempted``: event_id, match_id, player_id, actor — an intentional draw
  was reported where none is allowed and refused (END-2). Sent at once, not on commit: see
  ``announces_refusal``.
- ``misreport_suspected``: event_id, match_id, player_id, actor, params (the refusal's ``a``, ``b``,
  ``leader``) — an intentional draw was reported with duels one player leads, and refused: possibly a
  result different from the one played (CS 4.3, INF-22). Sent at once, like the one above.
- ``round_paired``: event_id, round_id, number, actor (``for_round``).
- ``round_started``: event_id, round_id, number, actor, version (the round's, after the change).

Only what another app acts on is a signal. Everything else that happened (a first report, a drop, time called,
a penalty, a disqualification) is an audit entry alone; the log holds every entry, announced or not, and that is
what the live stream (``taikai.api.stream``) and the webhooks (``taikai.webhooks.delivery``) read: they follow
the event's audit log by entry id, so a reader that was away catches up from the last id it saw, which a signal
(heard only by a process listening then) cannot do.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from django.dispatch import Signal

from taikai.audit.services import Signalled
from taikai.events import actions
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Round

result_confirmed = Signal()
result_disputed = Signal()
result_corrected = Signal()
result_needs_decision = Signal()
result_read_by_taikai = Signal()
intentional_draw_attempted = Signal()
misreport_suspected = Signal()
round_paired = Signal()
round_started = Signal()

# What a player's report made of the match that the apps hear of, by the audit action the results service
# records (a first report waiting for the opponent is announced to nobody: it is in the audit log).
RESULT_BY_ACTION = {
    actions.RESULT_CONFIRMED: result_confirmed,
    actions.RESULT_DISPUTED: result_disputed,
}


def for_round(signal: Signal, rnd: Round, by: Actor | None) -> Signalled:
    """``round_paired`` or ``round_started`` for ``rnd``, as its entry announces it."""
    return signal, {"event_id": rnd.event_id, "round_id": rnd.pk, "number": rnd.number, "actor": by}


P = ParamSpec("P")
R = TypeVar("R")


def announces_refusal(code: str, signal: Signal) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorate a match service (``service(match, *, player=..., by=..., ...)``): when it refuses with
    ``code``, announce the attempt on ``signal`` and refuse as before.

    The refusal rolls the service's own transaction back, so an on-commit announcement would never be
    heard; this one is sent after the rollback, at once. A receiver then writes in a transaction of its
    own, which the refused report cannot take with it.
    """

    def decorate(service: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(service)
        def announcing(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return service(*args, **kwargs)
            except ServiceError as exc:
                if exc.problem.code == code:
                    match: Any = args[0] if args else kwargs["match"]
                    player: Any = kwargs.get("player")
                    signal.send(
                        sender=type(match),
                        event_id=match.round.event_id,
                        match_id=match.pk,
                        player_id=player.pk if player is not None else None,
                        actor=kwargs.get("by"),
                        params=dict(exc.problem.params),
                    )
                raise

        return announcing

    return decorate
