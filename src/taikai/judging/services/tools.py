"""Table tools: a fair coin and a six-sided die (DEV-1), and the loop counter (LOOP-2), all logged."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction

from taikai.audit.services import record
from taikai.events.actors import Actor, audit_user
from taikai.events.errors import ServiceError
from taikai.events.models import Event, Player
from taikai.events.permissions import require_judge, require_player_or_staff
from taikai.judging import actions
from taikai.judging.models import TableToolLog


def _log(event: Event, table: int, kind: str, value: str, by: Actor, player: Player | None) -> TableToolLog:
    if player is None:
        require_judge(by, event)
    elif player.event_id != event.pk:
        raise ServiceError("not-in-event")
    else:
        require_player_or_staff(by, player)  # DEV-1: a player tosses at their own table
    with transaction.atomic():
        entry = TableToolLog.objects.create(
            event=event,
            table=table,
            kind=kind,
            value=value,
            by_user=audit_user(by) if player is None else None,
            by_player=player,
        )
        record(
            actions.TABLE_TOOL,
            actor=by,
            obj=entry,
            after={"table": table, "kind": kind, "value": value},
        )
    return entry


def flip_coin(event: Event, table: int, *, by: Actor, player: Player | None = None) -> TableToolLog:
    """DEV-1: server-side randomness (``secrets``), so neither player's phone decides."""
    return _log(event, table, TableToolLog.Kind.COIN, secrets.choice(("heads", "tails")), by, player)


def roll_die(event: Event, table: int, *, by: Actor, player: Player | None = None) -> TableToolLog:
    return _log(event, table, TableToolLog.Kind.DIE, str(secrets.randbelow(6) + 1), by, player)


@dataclass(frozen=True)
class LoopState:
    repetitions: int  # how many times the same position has arisen
    must_deviate: bool  # LOOP-2: the player who acts first in the loop must now choose differently


def loop_state(event: Event, table: int) -> LoopState:
    entries = TableToolLog.objects.filter(
        event=event, table=table, kind__in=[TableToolLog.Kind.LOOP, TableToolLog.Kind.LOOP_RESET]
    ).order_by("-id")
    count = 0
    for entry in entries:
        if entry.kind == TableToolLog.Kind.LOOP_RESET:
            break
        count += 1
    return LoopState(count, count >= event.ruleset.match.loop_limit)  # LOOP-2 (CS 4.12), a ruleset parameter


def loop_repeat(event: Event, table: int, *, by: Actor) -> LoopState:
    """The same position arose again; counts from 1 (the first time the position arises)."""
    state = loop_state(event, table)
    _log(event, table, TableToolLog.Kind.LOOP, str(state.repetitions + 1), by, None)
    return loop_state(event, table)


def loop_reset(event: Event, table: int, *, by: Actor) -> LoopState:
    _log(event, table, TableToolLog.Kind.LOOP_RESET, "0", by, None)
    return loop_state(event, table)


def recent(event: Event, table: int, limit: int = 10) -> list[TableToolLog]:
    return list(TableToolLog.objects.filter(event=event, table=table).order_by("-id")[:limit])
