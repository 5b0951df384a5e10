"""At the venue: what the players' own pages show that the public API does not, as private documents of the
copy (``taikai.follow.documents`` adds them to every change; the follower never serves them as they are).

- ``_notices``: each player's open notices (issue 22: whoever a decision affects is told), in the venue's
  words in Japanese and English, with the table's result now where it is decided, as the venue's page says
  them; the follower shows them in the visitor's language and relays a close.
- ``_announcement``: the organizer's announcement on show, as ``announcement.json`` says it.
- ``_decks``: each player's registered deck list in short (legal, counts, version, when, languages, locked),
  never the list itself, and when lists lock; sending one stays at the venue.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation

from taikai.decks.lock import lock_time
from taikai.decks.models import DeckRegistration
from taikai.events.models import Event, Match, Notice
from taikai.events.notice_texts import notice_text
from taikai.events.result_words import result_text
from taikai.events.round_words import round_name
from taikai.events.services import announcements

NOTICES_SHOWN = 10  # as the venue's page: the latest ten open notices of a player


def build(event_id: int) -> dict[str, Any]:
    event = Event.objects.get(pk=event_id)
    return {"_notices": _notices(event_id), "_announcement": _announcement(event_id), "_decks": _decks(event)}


def _notices(event_id: int) -> dict[str, list[dict[str, str]]]:
    rows = (
        Notice.objects.filter(event_id=event_id, closed_at__isnull=True)
        .select_related("match__round", "match__player_a", "match__player_b")
        .order_by("player_id", "-id")
    )
    out: dict[str, list[dict[str, str]]] = {}
    for notice in rows:
        mine = out.setdefault(str(notice.player_id), [])
        if len(mine) < NOTICES_SHOWN:
            mine.append({"id": str(notice.pk), **_words(notice)})
    return out


def _words(notice: Notice) -> dict[str, str]:
    """The notice and the table's result now, as the venue's page says them (``player_home``), in both languages."""
    out = {}
    decided = notice.match is not None and notice.match.status == Match.Status.CONFIRMED
    for lang in ("ja", "en"):
        with translation.override(lang):
            named = round_name(notice.match.round) if notice.match is not None else ""
            out[lang] = notice_text(notice.kind, notice.params, lang, named)
            out[f"result_{lang}"] = result_text(notice.match) if decided and notice.match is not None else ""
    return out


def _announcement(event_id: int) -> dict[str, Any]:
    shown = announcements.current(event_id)
    return {
        "id": announcements.seen_id(event_id),
        "text": shown.text if shown else "",
        "sent_at": shown.sent_at.isoformat() if shown else None,
    }


def _decks(event: Event) -> dict[str, Any]:
    lists = DeckRegistration.objects.filter(event=event).select_related("submitted_by")
    locks = lock_time(event)
    return {
        "lock_at": locks.isoformat() if locks else None,
        "players": {
            str(r.player_id): {
                "legal": r.legal,
                "mixed_languages": r.mixed_languages,
                "counts": r.counts,
                "version": r.version,
                "submitted_at": r.submitted_at.isoformat(),
                "by_staff": r.submitted_by.get_username() if r.submitted_by else "",
                "languages": list(r.languages),
                "locked_at": r.locked_at.isoformat() if r.locked_at else None,
                "problems": len(r.problems),
            }
            for r in lists
        },
    }
