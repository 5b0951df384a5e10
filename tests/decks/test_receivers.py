"""Deck lists are stamped locked when the event moves on (a round paired or started), never by a page (DECK-9)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from taikai.audit.models import AuditEntry
from taikai.cli import main as taikai
from taikai.decks import services
from taikai.decks.demo import LEGAL_SHEET
from taikai.decks.models import DeckRegistration
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Event
from taikai.events.services import clock as clock_services
from taikai.events.services import rounds as round_services

pytestmark = pytest.mark.django_db


def stamps(event: Event) -> list[Any]:
    return list(DeckRegistration.objects.filter(event=event).values_list("locked_at", flat=True))


def submit_two(event: Event) -> None:
    for player in event.players.order_by("id")[:2]:
        services.submit_deck(player, DeckInput(text=LEGAL_SHEET), by=PlayerSelf(player))


def set_deadline(event: Event, minutes: int) -> Event:
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() + dt.timedelta(minutes=minutes))
    return Event.objects.get(pk=event.pk)


def test_with_no_deadline_round_one_starting_stamps_the_lock(demo_event: Event, organizer: User) -> None:
    # DECK-9, DECK-10: each match starts from the registered deck
    submit_two(demo_event)
    rnd = round_services.pair_next_round(demo_event, by=Staff(organizer))
    assert stamps(demo_event) == [None, None]  # paired, not started: lists still open
    rnd = clock_services.start_round(rnd, by=Staff(organizer))
    assert stamps(demo_event) == [rnd.started_at, rnd.started_at]
    entry = AuditEntry.objects.get(action="taikai.deck.locked")
    assert entry.actor_label == "deadline" and entry.data["manual"] is False


def test_pairing_a_round_after_the_deadline_stamps_the_lock_at_the_deadline(demo_event: Event, organizer: User) -> None:
    # DECK-9
    submit_two(demo_event)
    event = set_deadline(demo_event, -10)
    round_services.pair_next_round(event, by=Staff(organizer))
    assert stamps(event) == [event.deck_deadline] * 2


def test_a_round_before_the_deadline_stamps_nothing(demo_event: Event, organizer: User) -> None:
    submit_two(demo_event)
    event = set_deadline(demo_event, 60)
    rnd = round_services.pair_next_round(event, by=Staff(organizer))
    clock_services.start_round(rnd, by=Staff(organizer))
    assert stamps(event) == [None, None] and not AuditEntry.objects.filter(action="taikai.deck.locked").exists()


def test_pages_show_the_lock_the_clock_brought_without_writing_it(demo_event: Event, organizer: User) -> None:
    # STYLE 13: reads never write
    submit_two(demo_event)
    event = set_deadline(demo_event, -1)
    client = Client()
    client.force_login(organizer)
    entries = AuditEntry.objects.count()
    overview = client.get(f"/events/{event.pk}/decks/").content.decode()
    detail = client.get(f"/events/{event.pk}/decks/{event.players.order_by('id')[0].pk}/").content.decode()
    assert overview.count("🔒") >= 3 and "🔒" in detail  # the banner and both lists
    assert stamps(event) == [None, None] and AuditEntry.objects.count() == entries


def test_lock_due_command_stamps_every_event_past_its_deadline(
    demo_event: Event, organizer: User, capsys: pytest.CaptureFixture[str]
) -> None:
    # DECK-9: for a deadline with no round after it yet (run from cron)
    submit_two(demo_event)
    event = set_deadline(demo_event, -1)
    assert taikai(["deck", "lock-due"]) == 0
    assert capsys.readouterr().out == f"{event.pk}\t{event.name}\t2\n"  # event, lists stamped
    assert stamps(event) == [event.deck_deadline] * 2
    assert taikai(["deck", "lock-due"]) == 0 and capsys.readouterr().out == ""  # nothing left to stamp


def test_a_judge_change_after_the_deadline_stamps_every_list(demo_event: Event, organizer: User) -> None:
    # DECK-9: the first write after the deadline stamps the lock in its own transaction
    submit_two(demo_event)
    event = set_deadline(demo_event, -1)
    reg = DeckRegistration.objects.filter(event=event).order_by("id").first()
    assert reg is not None
    services.judge_change_deck(reg, by=Staff(organizer), deck=DeckInput(text=LEGAL_SHEET), reason="DECK-9 typo")
    assert stamps(event) == [event.deck_deadline] * 2
