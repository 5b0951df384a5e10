"""Issue 27: a deck list's names are resolved in a bounded number of statements, whatever its length (one
statement per card made the attack bench's big deck lists 15× the quiet p99)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from taikai.cards.check import resolve_deck_text
from taikai.cards.formats import read_ydk
from taikai.cards.index import DbCardIndex, MemoryCardIndex
from taikai.cards.models import Card
from taikai.decks import services
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf
from taikai.events.models import Event
from tests.factories import EXTRA_CARDS, SAMPLE_TEXT

pytestmark = pytest.mark.django_db


def _sheet(cards: int) -> str:
    """A Japanese text sheet of ``cards`` cards, one to three copies a line, from the real names."""
    index = DbCardIndex()
    passcodes = sorted({*read_ydk(SAMPLE_TEXT).all_cards(), *EXTRA_CARDS})
    facts = index.facts(passcodes)
    lines, left = [], cards
    for p in passcodes:
        if left == 0:
            break
        copies = min(3, left)
        lines.append(f"{copies} {facts[p].name_ja}")
        left -= copies
    assert left == 0
    return "メインデッキ\n" + "\n".join(lines) + "\n存在しないカード名\n"  # one unknown name: suggestions too


def _statements(text: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        resolved = resolve_deck_text(text)
    assert [p.code for p in resolved.problems] == ["unknown-card"]
    assert resolved.problems[0].params["matches"]  # the closest names still come
    return len(queries.captured_queries)


def test_a_60_card_list_costs_the_statements_a_15_card_list_does(real_cards: None) -> None:
    big, small = _sheet(60), _sheet(15)
    resolve_deck_text(big)  # the process's name table is loaded once, by the first list
    assert len(resolve_deck_text(big).deck.main) == 60
    assert len(resolve_deck_text(small).deck.main) == 15
    assert _statements(big) == _statements(small) <= 4


def test_submitting_a_60_card_list_costs_what_a_15_card_one_does(real_cards: None, event: Event) -> None:
    a, b, c, _ = event.players.order_by("id")
    services.submit_deck(c, DeckInput(text=_sheet(15)), by=PlayerSelf(c))  # the name table, the list's copy
    counts = []
    for player, cards in ((a, 60), (b, 15)):
        with CaptureQueriesContext(connection) as queries:
            services.submit_deck(player, DeckInput(text=_sheet(cards)), by=PlayerSelf(player))
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_resolve_many_answers_as_resolve_on_both_indexes(real_cards: None) -> None:
    names = ["灰流うらら", "ASH BLOSSOM & JOYOUS SPRING", "灰流ウララ", "23434538", "no such card", "強欲な壺"]
    db = DbCardIndex()
    memory = MemoryCardIndex(db.facts(Card.objects.values_list("passcode", flat=True)).values())
    with CaptureQueriesContext(connection) as queries:
        many = db.resolve_many(names)
    assert len(queries.captured_queries) <= 3  # the table's stamp, (its names, first time), the rows found
    assert many == {name: db.resolve(name) for name in names}
    assert memory.resolve_many(names) == {name: memory.resolve(name) for name in names}
    assert many == memory.resolve_many(names)
