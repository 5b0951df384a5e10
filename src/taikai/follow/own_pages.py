"""On the follower: what a player's own page shows beside their table, from the copy's private documents
(``taikai.follow.player_documents``), in the shapes the venue's page templates read: their notices, and their
deck list in short for ``decks/_status.html``. Sending a deck list or setting a PIN needs the venue's own rows:
the page says so, in words (「会場で…」)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

from django.utils import timezone
from django.utils.translation import get_language

from taikai.follow import copies
from taikai.follow.models import FollowedEvent, QueuedAction


def _mine(row: FollowedEvent, player_id: int) -> list[dict[str, str]]:
    return list((copies.document(row, "_notices") or {}).get(str(player_id), []))


def notices(row: FollowedEvent, player_id: int, done: list[QueuedAction]) -> list[tuple[SimpleNamespace, str, str]]:
    """(notice, its words, the table's result now) as the venue's page lists them, in the visitor's language;
    one the player closed here (``done``: their actions) is gone at once, closed at the venue when it takes it."""
    closing = {str(a.payload.get("notice")) for a in done if a.kind == QueuedAction.Kind.CLOSE_NOTICE}
    lang = "en" if (get_language() or "ja").startswith("en") else "ja"
    return [
        (SimpleNamespace(pk=int(n["id"])), n[lang], n[f"result_{lang}"])
        for n in _mine(row, player_id)
        if n["id"] not in closing
    ]


def has_notice(row: FollowedEvent, player_id: int, notice_id: int) -> bool:
    return any(n["id"] == str(notice_id) for n in _mine(row, player_id))


def _when(text: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(text) if text else None


def deck(row: FollowedEvent, player_id: int, now: dt.datetime | None = None) -> dict[str, Any]:
    """The context ``decks/_status.html`` reads (``registration``, ``locked``), from the copy, and how many
    problems a list that is not legal has (they are listed on the venue's deck page)."""
    doc = copies.document(row, "_decks") or {}
    lock_at = _when(doc.get("lock_at"))
    locked = lock_at is not None and (now or timezone.now()) >= lock_at
    mine = (doc.get("players") or {}).get(str(player_id))
    if mine is None:
        return {"registration": None, "locked": locked, "deck_problems": 0}
    registration = SimpleNamespace(
        legal=mine["legal"],
        mixed_languages=mine["mixed_languages"],
        counts=mine["counts"],
        version=mine["version"],
        submitted_at=_when(mine["submitted_at"]),
        submitted_by=SimpleNamespace(get_username=mine["by_staff"]) if mine["by_staff"] else None,
        languages=mine["languages"],
        locked_at=_when(mine["locked_at"]),
    )
    return {"registration": registration, "locked": locked, "deck_problems": mine["problems"]}
