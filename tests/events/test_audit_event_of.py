"""An audit entry is filed under the event of the row it is about, said once by the row (audit.services.event_of)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from taikai.audit.actions import ORGANIZER_CREATED
from taikai.audit.services import record
from taikai.events.actors import Staff
from taikai.events.services import rounds
from tests.factories import make_event


def test_an_entry_is_filed_under_its_rows_event(organizer: User) -> None:
    event = make_event(organizer, 4)
    other = make_event(organizer, 2)
    rnd = rounds.pair_next_round(event, by=Staff(organizer))
    match = rnd.matches.first()
    assert match is not None
    with transaction.atomic():
        entries = {
            "event": record(ORGANIZER_CREATED, obj=event),
            "player": record(ORGANIZER_CREATED, obj=event.players.first()),
            "round": record(ORGANIZER_CREATED, obj=rnd),
            "match": record(ORGANIZER_CREATED, obj=match),  # a table has its event through its round
            "account": record(ORGANIZER_CREATED, obj=organizer),  # outside any event
            "said": record(ORGANIZER_CREATED, obj=match, event_id=other.pk),
            "none": record(ORGANIZER_CREATED, obj=match, event_id=None),
        }
    got = {name: entry.event_id for name, entry in entries.items()}
    assert got == {
        "event": event.pk,
        "player": event.pk,
        "round": event.pk,
        "match": event.pk,
        "account": None,
        "said": other.pk,
        "none": None,
    }
