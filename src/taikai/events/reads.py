"""The reads of a result report, the busiest request of an event, as hand-written statements (taikai.db.rows).

A report reads the player by their link's token (with the event), then the table (with its round and both
players' names), then, inside the result's transaction, the table's row again under its lock and, once the lock
is held, the table's reports; after a confirmation commits, whether the round has a table left. Each returns what
the queryset it replaces returned; ``tests/events/test_reads.py`` holds them side by side.

The desk's registration and check-in, one player after another for thousands of players, read two things the
same way: how many Swiss rounds were paired, and the player's row under its lock with the event (composing
those two querysets was about half of each call's CPU).
"""

from __future__ import annotations

from functools import cache

from django.db import connections
from django.db.transaction import TransactionManagementError

from taikai.db.rows import Columns, Reader
from taikai.events.models import Event, Match, Player, ResultReport, Round

_NAMES = ("id", "event", "name")  # what a result's answer shows of each player
# The event without its two documents: the merged ruleset (its parsed form is shared by fingerprint, see
# Event.ruleset) and the F/L list snapshot (a deck check's). Decoding them was a tenth of a report's CPU; each
# loads on first use, as any deferred field does.
_EVENT_DEFERRED = ("ruleset_document", "banlist_entries")
_EVENT = tuple(f.name for f in Event._meta.concrete_fields if f.name not in _EVENT_DEFERRED)


def _player_joined(by: str = "", lock: str = "") -> tuple[Reader, str]:
    """The statement reading one player (by the field ``by``, the key by default) with their event."""
    player, event = Columns(Player, "p"), Columns(Event, "e", _EVENT)
    reader = Reader([player, event])
    sql = (
        f"SELECT {reader.select()} FROM {player.table()}"
        f" INNER JOIN {event.table()} ON {_key(event)} = {_key(player, 'event')} WHERE {_key(player, by)} = %s{lock}"
    )
    return reader, sql


@cache
def _player_and_event(vendor: str) -> tuple[Reader, str]:
    return _player_joined("access_token_hash")


def player_by_token_hash(token_hash: str) -> Player | None:
    """``Player.objects.select_related("event").defer(<the event's documents>).filter(access_token_hash=...)
    .first()``."""
    return _player_with_event(*_player_and_event(connections["default"].vendor), token_hash)


def _player_with_event(reader: Reader, sql: str, key: object) -> Player | None:
    """The one player ``sql`` reads with their event, the event attached as the ORM attaches it."""
    rows = reader.fetch(sql, [key])
    if not rows:
        return None
    player, event = rows[0]
    assert isinstance(player, Player) and isinstance(event, Event)
    player.event = event
    return player


@cache
def _match_for_result(vendor: str) -> tuple[Reader, str]:
    match, rnd = Columns(Match, "m"), Columns(Round, "r")
    player_a, player_b = Columns(Player, "a", _NAMES), Columns(Player, "b", _NAMES)
    reader = Reader([match, rnd, player_a, player_b])
    sql = (
        f"SELECT {reader.select()} FROM {match.table()}"
        f" INNER JOIN {rnd.table()} ON {_key(rnd)} = {_key(match, 'round')}"
        f" LEFT OUTER JOIN {player_a.table()} ON {_key(player_a)} = {_key(match, 'player_a')}"
        f" LEFT OUTER JOIN {player_b.table()} ON {_key(player_b)} = {_key(match, 'player_b')}"
        f" WHERE {_key(match)} = %s AND {_key(rnd, 'event')} = %s"
    )
    return reader, sql


def match_for_result(event: Event, match_id: int) -> Match | None:
    """A table of ``event`` with its round and its players' names (the rest of the players' rows deferred);
    ``match.round.event`` is ``event``. None when the event has no such table."""
    reader, sql = _match_for_result(connections["default"].vendor)
    rows = reader.fetch(sql, [match_id, event.pk])
    if not rows:
        return None
    match, rnd, player_a, player_b = rows[0]
    assert isinstance(match, Match) and isinstance(rnd, Round)
    rnd.event = event
    match.round = rnd
    match.player_a = player_a  # type: ignore[assignment]
    match.player_b = player_b  # type: ignore[assignment]
    return match


