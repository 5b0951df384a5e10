"""Registered decks out: ``.ydk`` (YGOPro and EDOPro load it), ``ydke://``, the YGO Omega deck code and
the Japanese text sheet; one deck, or every deck of an event as one zip. Reads only."""

from __future__ import annotations

import io
import re
import zipfile

from taikai.cards.deck_formats import FORMATS, DeckFormat
from taikai.cards.index import DbCardIndex
from taikai.decks.models import DeckRegistration
from taikai.events.models import Event

_UNSAFE = re.compile(r"[\\/:*?\"<>|\x00-\x1f]+")


def registration_for(event: Event, player_id: int) -> DeckRegistration | None:
    return DeckRegistration.objects.filter(event=event, player_id=player_id).select_related("player").first()


def file_name(registration: DeckRegistration, fmt: DeckFormat) -> str:
    """``<player id>-<name>.ydk``: the player's name kept (Japanese too), what a file system refuses removed."""
    name = _UNSAFE.sub("_", registration.player.name).strip(" .") or "player"
    return f"{registration.player_id}-{name[:40]}{fmt.suffix}"


def deck_file(registration: DeckRegistration, fmt: DeckFormat, lang: str = "ja") -> tuple[str, str]:
    """(file name, content) of one registered deck."""
    deck = registration.deck
    return file_name(registration, fmt), fmt.write(deck, DbCardIndex().facts(deck.all_cards()), lang)


def event_zip(event: Event, lang: str = "ja") -> tuple[bytes, int]:
    """Every registered deck of ``event`` in each format, one folder per format; (zip bytes, decks)."""
    registrations = list(DeckRegistration.objects.filter(event=event).select_related("player"))
    cards = DbCardIndex().facts(p for r in registrations for p in r.deck.all_cards())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for registration in registrations:
            for fmt in FORMATS:
                content = fmt.write(registration.deck, cards, lang)
                archive.writestr(f"{fmt.exported_as}/{file_name(registration, fmt)}", content)
    return buffer.getvalue(), len(registrations)
