"""Registered decks out: ``.ydk`` (YGOPro and EDOPro load it), ``ydke://``, the YGO Omega deck code and
the Japanese text sheet; one deck, or every deck of an event as one zip. Reads only."""

from __future__ import annotations

import io
import re
import zipfile

from taikai.cards.formats import DeckFormatError, write_omega, write_text_sheet, write_ydk, write_ydke
from taikai.cards.index import DbCardIndex
from taikai.core.deck import Deck
from taikai.decks.models import DeckRegistration
from taikai.events.models import Event

FORMATS = {"ydk": ".ydk", "ydke": ".ydke.txt", "omega": ".omega.txt", "sheet": ".txt"}
CONTENT_TYPES = {"ydk": "text/plain", "ydke": "text/plain", "omega": "text/plain", "sheet": "text/plain"}
_UNSAFE = re.compile(r"[\\/:*?\"<>|\x00-\x1f]+")


def registration_for(event: Event, player_id: int) -> DeckRegistration | None:
    return DeckRegistration.objects.filter(event=event, player_id=player_id).select_related("player").first()


def file_name(registration: DeckRegistration, fmt: str) -> str:
    """``<player id>-<name>.ydk``: the player's name kept (Japanese too), what a file system refuses removed."""
    name = _UNSAFE.sub("_", registration.player.name).strip(" .") or "player"
    return f"{registration.player_id}-{name[:40]}{FORMATS[fmt]}"


def deck_file(registration: DeckRegistration, fmt: str, lang: str = "ja") -> tuple[str, str]:
    """(file name, content) of one registered deck."""
    deck = registration.deck
    if fmt == "ydk":
        content = write_ydk(deck)
    elif fmt == "ydke":
        content = write_ydke(deck) + "\n"
    elif fmt == "omega":
        content = _omega(deck)
    elif fmt == "sheet":
        content = write_text_sheet(deck, DbCardIndex().facts(deck.all_cards()), lang)
    else:
        raise ValueError(fmt)
    return file_name(registration, fmt), content


def _omega(deck: Deck) -> str:
    """The Omega code, or, for a deck the format cannot hold (over 75 main and extra cards), a line
    saying so: the other formats still carry it."""
    try:
        return write_omega(deck) + "\n"
    except DeckFormatError:
        return "# too many cards for a YGO Omega deck code / YGO Omega のデッキコードに入らない枚数です\n"


def event_zip(event: Event, lang: str = "ja") -> tuple[bytes, int]:
    """Every registered deck of ``event`` in each format, one folder per format; (zip bytes, decks)."""
    registrations = list(DeckRegistration.objects.filter(event=event).select_related("player"))
    cards = DbCardIndex().facts(p for r in registrations for p in r.deck.all_cards())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for registration in registrations:
            deck = registration.deck
            contents = {
                "ydk": write_ydk(deck),
                "ydke": write_ydke(deck) + "\n",
                "omega": _omega(deck),
                "sheet": write_text_sheet(deck, cards, lang),
            }
            for fmt, content in contents.items():
                archive.writestr(f"{fmt}/{file_name(registration, fmt)}", content)
    return buffer.getvalue(), len(registrations)
