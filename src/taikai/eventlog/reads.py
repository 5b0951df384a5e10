"""Which log entries a reader sees: the event's, newest first, filtered by table, player and round, a page at a time.

Every query starts from the event id and walks ``audit_event_latest`` (event_id, id) backwards, so the first page of
an event with thousands of entries is one index range; a filter adds the objects it names (the matches at that
table, the player's matches and their own rows, the round) as ``object_type``/``object_id`` pairs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from taikai.audit.models import AuditEntry
from taikai.decks.models import DeckRegistration
from taikai.events.actors import Actor, PlayerSelf
from taikai.events.models import Event, Match, Player, Round
from taikai.events.permissions import require_log_reader
from taikai.judging.models import Appeal, JudgeCall, Penalty, TableToolLog

PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


@dataclass(frozen=True)
class LogFilter:
    """What the reader narrowed the log to: a table number, a player (their id) and a round number."""

    table: int | None = None
    player: int | None = None
    round: int | None = None

    @property
    def empty(self) -> bool:
        return self.table is None and self.player is None and self.round is None


@dataclass(frozen=True)
class LogPage:
    entries: list[AuditEntry]
    count: int
    offset: int
    limit: int

    @property
    def has_next(self) -> bool:
        return self.offset + len(self.entries) < self.count


def read_log(
    event: Event, *, by: Actor, filters: LogFilter = LogFilter(), offset: int = 0, limit: int = PAGE_SIZE
) -> LogPage:
    """The entries ``by`` may read, newest first. The organizer and the head judge read the whole log; a player
    (their own link) reads the entries about their own matches only; anyone else is refused."""
    require_log_reader(by, event)
    own = by.player if isinstance(by, PlayerSelf) else None
    entries = AuditEntry.objects.filter(event_id=event.pk)
    scope = _scope(event, filters, own)
    if scope is not None:
        entries = entries.filter(scope)
    entries = entries.order_by("-id")
    limit = max(1, min(limit, MAX_PAGE_SIZE))
    offset = max(0, offset)
    window = list(entries.select_related("actor")[offset : offset + limit])
    short = offset == 0 and len(window) < limit  # the whole log fits on the first page: nothing to count
    count = len(window) if short else entries.count()
    return LogPage(window, count, offset, limit)


def _objects(label: str, ids: Iterable[object]) -> Q:
    return Q(object_type=label, object_id__in=[str(pk) for pk in ids])


def _label(model: type[Match | Player | Round | Penalty | Appeal | JudgeCall | TableToolLog | DeckRegistration]) -> str:
    return model._meta.label_lower


def _matches(event: Event, filters: LogFilter, own: Player | None) -> list[int]:
    matches: QuerySet[Match] = Match.objects.filter(round__event=event)
    if filters.round is not None:
        matches = matches.filter(round__number=filters.round)
    if filters.table is not None:
        matches = matches.filter(table=filters.table)
    for pk in (filters.player, own.pk if own is not None else None):
        if pk is not None:
            matches = matches.filter(Q(player_a_id=pk) | Q(player_b_id=pk))
    return list(matches.values_list("pk", flat=True))


def _scope(event: Event, filters: LogFilter, own: Player | None) -> Q | None:
    """The entries the filters (and, for a player, their own matches) leave; None: the whole log."""
    if own is None and filters.empty:
        return None
    match_ids = _matches(event, filters, own)
    scope = _objects(_label(Match), match_ids)
    if own is not None:  # a player reads what happened at their own tables, nothing else
        return scope
    only = {name for name in ("table", "player", "round") if getattr(filters, name) is not None}
    # What judges did at those tables: the calls raised there, the penalties given there or from those calls.
    at_tables = Q(match_id__in=match_ids)
    if only == {"table"} and filters.table is not None:
        at_tables |= Q(table=filters.table)  # a call raised before the table had a match
    call_ids = list(JudgeCall.objects.filter(at_tables, event=event).values_list("pk", flat=True))
    given = Penalty.objects.filter(Q(match_id__in=match_ids) | Q(call_id__in=call_ids), event=event)
    scope |= _objects(_label(JudgeCall), call_ids) | _objects(_label(Penalty), given.values_list("pk", flat=True))
    if only == {"player"} and filters.player is not None:
        scope |= _player_rows(event, filters.player)
    elif only == {"round"} and filters.round is not None:
        rounds = Round.objects.filter(event=event, number=filters.round).values_list("pk", flat=True)
        scope |= _objects(_label(Round), rounds)
    elif only == {"table"} and filters.table is not None:
        tools = TableToolLog.objects.filter(event=event, table=filters.table).values_list("pk", flat=True)
        scope |= _objects(_label(TableToolLog), tools)
    return scope


def _player_rows(event: Event, player_id: int) -> Q:
    """The player's own rows: their registration, penalties, appeals, deck list and the calls they raised."""
    return (
        _objects(_label(Player), Player.objects.filter(event=event, pk=player_id).values_list("pk", flat=True))
        | _objects(
            _label(Penalty), Penalty.objects.filter(event=event, player_id=player_id).values_list("pk", flat=True)
        )
        | _objects(_label(Appeal), Appeal.objects.filter(event=event, player_id=player_id).values_list("pk", flat=True))
        | _objects(
            _label(DeckRegistration),
            DeckRegistration.objects.filter(event=event, player_id=player_id).values_list("pk", flat=True),
        )
        | _objects(
            _label(JudgeCall),
            JudgeCall.objects.filter(Q(raised_by_player_id=player_id) | Q(callers__player_id=player_id), event=event)
            .values_list("pk", flat=True)
            .distinct(),
        )
    )
