"""At the venue: what the organizer's dashboard says of the public follower (「公開ページ: https://… 接続中」)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from taikai.follow.models import PushLink

STALE = dt.timedelta(seconds=30)  # the connection stamps its row every 10 s while it is up


@dataclass(frozen=True)
class LinkState:
    url: str
    connected: bool
    since: dt.datetime | None
    last_ok_at: dt.datetime | None
    actions_applied: int


def links(now: dt.datetime | None = None) -> list[LinkState]:
    """Each follower this venue connects to; one not stamped lately is down (``taikai serve`` may have stopped)."""
    now = now or timezone.now()
    return [
        LinkState(
            row.url,
            row.connected and row.last_ok_at is not None and now - row.last_ok_at <= STALE,
            row.since,
            row.last_ok_at,
            row.actions_applied,
        )
        for row in PushLink.objects.order_by("id")
    ]
