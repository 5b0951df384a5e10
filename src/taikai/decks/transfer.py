"""The decks app's part of the event file (taikai.events.services.transfer, docs/event-json.md): the deck set-up
with the event's frozen Forbidden/Limited list, every registered deck list as sent (its text and what was read
from it) and the lists not accepted over a registered one."""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime

from taikai.cards.deck_formats import is_format
from taikai.cards.services_banlists import as_file, frozen_from_file
from taikai.decks.models import DeckRegistration, EventDecks, RejectedDeckList
from taikai.events.models import Event
from taikai.events.services import transfer
from taikai.events.services.transfer_ids import Ids

LIST_KEYS = ["source_text", "source_name", "format", "main", "extra", "side", "languages", "mixed_languages"]
LIST_KEYS += ["problems", "notes"]
REGISTRATION_KEYS = [*LIST_KEYS, "legal", "version"]
REJECTED_KEYS = [*LIST_KEYS, "registration_version", "reason"]
EVENT_LIST = "event"  # a list checked under the event's own frozen copy (the usual case)


def _time(value: Any) -> str | None:
    return value.isoformat() if value else None


def _required_time(value: Any) -> Any:
    parsed = parse_datetime(str(value or ""))
    if parsed is None:
        raise ValueError("deck list time")
    return parsed


def export_setup(event: Event) -> list[dict[str, Any]]:
    setup = EventDecks.objects.filter(event=event).select_related("banlist").first()
    if setup is None:
        return []
    return [
        {
            "banlist": as_file(setup.banlist) if setup.banlist else None,
            "banlist_name": setup.banlist_name,
            "frozen_at": _time(setup.frozen_at),
            "locked_at": _time(setup.locked_at),
            "version": setup.version,
        }
    ]


def import_setup(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows[:1]:
        banlist = frozen_from_file(row["banlist"], event_id=event.pk) if row.get("banlist") else None
        EventDecks.objects.create(
            event=event,
            banlist=banlist,
            banlist_name=str(row.get("banlist_name", ""))[:100],
            frozen_at=parse_datetime(row["frozen_at"]) if row.get("frozen_at") else None,
            locked_at=parse_datetime(row["locked_at"]) if row.get("locked_at") else None,
            version=int(row.get("version", 0)),
        )


def _event_banlist(event: Event, row: dict[str, Any]) -> Any:
    if row.get("banlist") != EVENT_LIST:
        return None
    setup = EventDecks.objects.filter(event=event).first()
    return setup.banlist if setup else None


def _sent(row: Any, keys: list[str], setup_banlist_id: int | None) -> dict[str, Any]:
    """A list as sent (registered or not accepted): who sent it, when, what was read and under which list."""
    return {
        "player_id": row.player_id,
        **{k: getattr(row, k) for k in keys},
        "banlist": EVENT_LIST if row.banlist_id is not None and row.banlist_id == setup_banlist_id else None,
        "submitted_at": _time(row.submitted_at),
        "submitted_by": row.submitted_by.get_username() if row.submitted_by else None,
    }


def _setup_banlist_id(event: Event) -> int | None:
    setup = EventDecks.objects.filter(event=event).first()
    return setup.banlist_id if setup else None


def export_registrations(event: Event) -> list[dict[str, Any]]:
    listed = _setup_banlist_id(event)
    rows = DeckRegistration.objects.filter(event=event).select_related("submitted_by").order_by("id")
    return [{"id": r.pk, **_sent(r, REGISTRATION_KEYS, listed), "locked_at": _time(r.locked_at)} for r in rows]


def import_registrations(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    made = ids.more.setdefault("deck_registrations", {})
    for row in rows:
        if not is_format(row["format"]):
            raise ValueError("deck list format")
        registration = DeckRegistration.objects.create(
            event=event,
            player_id=ids.players[int(row["player_id"])],
            **{k: row[k] for k in REGISTRATION_KEYS},
            banlist=_event_banlist(event, row),
            submitted_at=_required_time(row["submitted_at"]),
            submitted_by=ids.user(row.get("submitted_by")),
            locked_at=parse_datetime(row["locked_at"]) if row.get("locked_at") else None,
        )
        made[int(row["id"])] = registration.pk


def export_rejected(event: Event) -> list[dict[str, Any]]:
    listed = _setup_banlist_id(event)
    rows = RejectedDeckList.objects.filter(event=event).select_related("submitted_by").order_by("id")
    return [{"registration_id": r.registration_id, **_sent(r, REJECTED_KEYS, listed)} for r in rows]


def import_rejected(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        if not is_format(row["format"]):
            raise ValueError("deck list format")
        RejectedDeckList.objects.create(
            event=event,
            player_id=ids.players[int(row["player_id"])],
            registration_id=ids.more["deck_registrations"][int(row["registration_id"])],
            **{k: row[k] for k in REJECTED_KEYS},
            banlist=_event_banlist(event, row),
            submitted_at=_required_time(row["submitted_at"]),
            submitted_by=ids.user(row.get("submitted_by")),
        )


transfer.register_section("deck_setup", export_setup, import_setup)
transfer.register_section("deck_lists", export_registrations, import_registrations)
transfer.register_section("rejected_deck_lists", export_rejected, import_rejected)
