"""The clock feed every screen reads: one truth, and the tables still playing after time (TIME-1, TIME-E-1)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.events.actors import Staff
from taikai.events.models import Round
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services
from taikai.judging.services import time_procedure
from tests.factories import make_event

pytestmark = pytest.mark.django_db


def test_after_time_the_feed_lists_tables_with_their_extra_turn(organizer: User, client: Client) -> None:  # TIME-S-1
    event = make_event(organizer, 4)
    rnd = clock_services.start_round(round_services.pair_next_round(event, by=Staff(organizer)), by=Staff(organizer))
    feed = client.get(f"/e/{event.pk}/clock.json").json()
    assert feed["status"] == "running" and feed["limit"] == event.ruleset.time.match_minutes * 60
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(minutes=41))
    m1, m2 = rnd.matches.order_by("table")
    run = time_procedure.start(m1, by=Staff(organizer), between=False, turn_player="A", duels=[{"winner": "A"}])
    time_procedure.give(run, by=Staff(organizer), step=["turn_end"])  # extra turn 1 is the opponent's (B)
    feed = client.get(f"/e/{event.pk}/clock.json").json()
    assert feed["status"] == "time" and feed["remaining"] == 0
    tables = {t["table"]: t for t in feed["tables_playing"]}
    assert set(tables) == {m1.table, m2.table}
    assert tables[m1.table]["procedure"] == {
        "phase": "extra_turn",
        "turn": 1,
        "turns": event.ruleset.time.extra_turns,
        "turn_player": "B",
        "extra_duel": False,
    }
    assert tables[m2.table]["procedure"] is None
