"""Reading the follower's copies: documents, the clock counted down here, a player by their link, the age."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone

from taikai.follow.models import CopiedDocument, CopiedLink, FollowedEvent, QueuedAction

CONNECTED_WITHIN = dt.timedelta(seconds=15)  # the venue turns every second or so when it is there


def followed(event_id: int) -> FollowedEvent | None:
    return FollowedEvent.objects.select_related("token").filter(event_id=event_id).first()


def text(row: FollowedEvent, name: str) -> str | None:
    return CopiedDocument.objects.filter(followed=row, name=name).values_list("body", flat=True).first()


def document(row: FollowedEvent, name: str) -> Any:
    held: dict[str, Any] | None = getattr(row, "_held", None)
    if held is not None:
        return json.loads(held[name]) if name in held else None
    body = text(row, name)
    return None if body is None else json.loads(body)


PAGE_DOCUMENTS = ("event", "players", "rounds", "standings", "placings", "bracket", "_reports", "_shown", "_notices",
                  "_announcement", "_decks")  # fmt: skip


def hold(row: FollowedEvent) -> FollowedEvent:
    """Read what a page shows in one statement: one change of the venue, never half of the one being applied
    (a table shown reported while who reported it is still the change before). ``document`` reads from it."""
    docs = CopiedDocument.objects.filter(followed=row).filter(
        Q(name__in=PAGE_DOCUMENTS) | Q(name__startswith="matches/")
    )
    row._held = dict(docs.values_list("name", "body"))  # type: ignore[attr-defined]
    return row


def clock(row: FollowedEvent, now: float | None = None) -> dict[str, Any] | None:
    """The venue's clock as its API says it, counted down here from the round's end the venue sent."""
    kept = document(row, "clock")
    if kept is None:
        return None
    now = timezone.now().timestamp() if now is None else now
    ends = kept.pop("_ends", None)
    out: dict[str, Any] = {}
    for key, value in kept.items():
        out[key] = value
        if key == "paused":
            out["server_time"] = now
            if kept.get("status") == "running" and ends is not None:
                left = float(ends) - now
                out["status"] = "running" if left > 0 else "time"
                out["remaining"] = round(max(0.0, left), 1)
    if out.get("status") == "time" and ends is not None:
        out["ends_at"] = None
        out["tables_playing"] = [_table(t, float(ends), now) for t in kept.get("tables_playing", [])]
    elif out.get("status") == "running" and ends is not None:
        out["ends_at"] = now + out["remaining"]
    return out


def _table(t: dict[str, Any], ends: float, now: float) -> dict[str, Any]:
    left = ends + t["extension"] - now
    return {
        "table": t["table"],
        "extension": t["extension"],
        "status": "running" if left > 0 else "time",
        "remaining": round(max(0.0, left)),
    }


@dataclass(frozen=True)
class Me:
    """A player on the follower, known by their link's hash (the venue's ``_tokens`` document)."""

    followed: FollowedEvent
    player_id: int
    token_hash: str


def player_for_token(token: str) -> Me | None:
    if not token or len(token) > 100:
        return None
    wanted = hashlib.sha256(token.encode()).hexdigest()
    link = (
        CopiedLink.objects.select_related("followed__token")
        .filter(token_hash=wanted, followed__token__revoked_at__isnull=True)
        .first()
    )
    return Me(link.followed, link.player_id, wanted) if link is not None else None


@dataclass(frozen=True)
class Age:
    venue_time: dt.datetime | None
    connected: bool
    seconds: int  # since the venue last spoke


def age(row: FollowedEvent, now: dt.datetime | None = None) -> Age:
    now = now or timezone.now()
    contact = row.token.last_contact_at
    connected = contact is not None and now - contact <= CONNECTED_WITHIN
    seconds = int((now - contact).total_seconds()) if contact else -1
    return Age(row.venue_time, connected, seconds)


def matches_of(row: FollowedEvent, player_id: int) -> list[dict[str, Any]]:
    """The player's tables, latest round first, as the venue's API listed them."""
    rounds = document(row, "rounds") or []
    pid = str(player_id)
    out = []
    for rnd in sorted(rounds, key=lambda r: -int(r["number"])):
        for m in document(row, f"matches/{rnd['number']}") or []:
            if pid in ((m.get("player_a") or {}).get("id"), (m.get("player_b") or {}).get("id")):
                out.append(m)
    return out


def actions_of(row: FollowedEvent, player_id: int) -> list[QueuedAction]:
    return list(QueuedAction.objects.filter(followed=row, player_id=player_id).order_by("-id")[:20])
