"""A new deck format is one module and one entry in cards.deck_formats (docs/architecture.md, "Four changes a
new engineer makes"): registered here in the registry alone, a list in it is read and stored under its name,
and the player's page, the download, the event's zip and `taikai deck export` offer it."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from taikai.cards import deck_formats
from taikai.cards.deck_formats import DeckFormat
from taikai.cards.formats import DeckFormatError, read_ydk
from taikai.cards.textsheet import TextSheet
from taikai.cli import main
from taikai.core.deck import Deck
from taikai.decks import services
from taikai.decks.services import DeckInput
from taikai.events.actors import PlayerSelf, Staff
from taikai.events.models import Event
from taikai.events.services import links
from tests.factories import SAMPLE_TEXT

pytestmark = pytest.mark.django_db

HEADER = "#made-up deck code"


def _read(text: str, resolver: Any) -> TextSheet:
    """A made-up format: the header line, then ``main:``/``extra:``/``side:`` and comma-separated passcodes."""
    parts = dict(line.split(":", 1) for line in text.strip().splitlines()[1:])
    try:
        codes = [tuple(int(p) for p in parts.get(s, "").split(",") if p.strip()) for s in ("main", "extra", "side")]
    except ValueError as exc:
        raise DeckFormatError("not a passcode") from exc
    return TextSheet(Deck(*codes), format="made-up")


def _write(deck: Deck, cards: Any, lang: str) -> str:
    return "\n".join([HEADER, *(f"{s}:{','.join(map(str, deck.section(s)))}" for s in ("main", "extra", "side"))])


MADE_UP = DeckFormat("made-up", "Made-up code", lambda text, name: text.startswith(HEADER), _read, _write, ".mu")


@pytest.fixture
def registered() -> Iterator[None]:
    deck_formats.FORMATS.insert(0, MADE_UP)
    yield
    deck_formats.FORMATS.remove(MADE_UP)


def test_a_list_in_the_new_format_is_read_stored_and_offered_back(
    registered: None,
    client: Client,
    event: Event,
    organizer: User,
    real_cards: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    player = event.players.order_by("id").first()
    first = services.submit_deck(player, DeckInput(text=SAMPLE_TEXT), by=PlayerSelf(player))
    code = _write(first.deck, {}, "ja")
    reg = services.submit_deck(player, DeckInput(text=code), by=PlayerSelf(player))
    assert reg.format == "made-up" and reg.deck == first.deck
    token = links.issue_access(player, by=Staff(organizer))
    assert (
        f'/p/{token}/deck/export/made-up/" download>Made-up code</a>'
        in client.get(f"/p/{token}/deck/").content.decode()
    )
    assert client.get(f"/p/{token}/deck/export/made-up/").content.decode() == code
    assert read_ydk(client.get(f"/p/{token}/deck/export/ydk/").content.decode()) == reg.deck  # the others stay
    client.force_login(organizer)
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"/events/{event.pk}/decks/export.zip").content))
    assert any(n.startswith("made-up/") and n.endswith(".mu") for n in archive.namelist())
    capsys.readouterr()
    assert main(["deck", "export", str(event.pk), "--player", str(player.pk), "--format", "made-up"]) == 0
    assert capsys.readouterr().out.strip() == code
