"""DeckArchetype moved from the API app to decks, PrizePublication to judging (issue 28): the migrations move
only Django's idea of the owner; the tables and every row stay, forwards and backwards, on either database."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from taikai.decks.models import DeckArchetype
from taikai.judging.models import PrizePublication
from tests.events.conftest import make_event
from tests.events.conftest import organizer as organizer  # noqa: F401  (the fixture)

BEFORE = [
    ("taikai_api", "0004_webhook_disabling"),
    ("decks", "0004_deck_format_omega_code"),
    ("judging", "0004_judgecall_ruling_and_extended_seconds"),
]
AFTER = [("taikai_api", "0005_archetypes_and_prize_publication_moved")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_rows_written_under_the_api_app_are_read_by_their_new_apps(organizer: Any) -> None:
    event = make_event(organizer, 2)
    first, second = event.players.order_by("id")
    old = _migrate(BEFORE)
    old.get_model("taikai_api", "DeckArchetype").objects.create(player_id=first.pk, name="ティアラメンツ")
    old.get_model("taikai_api", "PrizePublication").objects.create(event_id=event.pk, published_by_id=organizer.pk)
    try:
        new = _migrate(AFTER)
        assert [(a.player_id, a.name) for a in new.get_model("decks", "DeckArchetype").objects.all()] == [
            (first.pk, "ティアラメンツ")
        ]
        assert new.get_model("judging", "PrizePublication").objects.get().event_id == event.pk
        with pytest.raises(LookupError):
            new.get_model("taikai_api", "DeckArchetype")
        DeckArchetype.objects.create(player=second, name="Snake-Eye")  # written through the moved model
        back = _migrate(BEFORE)  # and back again: still the same table
        assert back.get_model("taikai_api", "DeckArchetype").objects.count() == 2
    finally:  # every app at its latest migration again (BEFORE also took back the later ones, e.g. judging 0005)
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert DeckArchetype.objects.get(player=first).name == "ティアラメンツ"
    assert PrizePublication.objects.get(event=event).published_by_id == organizer.pk
    assert DeckArchetype._meta.db_table == "taikai_api_deckarchetype"
