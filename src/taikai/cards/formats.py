"""Deck files: ``.ydk``, ``ydke://`` URLs, YGO Omega deck codes and text deck sheets (デッキ記入シート)
in Japanese or English. Which format a list is in, and every reader and writer by name, is
``taikai.cards.deck_formats``.

Readers raise ``DeckFormatError`` (and only that) for input they cannot read. A text sheet's card
names are resolved through a ``NameResolver`` (``taikai.cards.index``); a name it does not know is
returned as an ``UnknownName`` with its line number and the closest names, not raised.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
import urllib.parse
import zlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Protocol

from taikai.cards.textsheet import (
    DeckFormatError,
    NameResolver,
    TextSheet,
    UnknownName,
    read_text_sheet,
    write_text_sheet,
)
from taikai.core.deck import SECTIONS, CardFacts, Deck
from taikai.core.problems import Problem

__all__ = ["DeckFormatError", "NameResolver", "TextSheet", "UnknownName", "read_text_sheet", "write_text_sheet"]


# --- reading bytes ---------------------------------------------------------------------------------


def decode_bytes(data: bytes) -> str:
    """A deck file or list as text, as the simulators and Japanese editors save it: UTF-8 with or without
    a BOM, UTF-16 with a BOM (Windows Notepad's "Unicode"), or Shift_JIS. Raises ``DeckFormatError``."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise DeckFormatError("not readable UTF-16") from exc
    for encoding in ("utf-8-sig", "cp932"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise DeckFormatError("not a text file (neither UTF-8, UTF-16 nor Shift_JIS)")


# --- .ydk ---------------------------------------------------------------------------------------

_YDK_HEADERS = {"#main": "main", "#extra": "extra"}
# A passcode and whatever a tool wrote after it ("81497285 # Ash", "81497285\tcomment"); zero-padded too.
_YDK_CARD = re.compile(r"^0*(\d{1,10})(?:\s.*|#.*)?$")


def _ydk_header(line: str) -> str | None:
    if line.startswith("!"):
        return "side"  # "!side", "!sidedeck", "!Side Deck": EDOPro takes any '!' line as the side deck
    return _YDK_HEADERS.get(line.split()[0].lower())


def _skipped_by_simulators(line: str) -> bool:
    """``#created by …``, ``#representative``, ``$57281778$``: YGOPro reads only lines that start with a
    digit and EDOPro only lines with one; these carry none a deck is made of."""
    return line.startswith(("#", "$"))


def read_ydk_sheet(text: str) -> TextSheet:
    """A ``.ydk`` as YGOPro's ``LoadDeckFromStream`` and EDOPro's ``LoadCardList`` read it; cards before
    any section header count as main deck. A bare number before ``#main`` in a file that has one is
    MDPro3's metadata (a deck's case or sleeve), not a card: skipped, with a note naming the line."""
    sections: dict[str, list[int]] = {s: [] for s in SECTIONS}
    notes: list[Problem] = []
    lines = [raw.strip().lstrip("\ufeff") for raw in text.splitlines()]
    before_main = any(ln.lower().split()[:1] == ["#main"] for ln in lines)
    current = "main"
    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        header = _ydk_header(line)
        if header:
            current, before_main = header, False
            continue
        if _skipped_by_simulators(line):
            continue
        match = _YDK_CARD.match(line) if line[:1].isascii() else None
        if match is None or int(match.group(1)) > 0xFFFFFFFF:
            raise DeckFormatError(f"not a passcode: {line[:40]!r}", number)
        if before_main:
            notes.append(Problem("ydk-line-skipped", line=number, text=line[:40]))
            continue
        sections[current].append(int(match.group(1)))
    deck = Deck(tuple(sections["main"]), tuple(sections["extra"]), tuple(sections["side"]))
    return TextSheet(deck, format="ydk", notes=tuple(notes))


def read_ydk(text: str) -> Deck:
    """A ``.ydk`` (see ``read_ydk_sheet``)."""
    return read_ydk_sheet(text).deck


def looks_like_ydk(text: str) -> bool:
    lines = [ln.strip().lstrip("\ufeff") for ln in text.splitlines() if ln.strip()]
    return any(ln.split()[0].lower() in _YDK_HEADERS for ln in lines) and all(
        ln.startswith(("#", "!", "$")) or _YDK_CARD.match(ln) is not None for ln in lines
    )


def sort_extra(deck: Deck, is_extra: Callable[[int], bool]) -> Deck:
    """YGOPro ignores ``#extra`` and files extra-deck monsters by type: move any listed under the main
    deck to the extra deck, so both kinds of ``.ydk`` read the same."""
    moved = tuple(p for p in deck.main if is_extra(p))
    if not moved:
        return deck
    return Deck(tuple(p for p in deck.main if not is_extra(p)), deck.extra + moved, deck.side)


class _Facts(Protocol):
    def facts(self, passcodes: Iterable[int]) -> dict[int, CardFacts]: ...


def sort_ydk(deck: Deck, index: _Facts) -> Deck:
    """``sort_extra`` with the extra-deck monsters known to ``index``."""
    known = index.facts(deck.main)
    return sort_extra(deck, lambda p: p in known and known[p].extra_kind is not None)


def sorted_ydk_sheet(sheet: TextSheet, index: _Facts) -> TextSheet:
    """A ``.ydk`` sheet with extra-deck monsters moved out of the main deck, and a note for each card
    moved, so "the main deck has 39 cards" explains itself."""
    deck = sort_ydk(sheet.deck, index)
    moved = Counter(sheet.deck.main) - Counter(deck.main)
    known = index.facts(moved)
    notes = tuple(
        Problem("ydk-moved-to-extra", card=p, name=known[p].name_ja or known[p].name_en or str(p), count=n)
        for p, n in moved.items()
    )
    return replace(sheet, deck=deck, notes=sheet.notes + notes)


def write_ydk(deck: Deck, created_by: str = "taikai") -> str:
    lines = [f"#created by {created_by}", "#main", *map(str, deck.main), "#extra", *map(str, deck.extra)]
    lines += ["!side", *map(str, deck.side)]
    return "\n".join(lines) + "\n"


# --- ydke:// -------------------------------------------------------------------------------------

# Tolerant as EDOPro is: either base64 alphabet, padding optional, percent-encoded, wrapped over
# lines or quoted inside a chat message, the last '!' optional.
_B64 = r"[A-Za-z0-9+/=_\-]"
_YDKE_CLOSED = re.compile(rf"ydke://({_B64}*(?:\s+{_B64}+)*)!((?:{_B64}|\s)*)!((?:{_B64}|\s)*)!", re.IGNORECASE)
_YDKE_OPEN = re.compile(rf"ydke://((?:{_B64}|\s)*)!((?:{_B64}|\s)*)!({_B64}*)", re.IGNORECASE)


def _ydke_part(name: str, encoded: str) -> tuple[int, ...]:
    text = "".join(encoded.split()).rstrip("=").replace("-", "+").replace("_", "/")
    if re.fullmatch(r"[A-Za-z0-9+/]*", text) is None or len(text) % 4 == 1:
        raise DeckFormatError(f"{name} part is not base64")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise DeckFormatError(f"{name} part is not base64") from exc
    if len(raw) % 4:
        raise DeckFormatError(f"{name} part is not a whole number of passcodes")
    return tuple(int(p) for (p,) in struct.iter_unpack("<I", raw))


def read_ydke(text: str) -> Deck:
    """``ydke://MAIN!EXTRA!SIDE!``: each part base64 of little-endian uint32 passcodes."""
    if "%" in text:
        text = urllib.parse.unquote(text)  # a URL pasted from a browser's address bar or a link
    match = _YDKE_CLOSED.search(text) or _YDKE_OPEN.search(text)
    if match is None:
        raise DeckFormatError("not a ydke:// URL (expected ydke://MAIN!EXTRA!SIDE!)")
    return Deck(*(_ydke_part(name, part) for name, part in zip(SECTIONS, match.groups(), strict=True)))


def has_ydke(text: str) -> bool:
    lowered = text.lower()
    return "ydke://" in lowered or "ydke%3a%2f%2f" in lowered


def write_ydke(deck: Deck) -> str:
    def part(cards: tuple[int, ...]) -> str:
        return base64.b64encode(struct.pack(f"<{len(cards)}I", *cards)).decode("ascii")

    return f"ydke://{part(deck.main)}!{part(deck.extra)}!{part(deck.side)}!"


# --- YGO Omega deck codes ------------------------------------------------------------------------

# As EDOPro's ``ImportDeckBase64Omega``: base64 of raw deflate of [main+extra count: u8][side count: u8]
# then that many little-endian uint32 passcodes, main and extra mixed (sorted by card type on reading).
OMEGA_MAX_MAIN = 60 + 15
OMEGA_MAX_SIDE = 15
_OMEGA = re.compile(r"^[A-Za-z0-9+/_\-]{8,}={0,2}$")


def _omega_size(mainc: int, sidec: int) -> int:
    return 2 + 4 * (mainc + sidec)


def read_omega(text: str) -> Deck:
    """A YGO Omega deck code -> the deck with main and extra together in ``main`` (``sort_extra``
    separates them, as EDOPro's ``LoadDeck`` does). Raises ``DeckFormatError``."""
    code = "".join(text.split()).replace("-", "+").replace("_", "/").rstrip("=")
    if not _OMEGA.match(code or "-"):
        raise DeckFormatError("not a YGO Omega deck code (base64)")
    try:
        packed = base64.b64decode(code + "=" * (-len(code) % 4), validate=True)
        inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        raw = inflater.decompress(packed, _omega_size(OMEGA_MAX_MAIN, OMEGA_MAX_SIDE))
    except (binascii.Error, ValueError, zlib.error) as exc:
        raise DeckFormatError("not a YGO Omega deck code (not deflate data)") from exc
    if len(raw) < 6:
        raise DeckFormatError("not a YGO Omega deck code (no cards)")
    mainc, sidec = raw[0], raw[1]
    if mainc > OMEGA_MAX_MAIN or sidec > OMEGA_MAX_SIDE or len(raw) < _omega_size(mainc, sidec):
        raise DeckFormatError("not a YGO Omega deck code (counts do not match the cards)")
    cards = struct.unpack_from(f"<{mainc + sidec}I", raw, 2)
    return Deck(tuple(cards[:mainc]), (), tuple(cards[mainc:]))


def looks_like_omega(text: str) -> bool:
    """One base64 token that inflates to an Omega deck (a text sheet is never one)."""
    if len(text) > 4_096 or len(text.split()) != 1 or text.isdigit():
        return False  # a bare passcode is a one-line text sheet
    try:
        read_omega(text)
    except DeckFormatError:
        return False
    return True


def write_omega(deck: Deck) -> str:
    """The YGO Omega code of ``deck``: main then extra, then side. Raises ``DeckFormatError`` for a deck
    the format cannot hold (more than 75 main and extra cards, or 15 side)."""
    cards = deck.main + deck.extra
    if len(cards) > OMEGA_MAX_MAIN or len(deck.side) > OMEGA_MAX_SIDE:
        raise DeckFormatError("too many cards for a YGO Omega deck code")
    raw = bytes([len(cards), len(deck.side)]) + struct.pack(f"<{len(cards) + len(deck.side)}I", *cards, *deck.side)
    deflater = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    return base64.b64encode(deflater.compress(raw) + deflater.flush()).decode("ascii")
