"""The event file's record of what was decided and told (docs/event-json.md): the corrections with their reasons
(from the event's log), the notices told to players and the organizer's announcements (お知らせ). Imported after
every app's section, so a notice about a penalty names the copy's penalty.

A correction comes back as an entry of the copy's log under the same action, marked with the time it was made
(``imported_at``) and by whom (the actor's name as a label: an account of the other server is not this one's).
"""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime

from taikai.audit.models import AuditEntry
from taikai.audit.services import record
from taikai.events import actions
from taikai.events.models import Announcement, Event, Match, Notice
from taikai.events.services.transfer_ids import Ids

_PLAYER = "player:"


def export_corrections(event: Event) -> list[dict[str, Any]]:
    entries = AuditEntry.objects.filter(
        event_id=event.pk, action=actions.RESULT_CORRECTED, object_type=Match._meta.label_lower
    ).select_related("actor")
    return [_correction(e) for e in entries.order_by("id")]


def _correction(entry: AuditEntry) -> dict[str, Any]:
    data = entry.data or {}
    label = entry.actor.get_username() if entry.actor is not None else entry.actor_label
    by_player = int(label[len(_PLAYER) :]) if label.startswith(_PLAYER) and label[len(_PLAYER) :].isdigit() else None
    return {
        "match_id": int(entry.object_id),
        "at": data.get("imported_at") or entry.at.isoformat(),
        "by": "" if by_player is not None else label,
        "by_player_id": by_player,
        "reason": str(data.get("reason", "")),
        "cause": str(data.get("cause", "")),
        "before": entry.before,
        "after": entry.after,
    }


def import_corrections(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        match = Match.objects.get(pk=ids.matches[int(row["match_id"])])
        if parse_datetime(str(row["at"])) is None:
            raise ValueError("correction time")
        player = ids.optional("players", row.get("by_player_id"))
        record(
            actions.RESULT_CORRECTED,
            actor_label=f"{_PLAYER}{player}" if player is not None else str(row.get("by") or "")[:200],
            event_id=event.pk,
            obj=match,
            before=row.get("before"),
            after=row.get("after"),
            reason=str(row["reason"]),
            cause=str(row.get("cause", "")),
            imported_at=str(row["at"]),
        )


def export_notices(event: Event) -> list[dict[str, Any]]:
    return [
        {
            "player_id": n.player_id,
            "match_id": n.match_id,
            "kind": n.kind,
            "params": n.params,
            "created_at": n.created_at.isoformat(),
            "closed_at": n.closed_at.isoformat() if n.closed_at else None,
        }
        for n in Notice.objects.filter(event=event).order_by("id")
    ]


def import_notices(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    penalties = ids.more.get("penalties", {})
    for row in rows:
        params = dict(row.get("params") or {})
        if params.get("penalty"):  # a notice about a penalty names the copy's penalty
            params["penalty"] = str(penalties.get(int(params["penalty"]), ""))
        notice = Notice.objects.create(
            event=event,
            player_id=ids.players[int(row["player_id"])],
            match_id=ids.optional("matches", row.get("match_id")),
            kind=str(row["kind"])[:40],
            params=params,
            closed_at=parse_datetime(row["closed_at"]) if row.get("closed_at") else None,
        )
        created = parse_datetime(str(row.get("created_at") or ""))
        if created is not None:  # created_at is stamped on insert: the file's time is written after
            Notice.objects.filter(pk=notice.pk).update(created_at=created)


def export_announcements(event: Event) -> list[dict[str, Any]]:
    """Every announcement in the order sent, a cleared one (no text) included: the latest is the one on show."""
    rows = Announcement.objects.filter(event=event).select_related("sent_by").order_by("id")
    return [
        {
            "text": a.text,
            "sent_at": a.sent_at.isoformat(),
            "sent_by": a.sent_by.get_username() if a.sent_by is not None else None,
        }
        for a in rows
    ]


def import_announcements(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    limit = Announcement._meta.get_field("text").max_length or 0
    for row in rows:
        text, sent_at = row["text"], parse_datetime(str(row["sent_at"]))
        if not isinstance(text, str) or len(text) > limit or sent_at is None:
            raise ValueError("announcement text or time")
        made = Announcement.objects.create(event=event, text=text, sent_by=ids.user(row.get("sent_by")))
        Announcement.objects.filter(pk=made.pk).update(sent_at=sent_at)  # stamped on insert: the file's time
