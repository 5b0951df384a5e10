"""What a deck test reads back from ``submit_deck``: the registered list, or the one kept aside (DECK-9)."""

from __future__ import annotations

from taikai.decks.models import DeckRegistration, RejectedDeckList
from taikai.decks.services import Submitted


def accepted(sent: Submitted) -> DeckRegistration:
    """The list sent became the player's registered list (no legal list stood in its way)."""
    assert isinstance(sent, DeckRegistration), f"not accepted, the registered list stays: {sent.problems}"
    return sent


def not_accepted(sent: Submitted) -> RejectedDeckList:
    """The list sent was not accepted and is kept beside the registered legal list."""
    assert isinstance(sent, RejectedDeckList), f"registered as version {sent.version}"
    return sent
