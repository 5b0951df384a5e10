"""`taikai demo` deck lists: the bundled card set is loaded only into an empty card table."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from taikai.cards.models import Card
from taikai.decks import lock, overview
from taikai.decks.demo import add_demo_decks, load_demo_cards
from taikai.events.actors import Staff
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def test_demo_decks_fill_every_deck_page(organizer: User) -> None:
    event = make_event(organizer, 16)
    assert add_demo_decks(event, by=Staff(organizer)) == 15
    counts = overview.counts(overview.deck_overview(event))
    assert counts == {"players": 16, "legal": 12, "illegal": 3, "missing": 1, "mixed_languages": 2}
    assert lock.deck_setup(event).banlist is not None


def test_the_demo_card_set_is_loaded_only_into_an_empty_card_table(db: None) -> None:
    assert load_demo_cards() is True
    count = Card.objects.count()
    assert count == 48
    assert load_demo_cards() is False and Card.objects.count() == count