@cache
def _locked_match(vendor: str) -> tuple[Reader, str]:
    match = Columns(Match, "m")
    reader = Reader([match])
    lock = " FOR UPDATE" if connections["default"].features.has_select_for_update else ""
    return reader, f"SELECT {reader.select()} FROM {match.table()} WHERE {_key(match)} = %s{lock}"


def locked_match(match_id: int) -> Match | None:
    """``Match.objects.select_for_update().filter(pk=...).first()``, inside the caller's transaction (on
    SQLite the transaction's write lock, taken at BEGIN, is the lock)."""
    _require_transaction()
    reader, sql = _locked_match(connections["default"].vendor)
    rows = reader.fetch(sql, [match_id])
    if not rows:
        return None
    (match,) = rows[0]
    assert isinstance(match, Match)
    return match


@cache
def _locked_player(vendor: str) -> tuple[Reader, str]:
    features = connections["default"].features
    lock = ""
    if features.has_select_for_update:
        lock = (
            f" FOR UPDATE OF {connections['default'].ops.quote_name('p')}"
            if features.has_select_for_update_of
            else " FOR UPDATE"
        )
    return _player_joined(lock=lock)


def locked_player(player_id: int) -> Player | None:
    """``Player.objects.select_for_update(of=("self",)).select_related("event").defer(<the event's documents>)
    .filter(pk=...).first()``: the player's row locked (not the event's), inside the caller's transaction."""
    _require_transaction()
    return _player_with_event(*_locked_player(connections["default"].vendor), player_id)


@cache
def _swiss_rounds(vendor: str) -> str:
    rnd = Columns(Round, "r")
    return f"SELECT COUNT(*) FROM {rnd.table()} WHERE {_key(rnd, 'event')} = %s AND {_key(rnd, 'stage')} = %s"


def swiss_rounds_played(event_id: int) -> int:
    """``Round.objects.filter(event_id=..., stage="swiss").count()``: Swiss rounds paired so far."""
    with connections["default"].cursor() as cursor:
        cursor.execute(_swiss_rounds(connections["default"].vendor), [event_id, Round.Stage.SWISS.value])
        return int(cursor.fetchone()[0])


@cache
def _reports(vendor: str) -> tuple[Reader, str]:
    report = Columns(ResultReport, "rr")
    reader = Reader([report])
    sql = f"SELECT {reader.select()} FROM {report.table()} WHERE {_key(report, 'match')} = %s"
    return reader, sql + _order(report)


def _require_transaction() -> None:
    """A lock outlives its statement only inside a transaction (the ORM's select_for_update says the same)."""
    if not connections["default"].in_atomic_block:
        raise TransactionManagementError("a locked read must run inside transaction.atomic()")


def _key(part: Columns, name: str = "") -> str:
    """``alias.column`` of a field (the primary key by default), quoted."""
    quote = connections["default"].ops.quote_name
    field = part.model._meta.get_field(name) if name else part.model._meta.pk
    return f"{quote(part.alias)}.{quote(str(getattr(field, 'column', '')))}"


def _order(part: Columns) -> str:
    """The model's default order (Meta.ordering, plain fields only), written out: the queryset's order, kept."""
    ordering = [str(term) for term in part.model._meta.ordering or ()]
    terms = [_key(part, term.lstrip("-")) + (" DESC" if term.startswith("-") else " ASC") for term in ordering]
    return " ORDER BY " + ", ".join(terms) if terms else ""


def reports_of(match: Match) -> list[ResultReport]:
    """``match.reports.all()``: every report of the table, in the model's order."""
    reader, sql = _reports(connections["default"].vendor)
    out = []
    for (report,) in reader.fetch(sql, [match.pk]):
        assert isinstance(report, ResultReport)
        report.match = match
        out.append(report)
    return out


def has_open_table(round_id: int) -> bool:
    """Whether a table of the round is not confirmed yet (the check after every confirmed result)."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            'SELECT 1 FROM "events_match" WHERE "round_id" = %s AND NOT ("status" = %s) LIMIT 1',
            [round_id, Match.Status.CONFIRMED.value],
        )
        return cursor.fetchone() is not None
