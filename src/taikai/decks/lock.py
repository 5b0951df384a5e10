"""When deck lists lock (DECK-9): the deadline, or the first round's start, or staff's early lock.

With ``Event.deck_deadline`` set, lists lock at the deadline. With none, they lock when the first round
starts: each match starts from the registered deck (DECK-10). Staff may lock them earlier by hand.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from taikai.audit.actions import register as register_action
from taikai.audit.services import record
from taikai.decks.models import DeckRegistration, EventDecks
from taikai.events.actors import Actor, Staff, System
from taikai.events.models import Event
from taikai.events.permissions import require_staff

DECKS_LOCKED = register_action("taikai.deck.locked", _("Deck lists locked"))


def deck_setup(event: Event) -> EventDecks:
    # with its Forbidden/Limited list: a submission reads both (one statement, not two)
    return EventDecks.objects.select_related("banlist").filter(event=event).first() or EventDecks(event=event)


def first_round_start(event: Event) -> dt.datetime | None:
    started: dt.datetime | None = (
        event.rounds.filter(started_at__isnull=False)
        .order_by("started_at")
        .values_list("started_at", flat=True)
        .first()
    )
    return started


def lock_time(event: Event, setup: EventDecks | None = None) -> dt.datetime | None:
    """When lists lock: staff's early lock, the deadline, or (with no deadline) the first round's start.
    ``setup``: the event's deck setup when the caller has just read it (one read a submission, not three)."""
    setup = setup or deck_setup(event)
    times = [t for t in (setup.locked_at, event.deck_deadline) if t is not None]
    if event.deck_deadline is None:
        started = first_round_start(event)
        if started is not None:
            times.append(started)
    return min(times) if times else None


def is_locked(event: Event, now: dt.datetime | None = None, setup: EventDecks | None = None) -> bool:
    at = lock_time(event, setup)
    return at is not None and (now or timezone.now()) >= at


def lock_decks(event: Event, *, by: Actor) -> int:
    """Lock every list of ``event`` now (staff before the deadline), or stamp the lock that the
    deadline or the first round already brought (``System``). Returns the number of lists newly stamped."""
    require_staff(by, event)
    with transaction.atomic():
        setup, _created = EventDecks.objects.select_for_update().get_or_create(event=event)
        now = timezone.now()
        manual = isinstance(by, Staff) and not is_locked(event, now)
        if manual:
            setup.locked_at = now
            setup.version += 1
            setup.save(update_fields=["locked_at", "version"])
        elif not is_locked(event, now):
            return 0
        at = now if manual else (lock_time(event) or now)  # a stamp written late still says when lists locked
        stamped = DeckRegistration.objects.filter(event=event, locked_at__isnull=True).update(locked_at=at)
        if manual or stamped:
            record(
                DECKS_LOCKED,
                actor=by,
                obj=setup,
                after={"locked_at": at.isoformat(), "lists": stamped},
                manual=manual,
            )
    return stamped


def lock_due(event: Event, now: dt.datetime | None = None) -> int:
    """Stamp the lock that time brought (the deadline passed, or round 1 started) on lists not yet stamped.

    Pages never call this (STYLE 13: reads never write; they show ``is_locked``, computed from the clock).
    It runs when the event moves on, through the service that moves it: a round paired or started
    (decks/receivers.py), and ``taikai deck lock-due`` for a deadline with no round after it yet.
    """
    if not is_locked(event, now) or not DeckRegistration.objects.filter(event=event, locked_at__isnull=True).exists():
        return 0
    return lock_decks(event, by=System("deadline"))


def events_due(now: dt.datetime | None = None) -> list[Event]:
    """Events whose lists are locked by time but carry lists not yet stamped (for ``taikai deck lock-due``)."""
    ids = DeckRegistration.objects.filter(locked_at__isnull=True).values_list("event_id", flat=True).distinct()
    return [e for e in Event.objects.filter(pk__in=ids).order_by("id") if is_locked(e, now)]
