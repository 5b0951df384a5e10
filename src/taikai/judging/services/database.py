"""The violator database (PEN-5): penalties of warning and above, kept across events by Card Game ID, and
exported/imported as JSON between servers of the same series.

A teammate's DQ that the whole team received (PEN-4, CS 1.1) is kept for each member, marked
``team_consequence``: it is shown, but it is not the member's own violation, so it never escalates their next
penalty (CS 1.3: the same violator repeating the same violation)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from taikai.audit.services import record
from taikai.core.terminal import UNSAFE
from taikai.events.actors import Actor
from taikai.events.errors import ServiceError
from taikai.events.models import Event
from taikai.events.permissions import require_head_judge, require_judge
from taikai.events.services.registration import normalize_card_game_id
from taikai.judging import actions
from taikai.judging.models import DatabaseRecord, Penalty
from taikai.judging.services.penalty_history import history

FORMAT = "taikai-violator-database"


def search(event: Event, *, by: Actor, query: str) -> list[dict[str, Any]]:
    """Judges, head judges and organizers search by Card Game ID or name."""
    require_judge(by, event)
    q = (query or "").strip()
    if not q:
        return []
    digits = q.replace("-", "").replace(" ", "")
    if digits.isdigit():
        ids = {digits}
    else:
        ids = set(
            Penalty.objects.filter(in_database=True, player_name__icontains=q).values_list("card_game_id", flat=True)
        )
        ids |= set(DatabaseRecord.objects.filter(player_name__icontains=q).values_list("card_game_id", flat=True))
    out = []
    for cid in sorted(ids):
        rows = history(cid, event=event)
        if rows:
            name = Penalty.objects.filter(card_game_id=cid).values_list("player_name", flat=True).first()
            out.append({"card_game_id": cid, "name": name or "", "rows": rows})
    return out


def export_database(event: Event, *, by: Actor, source: str) -> dict[str, Any]:
    require_judge(by, event)
    records = []
    qs = Penalty.objects.filter(in_database=True, overturned=False).select_related("event").order_by("id")
    for p in qs:
        records.append(
            {
                "key": f"{source}:{p.pk}",
                "card_game_id": p.card_game_id,
                "player_name": p.player_name,
                "infraction": p.infraction,
                "rung": p.rung,
                "event_name": p.event.name,
                "event_date": p.event.date.isoformat(),
                # PEN-4: a teammate's DQ shared by the team, not this player's violation (CS 1.3)
                "team_consequence": p.team_source_id is not None,
            }
        )
    for r in DatabaseRecord.objects.order_by("id"):
        records.append(
            {
                "key": r.source_key,
                "card_game_id": r.card_game_id,
                "player_name": r.player_name,
                "infraction": r.infraction,
                "rung": r.rung,
                "event_name": r.event_name,
                "event_date": r.event_date.isoformat() if r.event_date else "",
                "team_consequence": r.team_consequence,
            }
        )
    return {"format": FORMAT, "version": 1, "source": source, "records": records}


# Each imported text is at most its column's length (SQLite does not enforce it; PostgreSQL refused the whole
# file with a server error), and holds no control character.
_LENGTHS = {  # DatabaseRecord's max_length; a Card Game ID may still hold spaces and hyphens here
    "key": 200,
    "card_game_id": 20,
    "player_name": 100,
    "infraction": 10,
    "rung": 30,
    "event_name": 200,
    "event_date": 10,
    "source": 200,
}


def _text(row: dict[str, Any], field: str) -> str:
    value = row[field]
    if not isinstance(value, str):
        raise TypeError(field)
    if len(value) > _LENGTHS[field] or UNSAFE.search(value) or "\t" in value or "\n" in value:
        raise ValueError(field)
    return value


def import_database(event: Event, *, by: Actor, data: Any, own_source: str = "") -> int:
    """Add the records not yet known (by key); entries exported from this server itself are skipped."""
    require_head_judge(by, event)
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("records"), list):
        raise ServiceError("bad-import", detail=f"format must be {FORMAT}")
    source = data.get("source", "")
    if not isinstance(source, str) or len(source) > _LENGTHS["source"] or UNSAFE.search(source):
        raise ServiceError("bad-import", detail="source")
    added = 0
    with transaction.atomic():
        for i, row in enumerate(data["records"]):
            try:
                key = _text(row, "key")
                cid = normalize_card_game_id(_text(row, "card_game_id"))
                date = dt.date.fromisoformat(_text(row, "event_date")) if row.get("event_date") else None
                fields = {k: _text(row, k) for k in ("infraction", "rung", "event_name")}
                name = _text(row, "player_name") if row.get("player_name") else ""
                team = row.get("team_consequence", False)
                if not isinstance(team, bool):
                    raise TypeError("team_consequence")
            except (KeyError, TypeError, ValueError, ServiceError) as exc:
                raise ServiceError("bad-import", detail=f"record {i + 1}: {exc}"[:80]) from exc
            if own_source and key.startswith(f"{own_source}:"):
                continue
            _, created = DatabaseRecord.objects.get_or_create(
                source_key=key,
                defaults={
                    "card_game_id": cid,
                    "player_name": name,
                    "event_date": date,
                    "source": source,
                    "team_consequence": team,
                    **fields,
                },
            )
            added += created
        record(actions.DATABASE_IMPORTED, actor=by, event_id=event.pk, added=added, source=source)
    return added
