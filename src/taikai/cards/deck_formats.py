"""The deck formats taikai reads and writes, in the order a list is recognised: one registry for reading an
uploaded or pasted list (``read_deck``), naming what a registration was sent as (``detect``), and every
export (one deck, the event's zip, ``taikai deck export``).

A new format is one module with its reader and writer (``taikai.cards.formats`` holds ``.ydk``,
``ydke://`` and YGO Omega codes, ``taikai.cards.textsheet`` the text sheet) and one ``DeckFormat`` in
``FORMATS`` here; the text sheet comes last because it reads anything the others do not recognise.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from taikai.cards import formats
from taikai.cards.textsheet import NameResolver, TextSheet, read_text_sheet, write_text_sheet
from taikai.core.deck import CardFacts, Deck

Facts = Mapping[int, CardFacts]


@dataclass(frozen=True)
class DeckFormat:
    name: str  # stored as the registration's format
    label: str  # the export link's words: an English msgid, translated where shown (no Django here: the CLI)
    recognises: Callable[[str, str], bool]  # (text, file name): is the list in this format?
    read: Callable[[str, NameResolver], TextSheet]
    write: Callable[[Deck, Facts, str], str]  # (deck, the cards' facts, language) -> the file's text
    suffix: str  # of the exported file's name
    export_name: str = ""  # in export URLs and `taikai deck export --format`, when not ``name``

    @property
    def exported_as(self) -> str:
        return self.export_name or self.name


def _omega(deck: Deck, cards: Facts, lang: str) -> str:
    """The Omega code, or, for a deck the format cannot hold (over 75 main and extra cards), a line saying
    so: the other formats still carry it."""
    try:
        return formats.write_omega(deck) + "\n"
    except formats.DeckFormatError:
        return "# too many cards for a YGO Omega deck code / YGO Omega のデッキコードに入らない枚数です\n"


YDKE = DeckFormat(
    "ydke",
    "ydke://",
    lambda text, filename: formats.has_ydke(text),
    lambda text, resolver: TextSheet(formats.read_ydke(text), format="ydke"),
    lambda deck, cards, lang: formats.write_ydke(deck) + "\n",
    ".ydke.txt",
)
YDK = DeckFormat(
    "ydk",
    ".ydk",
    lambda text, filename: filename.lower().endswith(".ydk") or formats.looks_like_ydk(text),
    lambda text, resolver: formats.read_ydk_sheet(text),
    lambda deck, cards, lang: formats.write_ydk(deck),
    ".ydk",
)
OMEGA = DeckFormat(
    "omega",
    "YGO Omega code",
    lambda text, filename: formats.looks_like_omega(text.strip()),
    lambda text, resolver: TextSheet(formats.read_omega(text), format="omega"),
    _omega,
    ".omega.txt",
)
TEXT_SHEET = DeckFormat(
    "text",
    "Text deck sheet",
    lambda text, filename: True,
    read_text_sheet,
    lambda deck, cards, lang: write_text_sheet(deck, dict(cards), lang),
    ".txt",
    export_name="sheet",
)

FORMATS: list[DeckFormat] = [YDKE, YDK, OMEGA, TEXT_SHEET]


def detect(text: str, filename: str = "") -> DeckFormat:
    """The format of a list, by its content (or a ``.ydk`` file name)."""
    return next(f for f in FORMATS if f.recognises(text, filename))


def read_deck(text: str, resolver: NameResolver, filename: str = "") -> TextSheet:
    """Any deck format, recognised by its content (or a ``.ydk`` file name)."""
    return detect(text, filename).read(text, resolver)


def is_format(name: str) -> bool:
    """A registration's stored format is one of these (an imported event's rows are checked)."""
    return any(f.name == name for f in FORMATS)


def exported(name: str) -> DeckFormat | None:
    """The format an export asks for by name (``ydk``, ``sheet``, ...), or None."""
    return next((f for f in FORMATS if f.exported_as == name), None)
