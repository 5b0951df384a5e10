"""Issue 25 (the attack bench's big deck lists on PostgreSQL): a deck list sent reads the event's deck setup
twice (once before its names are resolved, to refuse a locked event early, and once inside the write), with its
Forbidden/Limited list in the same statement, and checks the card table's stamp in one statement."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from taikai.events.models import Event
from tests.api.test_flow import _register_four
from tests.factories import Api


def test_a_deck_list_reads_the_deck_setup_twice_and_the_card_stamp_once(organizer_api: Api, api_event: Event) -> None:
    from taikai.decks.demo import LEGAL_SHEET, _demo_list_name, load_demo_cards
    from taikai.events.models import Event

    load_demo_cards()
    Event.objects.filter(pk=api_event.pk).update(banlist_name=_demo_list_name())
    pid, token = next(iter(_register_four(organizer_api, api_event.pk).items()))
    me = organizer_api.as_player(token)
    assert me.put(f"/events/{api_event.pk}/players/{pid}/deck", {"text": LEGAL_SHEET}).status_code == 200
    for sheet in (LEGAL_SHEET, "3 no such card\n" * 50):  # a legal list, and one kept as rejected
        with CaptureQueriesContext(connection) as queries:
            r = me.put(f"/events/{api_event.pk}/players/{pid}/deck", {"text": sheet})
        assert r.status_code == 200
        statements = [q["sql"] for q in queries.captured_queries]
        assert sum('FROM "decks_eventdecks"' in sql for sql in statements) == 2, statements
        assert not [sql for sql in statements if sql.startswith('SELECT "cards_banlist"')]  # joined to the setup
        assert sum("FROM cards_card" in sql and "SUM(passcode)" in sql for sql in statements) == 1
        assert not [sql for sql in statements if 'FROM "cards_importrecord"' in sql]
