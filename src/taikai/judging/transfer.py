"""The judging app's part of the event file (taikai.events.services.transfer): the prize table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from taikai.events.models import Event
from taikai.events.services import transfer
from taikai.judging.models import PrizeRank


def export_prizes(event: Event) -> list[dict[str, Any]]:
    return [
        {"label": r.label, "first": r.first, "last": r.last, "shared": r.shared}
        for r in PrizeRank.objects.filter(event=event).order_by("first", "id")
    ]


def import_prizes(event: Event, rows: list[dict[str, Any]], new_ids: Mapping[int, int]) -> None:
    for row in rows:
        first, last = int(row["first"]), int(row["last"])
        if not 1 <= first <= last or not str(row["label"]).strip():
            raise ValueError("prize rank")
        PrizeRank.objects.create(
            event=event, label=str(row["label"])[:100], first=first, last=last, shared=bool(row.get("shared", True))
        )


transfer.register_section("prize_ranks", export_prizes, import_prizes)
