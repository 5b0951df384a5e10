"""The venue reads an event's documents for its follower in one snapshot (taikai.follow.documents.build)."""

from __future__ import annotations

import pytest
from django.db import connection

from taikai.follow import documents
from tests.factories import build_world


@pytest.mark.django_db(transaction=True)  # outside any transaction, as the venue's connection thread reads
def test_the_documents_are_read_in_one_snapshot_outside_any_transaction() -> None:
    world = build_world()
    assert not connection.in_atomic_block
    docs = documents.build(world.event.pk)
    m = world.match()
    assert {x["id"] for x in docs[f"matches/{m.round.number}"]} >= {str(m.pk)}
    assert docs["_reports"] == {} and not connection.in_atomic_block
