"""Announcements (お知らせ): the organizer's short message to the projector and every player's page.

The message is shown as the organizer wrote it, in the event's language (taikai translates its own words, never
the organizer's), until the next one replaces it or the organizer clears it. Each is made on the announcement the
organizer saw: two organizers sending at once do not replace each other's message unseen.
"""

from __future__ import annotations

import unicodedata

from django.db import transaction

from taikai.audit.services import record
from taikai.events import actions
from taikai.events.actors import Actor, user_of
from taikai.events.errors import Conflict, ServiceError
from taikai.events.models import Announcement, Event
from taikai.events.permissions import require_organizer

MAX_CHARS = 140  # two lines of the projector's large type; a phone shows it without scrolling
FIELD = "announcement"


def current(event_id: int) -> Announcement | None:
    """The announcement on show, or None (none sent yet, or the last one cleared)."""
    latest = Announcement.objects.filter(event_id=event_id).first()
    return latest if latest is not None and latest.text else None


def seen_id(event_id: int) -> int:
    """What a form carries as the announcement the organizer saw: the latest row's id (0: none yet)."""
    return Announcement.objects.filter(event_id=event_id).values_list("id", flat=True).first() or 0


def announce(event: Event, *, by: Actor, text: str, seen: int) -> Announcement:
    """Show ``text`` on the projector and every player's page; an empty text clears what is shown."""
    require_organizer(by, event)
    cleaned = _cleaned(text)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()  # one announcement at a time per event
        latest = Announcement.objects.filter(event=event).first()
        if (latest.pk if latest else 0) != seen:
            raise Conflict("announcement-changed", text=latest.text if latest else "")
        if not cleaned and (latest is None or not latest.text):
            raise ServiceError("required", field=FIELD)
        made = Announcement.objects.create(event=event, text=cleaned, sent_by=user_of(by))
        record(
            actions.ANNOUNCEMENT_SENT if cleaned else actions.ANNOUNCEMENT_CLEARED,
            actor=by,
            obj=made,
            before={"text": latest.text if latest else ""},
            after={"text": cleaned},
        )
    return made


def _cleaned(text: str) -> str:
    """NFC, line breaks as one kind, no other control or format characters (an emoji's joiner aside), at most
    ``MAX_CHARS`` characters; blank lines dropped."""
    value = unicodedata.normalize("NFC", text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if any(unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\n\u200d" for ch in value):
        raise ServiceError("bad-characters", field=FIELD)
    if len(value) > MAX_CHARS:
        raise ServiceError("too-long", field=FIELD, limit=MAX_CHARS)
    return "\n".join(line.strip() for line in value.split("\n") if line.strip())
