"""A player calls a judge to their own table (JUDGE-1): one card per table, every caller on it, and the call
taken back by the player while no judge has taken it yet.

The judges' queue has one card for a table however many times its players tap 「ジャッジを呼ぶ」: the second
call (the opponent's, or the same player's again) joins the open card. Two taps at the same moment cannot make
two cards either: a table's open player call holds a unique ``dedupe_key`` (``player-call:<match>:<n>``, ``n``
the table's player calls before it, all closed), so the second insert fails and joins the first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from taikai.audit.services import record
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Match, Player, current_match
from taikai.events.permissions import require_player_or_staff
from taikai.judging import actions
from taikai.judging.models import CallCaller, JudgeCall

Source, Status = JudgeCall.Source, JudgeCall.Status


def _open_call(match: Match, *, lock: bool = False) -> JudgeCall | None:
    calls = JudgeCall.objects.filter(match=match, source=Source.PLAYER).exclude(status=Status.CLOSED)
    return (calls.select_for_update() if lock else calls).order_by("created_at", "id").first()


def _callers(call: JudgeCall) -> list[int]:
    return list(call.callers.filter(withdrawn_at__isnull=True).values_list("player_id", flat=True))


def call_from_player(event: Event, player: Player, *, by: Actor, description: str = "") -> JudgeCall:
    """The player's table gets a judge: a new card, or the player joins the table's open card (their question
    kept beside their name). Calling again changes nothing but the question."""
    if player.event_id != event.pk:
        raise ServiceError("not-in-event")
    require_player_or_staff(by, player)
    match = current_match(player)
    if match is None:
        raise ServiceError("no-current-match")
    question = description.strip()[:2000]
    with transaction.atomic():
        call = _open_call(match, lock=True)
        made = call is None
        if call is None:
            call, made = _new_card(event, match, player, question)
        if made:
            CallCaller.objects.create(call=call, player=player, question=question)
            record(actions.CALL_RAISED, actor=by, obj=call, after=_state(call), table=match.table)
        else:
            _join(call, player, question, by)
    return call


def _new_card(event: Event, match: Match, player: Player, question: str) -> tuple[JudgeCall, bool]:
    """A new card for the table, or the card another tap made a moment ago (the unique key refused ours)."""
    earlier = JudgeCall.objects.filter(match=match, source=Source.PLAYER).count()
    try:
        with transaction.atomic():
            card = JudgeCall.objects.create(
                event=event,
                table=match.table,
                match=match,
                source=Source.PLAYER,
                raised_by_player=player,
                description=question,
                dedupe_key=f"player-call:{match.pk}:{earlier}",
            )
            return card, True
    except IntegrityError:
        call = _open_call(match, lock=True)
        if call is None:  # the card was closed again in between: unlikely, said as a refusal to tap again
            raise ServiceError("call-closed") from None
        return call, False


def _join(call: JudgeCall, player: Player, question: str, by: Actor) -> None:
    before = {"callers": _callers(call)}
    caller, made = CallCaller.objects.get_or_create(call=call, player=player, defaults={"question": question})
    if not made:
        caller.withdrawn_at = None
        caller.question = question or caller.question
        caller.save(update_fields=["withdrawn_at", "question"])
    record(
        actions.CALL_JOINED,
        actor=by,
        obj=call,
        before=before,
        after={"callers": _callers(call)},
        table=call.table,
    )


def withdraw_call(call: JudgeCall, player: Player, *, by: Actor) -> JudgeCall:
    """The player takes their call back (solved at the table, tapped by mistake) while it still waits for a
    judge. The card closes when nobody who called is left; a judge already on the way is not sent back."""
    require_player_or_staff(by, player)
    with transaction.atomic():
        call = JudgeCall.objects.select_for_update().get(pk=call.pk)
        caller = call.callers.filter(player=player, withdrawn_at__isnull=True).first()
        if caller is None:
            raise ServiceError("call-not-yours")
        if call.status != Status.OPEN:
            raise ServiceError("call-already-taken")
        before = {**_state(call), "callers": _callers(call)}
        caller.withdrawn_at = timezone.now()
        caller.save(update_fields=["withdrawn_at"])
        if not _callers(call):
            call.status, call.closed_at = Status.CLOSED, caller.withdrawn_at
            call.save(update_fields=["status", "closed_at"])
        after = {**_state(call), "callers": _callers(call)}
        record(actions.CALL_WITHDRAWN, actor=by, obj=call, before=before, after=after)
    return call


def _state(call: JudgeCall) -> dict[str, object]:
    return {"status": call.status, "taken_by": call.taken_by_id}


@dataclass(frozen=True)
class TableCall:
    """A table's open player call as one of its players sees it: whether they called, and who else did."""

    call: JudgeCall
    mine: bool
    taken: bool
    callers: list[str]


def table_call(player: Player, match: Match | None) -> TableCall | None:
    """The open call at the player's table, if any (a read for the player's page)."""
    if match is None or match.is_bye:
        return None
    call = _open_call(match)
    if call is None:
        return None
    rows = list(call.callers.filter(withdrawn_at__isnull=True).select_related("player"))
    if not rows:
        return None
    return TableCall(
        call=call,
        mine=any(r.player_id == player.pk for r in rows),
        taken=call.status == Status.TAKEN,
        callers=[r.player.name for r in rows],
    )


def callers_by_call(calls: list[JudgeCall]) -> dict[int, list[CallCaller]]:
    """Who called, for each of the queue's cards (one query): each caller with their question."""
    out: dict[int, list[CallCaller]] = {c.pk: [] for c in calls}
    rows = CallCaller.objects.filter(call__in=calls, withdrawn_at__isnull=True).select_related("player")
    for row in rows:
        out[row.call_id].append(row)
    return out
