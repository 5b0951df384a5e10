"""The projector's clock.json and the API's clock are one payload (issue 28): the same keys and values at the
same moment, in every state of a round (TIME-1, TIME-4, TIME-E-1)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.events.actors import Staff
from taikai.events.models import Event, Round
from taikai.events.services import clock as clock_services
from taikai.judging import clock_feed
from taikai.judging.services import time_procedure
from tests.factories import pair, play

pytestmark = pytest.mark.django_db

KEYS = {"round", "stage", "status", "paused", "server_time", "remaining", "ends_at", "limit", "tables_playing", "table"}


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> dt.datetime:
    """One fixed moment for both edges, so their answers can be compared value for value."""
    at = timezone.now().replace(microsecond=0)
    monkeypatch.setattr(clock_feed, "timezone", SimpleNamespace(now=lambda: at))
    return at


def both(client: Client, event: Event, query: str = "") -> dict[str, Any]:
    web = client.get(f"/e/{event.pk}/clock.json{query}")
    api = client.get(f"/api/v1/events/{event.pk}/clock{query}")
    assert web.status_code == api.status_code == 200
    assert set(web.json()) == KEYS
    assert web.json() == api.json()
    payload: dict[str, Any] = web.json()
    return payload


def test_no_round_yet(client: Client, event: Event, moment: dt.datetime) -> None:
    feed = both(client, event)
    assert feed["round"] is None and feed["status"] == "none" and feed["paused"] is False
    assert feed["server_time"] == moment.timestamp()


def test_a_running_round_and_one_tables_own_clock(
    client: Client, event: Event, organizer: User, moment: dt.datetime
) -> None:
    matches = pair(event, organizer)
    clock_services.start_round(matches[0].round, by=Staff(organizer))
    feed = both(client, event)
    assert feed["status"] == "running" and feed["ends_at"] > feed["server_time"] and feed["table"] is None
    own = both(client, event, f"?table={matches[0].table}")["table"]
    assert own["table"] == matches[0].table and own["status"] == "running" and own["extension"] == 0
    assert both(client, event, "?table=²")["table"] is None  # an unreadable table is no table, on both


def test_a_paused_round(client: Client, event: Event, organizer: User, moment: dt.datetime) -> None:
    rnd = pair(event, organizer)[0].round
    clock_services.pause_round(clock_services.start_round(rnd, by=Staff(organizer)), by=Staff(organizer))
    feed = both(client, event)
    assert feed["status"] == "paused" and feed["paused"] is True and feed["ends_at"] is None


def test_time_called_lists_the_tables_with_their_extra_turns(
    client: Client, event: Event, organizer: User, moment: dt.datetime
) -> None:  # TIME-S-1
    matches = pair(event, organizer)
    rnd = clock_services.start_round(matches[0].round, by=Staff(organizer))
    Round.objects.filter(pk=rnd.pk).update(started_at=timezone.now() - dt.timedelta(minutes=41))
    run = time_procedure.start(matches[0], by=Staff(organizer), between=False, turn_player="A", duels=[])
    time_procedure.give(run, by=Staff(organizer), step=["turn_end"])
    feed = both(client, event, f"?table={matches[0].table}")
    assert feed["status"] == "time" and feed["remaining"] == 0
    tables = {t["table"]: t for t in feed["tables_playing"]}
    assert list(tables) == sorted(m.table for m in matches)
    assert tables[matches[0].table]["procedure"]["phase"] == "extra_turn"
    assert tables[matches[1].table]["procedure"] is None
    assert feed["table"]["status"] == "time"


def test_a_finished_round(client: Client, event: Event, organizer: User, moment: dt.datetime) -> None:
    matches = pair(event, organizer)
    clock_services.start_round(matches[0].round, by=Staff(organizer))
    play(event, organizer, matches)
    feed = both(client, event, f"?table={matches[0].table}")
    assert feed["status"] == "finished" and feed["remaining"] == 0 and feed["tables_playing"] == []
    assert feed["table"]["status"] == "finished"
