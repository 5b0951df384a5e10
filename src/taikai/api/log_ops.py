"""The event's log over the API (issue 22): the same read as the log page (``taikai.eventlog``), in words and
as stored. The organizer and the head judge read every entry with their token; a player with ``X-Player-Token``
the entries about their own tables; a floor judge is refused (``not-log-reader``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Schema

from taikai.api import public
from taikai.api import schemas as s
from taikai.api.base import PLAYER, TOKEN, acting_player, errors, staff_actor
from taikai.audit.models import AuditEntry
from taikai.eventlog.reads import MAX_PAGE_SIZE, PAGE_SIZE, LogFilter, read_log
from taikai.eventlog.values import redact
from taikai.eventlog.words import LogLine, lines
from taikai.events.actors import Actor, PlayerSelf
from taikai.events.models import Event
from taikai.events.permissions import is_organizer

router = public.router
TAGS = ["log"]


class LogQuery(Schema):
    table: int | None = Field(None, ge=1, le=99_999, description="Only this table number (every round, or `round`'s).")
    player: str | None = Field(None, pattern=r"^[0-9]{1,15}$", description="Only what concerns this player (id).")
    round: int | None = Field(None, ge=1, le=32767, description="Only this round and its tables.")
    limit: int = Field(PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE)
    offset: int = Field(0, ge=0, le=1_000_000)


class LogChangeOut(Schema):
    field: str = Field(..., description="The stored key, e.g. `result`, `status`, `name`.")
    label: str = Field(..., description="The key in words, in the caller's language.")
    before: str | None = Field(..., description="The value before, in words; null when the entry has no before.")
    after: str


class LogEntryOut(Schema):
    id: str
    at: str = Field(..., description="When, ISO 8601.")
    action: str = Field(..., description="The stable dotted name, e.g. `taikai.match.result_corrected`.")
    text: str = Field(..., description="The action in words (the registry's text), in the caller's language.")
    actor: str = Field(..., description="Who: a staff account's name, a player's name, or taikai itself.")
    subject: str = Field(..., description="What it was about in words, e.g. the round and table.")
    object_type: str
    object_id: str
    reason: str = Field(..., description="Why, when the change needs one (a correction, a penalty).")
    changes: list[LogChangeOut]
    before: Any = Field(None, description="As stored; contact details hidden from all but the organizer.")
    after: Any = None


class LogPageOut(s.Page):
    items: list[LogEntryOut]


def _row(line: LogLine, entry: AuditEntry, show_private: bool) -> dict[str, Any]:
    return {
        "id": str(line.id),
        "at": line.at.isoformat(),
        "action": line.action,
        "text": line.text,
        "actor": line.actor,
        "subject": line.subject,
        "object_type": entry.object_type,
        "object_id": entry.object_id,
        "reason": line.reason,
        "changes": [vars(c) for c in line.changes],
        "before": redact(entry.before, show_private),
        "after": redact(entry.after, show_private),
    }


@router.get(
    "/events/{event_id}/log",
    response={200: LogPageOut, **errors(401, 403, 404, 422)},
    auth=[TOKEN, PLAYER],
    tags=TAGS,
    summary="The event's log",
)
def event_log(request: HttpRequest, event_id: s.Id, query: Query[LogQuery]) -> dict[str, Any]:
    """The event's changes, newest first: who changed what, when, from which value to which, and why. The
    organizer and the head judge (token) read all of it; a player (`X-Player-Token`) the entries about their
    own tables; a floor judge: 403 `not-log-reader`. Filters combine: `table`, `player`, `round`."""
    event = get_object_or_404(Event, pk=event_id)
    me = acting_player(request, event)
    by: Actor = PlayerSelf(me) if me is not None else staff_actor(request, event)
    player = int(query.player) if query.player is not None else None
    filters = LogFilter(table=query.table, player=player, round=query.round)
    page = read_log(event, by=by, filters=filters, offset=query.offset, limit=query.limit)
    show_private = is_organizer(by, event)
    items = [
        _row(line, e, show_private)
        for line, e in zip(lines(page.entries, show_private=show_private), page.entries, strict=True)
    ]
    return {"count": page.count, "limit": page.limit, "offset": page.offset, "items": items}
