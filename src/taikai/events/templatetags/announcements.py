from __future__ import annotations

from django import template

from taikai.events.models import Announcement, Event
from taikai.events.services import announcements

register = template.Library()


@register.simple_tag
def current_announcement(event: Event) -> Announcement | None:
    """The announcement on show on this event's pages, or None."""
    copied = getattr(event, "copied_announcement", None)  # a public follower's copy of a venue's (taikai.follow)
    if copied is not None:
        return copied if copied.text else None
    return announcements.current(event.pk)


@register.simple_tag
def announcement_seen(event: Event) -> int:
    copied = getattr(event, "copied_announcement", None)
    return int(copied.pk) if copied is not None else announcements.seen_id(event.pk)


@register.simple_tag
def announcement_history(event: Event, count: int = 5) -> list[Announcement]:
    return list(Announcement.objects.filter(event=event).exclude(text="").select_related("sent_by")[:count])


@register.simple_tag
def announcement_limit() -> int:
    return announcements.MAX_CHARS
