"""Deck registration listens to the rounds (taikai.events.signals): when the event moves on, the lock that
time brought is stamped on the lists (DECK-9, DECK-10), by the round's service rather than by a page."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from taikai.decks.lock import lock_due
from taikai.events import signals
from taikai.events.models import Event


@receiver(signals.round_started, dispatch_uid="decks.lock_when_a_round_starts")
@receiver(signals.round_paired, dispatch_uid="decks.lock_when_a_round_is_paired")
def stamp_lock(sender: Any, *, event_id: int, **kwargs: Any) -> None:
    # With no deadline, lists lock as round 1 starts; with one, a round paired or started after it is
    # the moment the event shows it has passed.
    lock_due(Event.objects.get(pk=event_id))
