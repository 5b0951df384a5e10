"""The API app's part of the event file (taikai.events.services.transfer, docs/event-json.md): each player's
declared deck archetype (デッキタイプ) and whether the organizer published the prize list."""

from __future__ import annotations

from typing import Any

from django.utils.dateparse import parse_datetime

from taikai.decks.models import DeckArchetype
from taikai.events.models import Event
from taikai.events.services import transfer
from taikai.events.services.transfer_ids import Ids
from taikai.judging.models import PrizePublication


def export_archetypes(event: Event) -> list[dict[str, Any]]:
    rows = DeckArchetype.objects.filter(player__event=event).order_by("player_id")
    return [{"player_id": a.player_id, "name": a.name} for a in rows]


def import_archetypes(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows:
        DeckArchetype.objects.create(player_id=ids.players[int(row["player_id"])], name=str(row["name"])[:60])


def export_publication(event: Event) -> list[dict[str, Any]]:
    found = PrizePublication.objects.filter(event=event).select_related("published_by").first()
    if found is None:
        return []
    return [{"published_by": found.published_by.get_username(), "published_at": found.published_at.isoformat()}]


def import_publication(event: Event, rows: list[dict[str, Any]], ids: Ids) -> None:
    for row in rows[:1]:
        made = PrizePublication.objects.create(event=event, published_by=ids.user(row.get("published_by")) or ids.owner)
        when = parse_datetime(str(row.get("published_at") or ""))
        if when is not None:  # stamped on insert: the file's time is written after
            PrizePublication.objects.filter(pk=made.pk).update(published_at=when)


transfer.register_section("deck_archetypes", export_archetypes, import_archetypes)
transfer.register_section("prize_publication", export_publication, import_publication)
